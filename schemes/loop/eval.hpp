// Loop eval (paper appendix A): vertex data only, level by level, as mapped products on the
// operators a build made (or on half-edge levels, triangle_eval.hpp); any width k, float or
// double.
#pragma once

#include "linalg/spmv.hpp"
#include "schemes/crease_rules.hpp"
#include "schemes/levels.hpp"
#include "schemes/loop/build.hpp"
#include "schemes/loop/plan.hpp"
#include "schemes/loop/triangle_eval.hpp"

#include <cstdint>
#include <string>
#include <variant>

namespace spmesh::schemes::loop {

// One level: P (level.vertices x k) -> the child's vertex data (level.child_vertices() x k).
template <class Exec, class T>
linalg::Dense<T, typename Exec::space> subdivide(Exec& exec, const Level<typename Exec::space>& L,
                                                 const linalg::Dense<T, typename Exec::space>& P) {
  using S = typename Exec::space;
  if (P.rows != L.vertices)
    throw DimensionError("loop::eval: vertex data has " + std::to_string(P.rows) +
                         " rows, the level has " + std::to_string(L.vertices) + " vertices");
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

// One level of a plan, general or on half-edges.
template <class Exec, class T>
linalg::Dense<T, typename Exec::space> subdivide(Exec& exec,
                                                 const AnyLevel<typename Exec::space>& level,
                                                 const linalg::Dense<T, typename Exec::space>& P) {
  return std::visit([&](const auto& L) { return subdivide(exec, L, P); }, level);
}

// Level l of a plan: level l's vertex data -> level l + 1's. A triangle level after a triangle
// level goes by its groups
// (group_eval.hpp).
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
// less memory (at most two levels' operators and data alive at once).
template <class Exec, class T>
Subdivided<T, typename Exec::space> build_and_eval(Exec& exec,
                                                   linalg::MeshMatrix<typename Exec::space> M,
                                                   Sharpness<typename Exec::space> C, int levels,
                                                   const linalg::Dense<T, typename Exec::space>& P0,
                                                   Options options = {}) {
  return eval_as_built<TriangleLevel<typename Exec::space>>(exec, P0, [&](auto& sink) {
    return detail::build_into(exec, std::move(M), C, levels, options, sink);
  });
}

}  // namespace spmesh::schemes::loop
