// Catmull-Clark build (paper section 3.2, 3.3). The general path: all topology work for L
// levels, as a sequence of mapped products and element-wise maps on the executor. Per level:
// face orders (Eq. 5), the edge matrix E and its enumeration (Eq. 8-11), the oriented adjacency
// F (Eq. 12, 13), the crease rules of every edge and vertex from the crease matrix C (Eq. 18-21,
// as OpenSubdiv applies them), the refined mesh matrix and the child's C. No vertex data is
// touched. The front door's build takes the half-edge path (quad_build.hpp) unless told
// otherwise.
#pragma once

#include "linalg/convert.hpp"
#include "meshops/topology.hpp"
#include "schemes/catmull_clark/plan.hpp"
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

// OpenSubdiv's smooth triangle rule (TriangleRule::smooth, its TRI_SUB_SMOOTH): the smooth
// mask of an edge between two faces of which one or both are triangles weighs each face point
// f_w = (t_0 + t_1) / 2 (t = 0.47 at a triangle, 1/4 at another face) and each end 1/2 - f_w.
// That is EdgeWeights' mask at blend weight w' = 1 - 4 f_w, and its crease blend
// (1 - w) smooth + w crease is EdgeWeights' at 1 - (1 - w)(1 - w'): the rule changes the edges'
// blend weights (CreaseRules::edge_crease) and nothing else, so eval and S_l take it as they are.
template <class Exec, class S = typename Exec::space>
void smooth_triangle_edges(Exec& exec, const linalg::Array<index_t, S>& face_orders, Level<S>& L) {
  const index_t *order = face_orders.data(), *face0 = L.edge_face0.data(), *face1 = L.edge_face1.data();
  double* blend = L.rules.edge_crease.data();
  exec.for_each(L.edges, [=] SPMESH_HD(index_t e) {
    const index_t f0 = face0[e], f1 = face1[e];
    if (f0 < 0 || f1 < 0 || (order[f0] != 3 && order[f1] != 3)) return;
    auto weight = [](index_t corners) { return corners == 3 ? 0.47 : 0.25; };  // t of the face
    const double face_weight = 0.5 * (weight(order[f0]) + weight(order[f1]));
    blend[e] = 1 - (1 - blend[e]) * (4 * face_weight);
  });
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
  auto faces = meshops::edge_sides(exec, meshops::oriented_adjacency(exec, M), L.edge_from,
                                   L.edge_to);
  L.edge_face0 = std::move(faces.side0), L.edge_face1 = std::move(faces.side1);
  L.M_rows = linalg::to_csr(exec, M);
  const index_t first_edge_point =
      checked_index(std::int64_t(L.vertices) + L.faces, "Catmull-Clark child vertices");
  const index_t V1 = checked_index(std::int64_t(first_edge_point) + L.edges,
                                   "Catmull-Clark child vertices");

  // The crease rules (Eq. 18-21 as OpenSubdiv applies them) and the child's crease matrix.
  auto [rules, child_C] = crease_rules(exec, L.E, edge_of, L.edge_from, L.edge_to, edges.sides,
                                       C, options, detail::SmoothMask{}, first_edge_point, V1);
  L.rules = std::move(rules);
  if (options.triangles == TriangleRule::smooth) detail::smooth_triangle_edges(exec, c, L);

  auto child = detail::refined_mesh(exec, M, L, edge_of);
  L.M = std::move(M);
  return {std::move(L), std::move(child), std::move(child_C)};
}

}  // namespace spmesh::schemes::catmull_clark
