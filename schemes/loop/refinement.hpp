// The Loop refinement matrix: each level's eval as S_l (child x parent vertices) and
// R = S_L ... S_1, from the same weights eval applies.
#pragma once

#include "linalg/convert.hpp"
#include "schemes/levels.hpp"
#include "schemes/loop/plan.hpp"
#include "schemes/loop/triangle_eval.hpp"

#include <cstdint>
#include <variant>

namespace spmesh::schemes::loop {

namespace detail {

// The rows of S_l (an assemble_rows producer): a vertex point a at itself, b at each
// neighbour, d at the crease ends; an edge point `end` at its ends, `other` at the opposite
// vertices.
struct LevelRows {
  linalg::CompressedView<index_t> E;
  const double *edge_crease, *self, *ring, *crease;
  const index_t *from, *to, *opposite0, *opposite1, *u, *w;
  index_t vertices;

  SPMESH_HD std::int64_t bound(index_t r) const {
    return r < vertices ? 3 + E.end(r) - E.begin(r) : 4;
  }

  template <class Sink>
  SPMESH_HD void operator()(index_t r, Sink&& sink) const {
    if (r < vertices) {
      sink(r, self[r]);
      if (ring[r] != 0)
        for (index_t p = E.begin(r); p < E.end(r); ++p) sink(E.indices[p], ring[r]);
      if (crease[r] != 0) sink(u[r], crease[r]), sink(w[r], crease[r]);
      return;
    }
    const index_t e = r - vertices;
    const EdgeMask m = EdgeWeights{}(edge_crease[e]);
    sink(from[e], m.end), sink(to[e], m.end);
    if (m.other == 0) return;
    if (opposite0[e] >= 0) sink(opposite0[e], m.other);
    if (opposite1[e] >= 0) sink(opposite1[e], m.other);
  }
};

}  // namespace detail

// S_l: the level's eval as a matrix (child vertices x parent vertices).
template <class Exec>
linalg::Csr<double, typename Exec::space> level_matrix(Exec& exec,
                                                       const Level<typename Exec::space>& L) {
  const auto& r = L.rules;
  const detail::LevelRows rows{L.E.view(),          r.edge_crease.data(),   r.vertex_self.data(),
                               r.vertex_ring.data(), r.vertex_crease.data(), L.edge_from.data(),
                               L.edge_to.data(),     L.edge_opposite0.data(),
                               L.edge_opposite1.data(), r.crease_u.data(), r.crease_w.data(),
                               L.vertices};
  return linalg::assemble_rows<double>(exec, L.child_vertices(), L.vertices, rows);
}

// S_l of one level of a plan, general or on half-edges.
template <class Exec>
linalg::Csr<double, typename Exec::space> level_matrix(Exec& exec,
                                                       const AnyLevel<typename Exec::space>& level) {
  return std::visit([&](const auto& L) { return level_matrix(exec, L); }, level);
}

// R = S_L ... S_1, composed in double and stored as T; zero levels give the identity.
template <class T, class Exec>
linalg::Csr<T, typename Exec::space> refinement_matrix(Exec& exec,
                                                       const Plan<typename Exec::space>& plan) {
  return compose_levels<T>(exec, plan);
}

}  // namespace spmesh::schemes::loop
