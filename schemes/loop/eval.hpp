// Loop eval on the general path (paper appendix B): one level's vertex data as mapped products
// on the operators its build made; any width k, float or double. (Half-edge levels:
// triangle_eval.hpp.)
#pragma once

#include "linalg/spmv.hpp"
#include "schemes/crease_rules.hpp"
#include "schemes/loop/plan.hpp"

#include <cstdint>
#include <string>

namespace spmesh::schemes::loop {

// One level on the general path: P (L.vertices x k) -> the child's vertex data
// (L.child_vertices() x k).
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> level_points(Exec& exec, const Level<S>& L, const linalg::Dense<T, S>& P) {
  const index_t V = L.vertices, k = P.cols;
  const auto& r = L.rules;
  linalg::Dense<T, S> out(L.child_vertices(), k);
  auto vertex_points = linalg::row_block(out, 0, V);
  // Edge points: 3/8 (p_i + p_j) + 1/8 (o_0 + o_1) from E's enumeration and G (Eq. 35, 36).
  exec.for_each(L.edges, EdgePoints<T, detail::EdgeWeights>{
                             L.edge_from.data(), L.edge_to.data(), L.edge_opposite0.data(),
                             L.edge_opposite1.data(), r.edge_crease.data(), {}, P.data.data(),
                             P.data.data(), out.data.data() + std::int64_t(V) * k, k});
  // Eq. 37: the ring sum E P, val_i,* -> b_i; then Eq. 33 with the crease masks.
  linalg::spmm(exec, L.E, P, vertex_points, linalg::map::per_row(r.vertex_ring));
  exec.for_each(V, VertexPoints<T>{r.vertex_self.data(), r.vertex_crease.data(),
                                   r.crease_u.data(), r.crease_w.data(), P.data.data(),
                                   nullptr, vertex_points.data, k});
  return out;
}

}  // namespace spmesh::schemes::loop
