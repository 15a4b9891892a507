// Loop build (paper appendix B): all topology work for L levels of a triangle mesh. Per level:
// the edge matrix E and its enumeration (Eq. 8-11 with c = 3), the opposite-vertex matrix
// G = M M^T {Q_3}[lambda] (Eq. 35, 36), the crease rules (crease_rules.hpp) with Loop's smooth
// mask, and the refined mesh matrix (each triangle -> 4). No vertex data is touched. That is the
// general path; the front door's build takes the half-edge path (triangle_build.hpp) unless
// told otherwise.
#pragma once

#include "linalg/convert.hpp"
#include "meshops/topology.hpp"
#include "schemes/loop/plan.hpp"
#include "schemes/tags.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace spmesh::schemes::loop {

namespace detail {

// Eq. 36: the vertex opposite the oriented edge i -> j of triangle k (slot_i + 2).
struct OppositeVertex {
  linalg::MeshView M;
  SPMESH_HD index_t operator()(const linalg::Collision& c) const {
    return M.indices[M.begin(c.k) + (c.slot_i + 2) % 3];
  }
};

// Triangle (v0, v1, v2) with edge points e0 = v0v1, e1 = v1v2, e2 = v2v0 becomes, in
// OpenSubdiv's order, (v0, e0, e2), (e0, v1, e1), (e2, e1, v2) and the middle (e1, e2, e0).
struct RefineTriangles {
  linalg::MeshView M;
  linalg::CompressedView<index_t> E;
  const index_t* edge_of;
  index_t vertices;
  index_t* child;  // 12 per triangle

  SPMESH_HD void operator()(index_t f) const {
    const index_t* v = M.indices + M.begin(f);
    const index_t e0 = edge_point(v[0], v[1]), e1 = edge_point(v[1], v[2]),
                  e2 = edge_point(v[2], v[0]);
    const index_t q[12] = {v[0], e0, e2, e0, v[1], e1, e2, e1, v[2], e1, e2, e0};
    for (int k = 0; k < 12; ++k) child[12 * std::int64_t(f) + k] = q[k];
  }
  SPMESH_HD index_t edge_point(index_t i, index_t j) const {
    return vertices + edge_of[E.find(i, j)];
  }
};

}  // namespace detail

// One level: the triangles of M and their sharpness -> the level's operators, the child mesh
// and the child's sharpness.
template <class Exec>
LevelResult<Level<typename Exec::space>> build_level(Exec& exec,
                                                      linalg::MeshMatrix<typename Exec::space> M,
                                                      const Sharpness<typename Exec::space>& C,
                                                      const Options& options) {
  using S = typename Exec::space;
  using linalg::Array;
  Level<S> L;
  L.vertices = M.vertices, L.faces = M.faces;

  // E and its enumeration; Eq. 35, 36: G(i, j) = the vertex opposite i -> j.
  L.E = meshops::edge_matrix(exec, M);
  auto edges = meshops::enumerate_edges(exec, L.E);
  L.edges = edges.count();
  L.edge_from = std::move(edges.from), L.edge_to = std::move(edges.to);
  const Array<index_t, S> edge_of = meshops::edge_index_of_entries(exec, L.E);
  auto opposite = meshops::edge_sides(
      exec,
      linalg::mmt(exec, M, linalg::Circulant{1}, detail::OppositeVertex{M.view()},
                  linalg::reduce::First{}),
      L.edge_from, L.edge_to);
  L.edge_opposite0 = std::move(opposite.side0), L.edge_opposite1 = std::move(opposite.side1);
  const index_t V1 = checked_index(std::int64_t(L.vertices) + L.edges, "Loop child vertices");

  // The crease rules (Eq. 18-21 as OpenSubdiv applies them) and the child's crease matrix.
  auto [rules, child_C] = crease_rules(exec, L.E, edge_of, L.edge_from, L.edge_to, edges.sides,
                                       C, options, detail::SmoothMask{}, L.vertices, V1);
  L.rules = std::move(rules);

  // The refined mesh matrix: four triangles per triangle.
  const index_t faces = checked_index(4 * std::int64_t(L.faces), "Loop child faces");
  const index_t nnz = checked_index(3 * std::int64_t(faces), "Loop child faces");
  Array<index_t, S> offsets(faces + 1), indices(nnz);
  index_t* o = offsets.data();
  exec.for_each(faces + 1, [=] SPMESH_HD(index_t f) { o[f] = 3 * f; });
  exec.for_each(L.faces, detail::RefineTriangles{M.view(), L.E.view(), edge_of.data(),
                                                 L.vertices, indices.data()});
  L.M = std::move(M);
  return {std::move(L), linalg::MeshMatrix<S>(V1, std::move(offsets), std::move(indices)),
          std::move(child_C)};
}

}  // namespace spmesh::schemes::loop
