// The Catmull-Clark refinement matrix (design.md "Build, eval, replay"): each level's eval as
// one sparse matrix S_l (child vertices x parent vertices), and their product R = S_L ... S_1,
// so that P_L = R P_0 is a single SpMV. Built from the same weights eval applies.
#pragma once

#include "linalg/convert.hpp"
#include "schemes/catmull_clark/plan.hpp"
#include "schemes/catmull_clark/quad_eval.hpp"
#include "schemes/levels.hpp"

#include <cstdint>

namespace spmesh::schemes::catmull_clark {

namespace detail {

// The rows of S_l (an assemble_rows producer): a face point is 1/c at each face vertex; an edge
// point (1 + w)/4 at its ends plus (1 - w)/4 times each side's face point; a vertex point a at
// itself, b at each neighbour and b times each adjacent face point, d at the crease ends.
struct LevelRows {
  linalg::MeshView M;
  linalg::CompressedView<index_t> M_rows, E;
  const double *inv_order, *edge_crease, *self, *ring, *crease;
  const index_t *from, *to, *face0, *face1, *u, *w;
  index_t vertices, faces;

  SPMESH_HD std::int64_t bound(index_t r) const {
    if (r < vertices) {
      std::int64_t n = 3 + E.end(r) - E.begin(r);
      for (index_t q = M_rows.begin(r); q < M_rows.end(r); ++q)
        n += M.end(M_rows.indices[q]) - M.begin(M_rows.indices[q]);
      return n;
    }
    if (r < vertices + faces) return M.end(r - vertices) - M.begin(r - vertices);
    const index_t e = r - vertices - faces;
    std::int64_t n = 2;
    if (face0[e] >= 0) n += M.end(face0[e]) - M.begin(face0[e]);
    if (face1[e] >= 0) n += M.end(face1[e]) - M.begin(face1[e]);
    return n;
  }

  template <class Sink>
  SPMESH_HD void face(index_t f, double weight, Sink& sink) const {
    if (weight == 0) return;
    const double x = weight * inv_order[f];
    for (index_t p = M.begin(f); p < M.end(f); ++p) sink(M.indices[p], x);
  }

  template <class Sink>
  SPMESH_HD void operator()(index_t r, Sink&& sink) const {
    if (r < vertices) {
      sink(r, self[r]);
      if (ring[r] != 0) {
        for (index_t p = E.begin(r); p < E.end(r); ++p) sink(E.indices[p], ring[r]);
        for (index_t q = M_rows.begin(r); q < M_rows.end(r); ++q)
          face(M_rows.indices[q], ring[r], sink);
      }
      if (crease[r] != 0) sink(u[r], crease[r]), sink(w[r], crease[r]);
    } else if (r < vertices + faces) {
      face(r - vertices, 1.0, sink);
    } else {
      const index_t e = r - vertices - faces;
      const EdgeMask m = EdgeWeights{}(edge_crease[e]);
      sink(from[e], m.end), sink(to[e], m.end);
      if (face0[e] >= 0) face(face0[e], m.other, sink);
      if (face1[e] >= 0) face(face1[e], m.other, sink);
    }
  }
};

}  // namespace detail

// S_l: the level's eval as a matrix (child vertices x parent vertices).
template <class Exec>
linalg::Csr<double, typename Exec::space> level_matrix(Exec& exec,
                                                       const Level<typename Exec::space>& L) {
  const detail::LevelRows rows{L.M.view(),          L.M_rows.view(),       L.E.view(),
                               L.inv_order.data(),  L.rules.edge_crease.data(),  L.rules.vertex_self.data(),
                               L.rules.vertex_ring.data(), L.rules.vertex_crease.data(), L.edge_from.data(),
                               L.edge_to.data(),    L.edge_face0.data(),   L.edge_face1.data(),
                               L.rules.crease_u.data(),   L.rules.crease_w.data(),     L.vertices,
                               L.faces};
  return linalg::assemble_rows<double>(exec, L.child_vertices(), L.vertices, rows);
}

// S_l of one level of a plan, polygon or quad.
template <class Exec>
linalg::Csr<double, typename Exec::space> level_matrix(Exec& exec,
                                                       const AnyLevel<typename Exec::space>& level) {
  return std::visit([&](const auto& L) { return level_matrix(exec, L); }, level);
}

// R = S_L ... S_1 (rows: the last level's vertices, columns: the base vertices), composed in
// double and stored as T. A plan of zero levels gives the identity.
template <class T, class Exec>
linalg::Csr<T, typename Exec::space> refinement_matrix(Exec& exec,
                                                       const Plan<typename Exec::space>& plan) {
  return compose_levels<T>(exec, plan);
}

}  // namespace spmesh::schemes::catmull_clark
