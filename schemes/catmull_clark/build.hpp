// Catmull-Clark build (paper section 3.2, 3.3). The general path: all topology work for L
// levels, as a sequence of mapped products and element-wise maps on the executor. Per level:
// face orders (Eq. 5), the edge matrix E and its enumeration (Eq. 8-11), the oriented adjacency
// F (Eq. 12, 13), the crease rules of every edge and vertex from the crease matrix C (Eq. 18-21,
// as OpenSubdiv applies them), the refined mesh matrix and the child's C. No vertex data is
// touched. build() takes the half-edge path (quad_build.hpp) unless told otherwise.
#pragma once

#include "linalg/convert.hpp"
#include "meshops/topology.hpp"
#include "schemes/catmull_clark/patch_build.hpp"
#include "schemes/catmull_clark/plan.hpp"
#include "schemes/catmull_clark/quad_build.hpp"
#include "schemes/crease_rules.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace spmesh::schemes::catmull_clark {

namespace detail {

// The refined mesh matrix (paper 3.2 "Topology refinement"): corner a of face f becomes the
// quad (vertex point of v_a, edge point of v_a v_(a+1), face point of f, edge point of
// v_(a-1) v_a). Quads keep each child's corner at its parent corner's slot (OpenSubdiv's
// orientation); other polygons start every child at its vertex point.
struct RefineFaces {
  linalg::MeshView M;
  linalg::CompressedView<index_t> E;
  const index_t* edge_of;
  index_t vertices, faces;
  index_t* child;  // 4 per corner

  SPMESH_HD void operator()(index_t f) const {
    const index_t lo = M.begin(f), c = M.end(f) - lo;
    for (index_t a = 0; a < c; ++a) {
      const index_t v = M.indices[lo + a], next = M.indices[lo + (a + 1) % c],
                    prev = M.indices[lo + (a + c - 1) % c];
      const index_t q[4] = {v, edge_point(v, next), vertices + f, edge_point(prev, v)};
      const index_t turn = c == 4 ? a : 0;
      for (int k = 0; k < 4; ++k) child[4 * (lo + a) + (turn + k) % 4] = q[k];
    }
  }
  SPMESH_HD index_t edge_point(index_t i, index_t j) const {
    return vertices + faces + edge_of[E.find(i, j)];
  }
};

}  // namespace detail

namespace detail {

// Eq. 12, 13: the faces F(i, j) and F(j, i) on the two sides of every edge (-1: none).
template <class Exec, class S = typename Exec::space>
void edge_faces(Exec& exec, const linalg::MeshMatrix<S>& M, Level<S>& L) {
  const auto F = meshops::oriented_adjacency(exec, M);
  const auto f = F.view();
  L.edge_face0 = linalg::Array<index_t, S>(L.edges), L.edge_face1 = linalg::Array<index_t, S>(L.edges);
  const index_t *from = L.edge_from.data(), *to = L.edge_to.data();
  index_t *f0 = L.edge_face0.data(), *f1 = L.edge_face1.data();
  exec.for_each(L.edges, [=] SPMESH_HD(index_t e) {
    const index_t p = f.find(from[e], to[e]), q = f.find(to[e], from[e]);
    f0[e] = p >= 0 ? f.values[p] : -1;
    f1[e] = q >= 0 ? f.values[q] : -1;
  });
}

// The refined mesh matrix: one quad per corner of M (RefineFaces).
template <class Exec, class S = typename Exec::space>
linalg::MeshMatrix<S> refined_mesh(Exec& exec, const linalg::MeshMatrix<S>& M, const Level<S>& L,
                                   const linalg::Array<index_t, S>& edge_of) {
  const index_t corners = M.nnz();
  const index_t nnz = checked_index(4 * std::int64_t(corners), "Catmull-Clark child faces");
  linalg::Array<index_t, S> offsets(corners + 1), indices(nnz);
  index_t* o = offsets.data();
  exec.for_each(corners + 1, [=] SPMESH_HD(index_t p) { o[p] = 4 * p; });
  exec.for_each(L.faces, RefineFaces{M.view(), L.E.view(), edge_of.data(), L.vertices, L.faces,
                                     indices.data()});
  return linalg::MeshMatrix<S>(L.child_vertices(), std::move(offsets), std::move(indices));
}

}  // namespace detail

// One level: the topology of M and its sharpness -> the level's operators, the child mesh and
// the child's sharpness.
template <class Exec>
LevelResult<Level<typename Exec::space>> build_level(Exec& exec,
                                                      linalg::MeshMatrix<typename Exec::space> M,
                                                      const Sharpness<typename Exec::space>& C,
                                                      const Options& options) {
  using S = typename Exec::space;
  using linalg::Array;
  Level<S> L;
  L.vertices = M.vertices, L.faces = M.faces;

  // Eq. 5, 6: face orders and their inverses (the per-column map of the face points).
  const Array<index_t, S> c = meshops::face_orders(exec, M);
  L.inv_order = Array<double, S>(L.faces);
  {
    const index_t* co = c.data();
    double* inv = L.inv_order.data();
    exec.for_each(L.faces, [=] SPMESH_HD(index_t f) { inv[f] = 1.0 / co[f]; });
  }

  // Eq. 8-11: E and the edge enumeration from its upper triangle; Eq. 12, 13: faces per edge.
  L.E = meshops::edge_matrix(exec, M);
  auto edges = meshops::enumerate_edges(exec, L.E);
  L.edges = edges.count();
  L.edge_from = std::move(edges.from), L.edge_to = std::move(edges.to);
  const Array<index_t, S> edge_of = meshops::edge_index_of_entries(exec, L.E);
  detail::edge_faces(exec, M, L);
  L.M_rows = linalg::to_csr(exec, M);
  const index_t first_edge_point =
      checked_index(std::int64_t(L.vertices) + L.faces, "Catmull-Clark child vertices");
  const index_t V1 = checked_index(std::int64_t(first_edge_point) + L.edges,
                                   "Catmull-Clark child vertices");

  // The crease rules (Eq. 18-21 as OpenSubdiv applies them) and the child's crease matrix.
  auto [rules, child_C] = crease_rules(exec, L.E, edge_of, L.edge_from, L.edge_to, edges.sides,
                                       C, options, detail::SmoothMask{}, first_edge_point, V1);
  L.rules = std::move(rules);

  auto child = detail::refined_mesh(exec, M, L, edge_of);
  L.M = std::move(M);
  return {std::move(L), std::move(child), std::move(child_C)};
}

namespace detail {

// All `levels` levels on half-edges from the first, L (quad_build.hpp), into `sink`
// (levels.hpp); returns the refined mesh.
template <class Exec, class Level, class Sink, class S = typename Exec::space>
RefinedMesh<S> build_half_edges(Exec& exec, Level L, int levels, const Options& options,
                                Sink& sink) {
  const auto table = sharp_table(exec, L);
  L.rules = quad_rules(exec, L, options, table.at(0));
  sink.ready(L);
  QuadLevel<S> Q = refine_quads(exec, L, levels > 1);
  sink.keep(std::move(L));
  for (int l = 1; l < levels; ++l) {
    Q.rules = quad_rules(exec, Q, options, table.at(l));
    sink.ready(Q);
    QuadLevel<S> child = refine_quads(exec, Q, l + 1 < levels);
    sink.keep(std::move(Q));
    Q = std::move(child);
  }
  return std::move(Q.M);
}

// The half-edge build of mesh M with level-0 sharpness C into `sink`; returns the refined mesh
// (M itself for zero levels). Throws CapacityError after the first level's edges are known if
// a later level would exceed 32-bit indices.
template <class Exec, class Sink, class S = typename Exec::space>
RefinedMesh<S> build_into(Exec& exec, linalg::MeshMatrix<S> M, const Sharpness<S>& C, int levels,
                          const Options& options, Sink& sink) {
  check_level_count(levels);
  if (levels == 0) return RefinedMesh<S>(std::move(M));
  const index_t corners = M.nnz();
  return std::visit(
      [&](auto&& L) {
        estimate_size(L.vertices, L.faces, corners, L.edges, levels, 0, 0).check_indices();
        return build_half_edges(exec, std::move(L), levels, options, sink);
      },
      first_level(exec, std::move(M), C));
}

}  // namespace detail

// All topology work for `levels` levels of mesh M with level-0 sharpness C: on half-edges
// (quad_build.hpp; a QuadLevel or PolygonLevel first, then QuadLevels), or with Path::general
// every level on the general path (build_level). Throws CapacityError after the first level's
// edges are known if a later level would exceed 32-bit indices; estimate_size (plan.hpp) says
// the same, and the bytes, before any work.
template <class Exec>
Plan<typename Exec::space> build(Exec& exec, linalg::MeshMatrix<typename Exec::space> M,
                                 Sharpness<typename Exec::space> C, int levels,
                                 Options options = {}, Path path = Path::half_edges) {
  using S = typename Exec::space;
  Plan<S> plan;
  plan.options = options;
  if (path == Path::general) {
    check_level_count(levels);
    for (int l = 0; l < levels; ++l) {
      auto r = build_level(exec, std::move(M), C, options);
      if (l == 0)
        estimate_size(r.level.vertices, r.level.faces, r.level.M.nnz(), r.level.edges, levels, 0, 0)
            .check_indices();
      plan.levels.emplace_back(std::move(r.level));
      M = std::move(r.child), C = std::move(r.child_sharpness);
    }
    plan.refined = std::move(M);
    return plan;
  }
  KeepLevels<Plan<S>> sink{plan};
  plan.refined = detail::build_into(exec, std::move(M), C, levels, options, sink);
  plan.patches = choose_patches(exec, plan);
  return plan;
}

}  // namespace spmesh::schemes::catmull_clark
