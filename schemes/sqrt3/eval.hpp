// sqrt(3) eval (paper appendix B): vertex data only, level by level, on the operators a build
// made (or on half-edge levels, triangle_eval.hpp); any width k, float or double.
#pragma once

#include "linalg/spmv.hpp"
#include "schemes/crease_rules.hpp"
#include "schemes/levels.hpp"
#include "schemes/sqrt3/build.hpp"
#include "schemes/sqrt3/plan.hpp"
#include "schemes/sqrt3/triangle_eval.hpp"

#include <cstdint>
#include <string>
#include <variant>

namespace spmesh::schemes::sqrt3 {

// One level: P (level.vertices x k) -> the child's vertex data (level.child_vertices() x k).
template <class Exec, class T>
linalg::Dense<T, typename Exec::space> subdivide(Exec& exec, const Level<typename Exec::space>& L,
                                                 const linalg::Dense<T, typename Exec::space>& P) {
  using S = typename Exec::space;
  if (P.rows != L.vertices)
    throw DimensionError("sqrt3::eval: vertex data has " + std::to_string(P.rows) +
                         " rows, the level has " + std::to_string(L.vertices) + " vertices");
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

// One level of a plan, general or on half-edges.
template <class Exec, class T>
linalg::Dense<T, typename Exec::space> subdivide(Exec& exec,
                                                 const AnyLevel<typename Exec::space>& level,
                                                 const linalg::Dense<T, typename Exec::space>& P) {
  return std::visit([&](const auto& L) { return subdivide(exec, L, P); }, level);
}

// Level l of a plan: level l's vertex data -> level l + 1's. A half-edge level after a
// half-edge level goes through its parent's faces.
template <class Exec, class T>
linalg::Dense<T, typename Exec::space> subdivide(Exec& exec, const Plan<typename Exec::space>& plan,
                                                 std::size_t l,
                                                 const linalg::Dense<T, typename Exec::space>& P) {
  return subdivide_in_plan<TriangleLevel<typename Exec::space>>(exec, plan, l, P);
}

// All levels of a plan: P0 (base vertices x k) -> the last level's vertex data.
template <class Exec, class T>
linalg::Dense<T, typename Exec::space> eval(Exec& exec, const Plan<typename Exec::space>& plan,
                                            const linalg::Dense<T, typename Exec::space>& P0) {
  return eval_levels(exec, plan, P0,
                     [&](std::size_t l, const auto& P) { return subdivide(exec, plan, l, P); });
}

// Build and eval of `levels` levels in one pass, keeping no plan (EvalAsBuilt, levels.hpp):
// what eval(build(M, C, levels, options), P0) gives, bit for bit, with the refined mesh, in
// less memory (at most two levels' operators and data alive at once). Options are ignored, as
// by build.
template <class Exec, class T>
Subdivided<T, typename Exec::space> build_and_eval(Exec& exec,
                                                   linalg::MeshMatrix<typename Exec::space> M,
                                                   Sharpness<typename Exec::space> C, int levels,
                                                   const linalg::Dense<T, typename Exec::space>& P0,
                                                   Options = {}) {
  return eval_as_built<TriangleLevel<typename Exec::space>>(exec, P0, [&](auto& sink) {
    return detail::build_into(exec, std::move(M), C, levels, sink);
  });
}

}  // namespace spmesh::schemes::sqrt3
