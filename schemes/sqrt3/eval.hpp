// sqrt(3) eval on the general path (paper appendix A): one level's vertex data on the operators
// its build made; any width k, float or double. (Half-edge levels: triangle_eval.hpp.)
#pragma once

#include "linalg/spmv.hpp"
#include "schemes/crease_rules.hpp"
#include "schemes/sqrt3/plan.hpp"

#include <cstdint>
#include <string>

namespace spmesh::schemes::sqrt3 {

// One level on the general path: P (L.vertices x k) -> the child's vertex data
// (L.child_vertices() x k).
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> level_points(Exec& exec, const Level<S>& L, const linalg::Dense<T, S>& P) {
  const index_t V = L.vertices, k = P.cols;
  linalg::Dense<T, S> out(L.child_vertices(), k);
  // Eq. 31 (the centroids, f = M^T P with 1/3) and Kobbelt's boundary points.
  exec.for_each(L.faces, detail::ApplyNewPoints<T, detail::NewPoints>{
                             {L.M.view(), new_point_rows(L), L.boundary_u.data(),
                              L.boundary_w.data()},
                             P.data.data(), out.data.data(), k});
  // Eq. 29, 32: the ring sum E P with alpha_n / n per row, then (1 - alpha_n) p_i, or the
  // boundary masks.
  auto vertex_points = linalg::row_block(out, 0, V);
  linalg::spmm(exec, L.E, P, vertex_points, linalg::map::per_row(L.vertex_ring));
  exec.for_each(V, VertexPoints<T>{L.vertex_self.data(), L.vertex_crease.data(),
                                   L.boundary_u.data(), L.boundary_w.data(), P.data.data(),
                                   nullptr, vertex_points.data, k});
  return out;
}

}  // namespace spmesh::schemes::sqrt3
