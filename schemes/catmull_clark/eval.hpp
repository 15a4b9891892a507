// Catmull-Clark eval (paper section 3.2, Fig. 3): vertex data only, level by level, as mapped
// products on the operators a build made. P is n x k row-major data of any width k
// (positions, colours, UVs), float or double.
#pragma once

#include "linalg/spmv.hpp"
#include "schemes/catmull_clark/build.hpp"
#include "schemes/catmull_clark/plan.hpp"
#include "schemes/catmull_clark/quad_eval.hpp"
#include "schemes/crease_rules.hpp"
#include "schemes/levels.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace spmesh::schemes::catmull_clark {

// One level: P (level.vertices x k) -> the child's vertex data (level.child_vertices() x k).
template <class Exec, class T>
linalg::Dense<T, typename Exec::space> subdivide(Exec& exec, const Level<typename Exec::space>& L,
                                                 const linalg::Dense<T, typename Exec::space>& P) {
  using S = typename Exec::space;
  namespace map = linalg::map;
  if (P.rows != L.vertices)
    throw DimensionError("catmull_clark::eval: vertex data has " + std::to_string(P.rows) +
                         " rows, the level has " + std::to_string(L.vertices) + " vertices");
  const index_t V = L.vertices, F = L.faces, k = P.cols;
  linalg::Dense<T, S> out(L.child_vertices(), k);
  auto face_points = linalg::row_block(out, V, F);
  auto vertex_points = linalg::row_block(out, 0, V);

  // Eq. 6: f = M^T P, val_i,* -> 1/c_i.
  linalg::spmm_t(exec, L.M, P, face_points, map::per_column(L.inv_order));
  // Eq. 2: edge points from E's enumeration and the faces F gives each edge.
  exec.for_each(L.edges, EdgePoints<T, detail::EdgeWeights>{
                             L.edge_from.data(), L.edge_to.data(), L.edge_face0.data(),
                             L.edge_face1.data(), L.rules.edge_crease.data(), {}, P.data.data(),
                             face_points.data, out.data.data() + std::int64_t(V + F) * k, k});
  // Eq. 16: s2 = E P, val_i,* -> b_i (1/n_i^2 where smooth).
  linalg::spmm(exec, L.E, P, vertex_points, map::per_row(L.rules.vertex_ring));
  // Eq. 17: s3 = M f, val_i,* -> b_i.
  linalg::Dense<T, S> s3(V, k);
  linalg::spmm(exec, L.M_rows, face_points, s3, map::per_row(L.rules.vertex_ring));
  // Eq. 14 and the crease repair (Eq. 4 generalised): v = a p + s2 + s3 + d (p_u + p_w).
  const auto& r = L.rules;
  exec.for_each(V, VertexPoints<T>{r.vertex_self.data(), r.vertex_crease.data(),
                                   r.crease_u.data(), r.crease_w.data(), P.data.data(),
                                   s3.data.data(), vertex_points.data, k});
  return out;
}

// One level of a plan, polygon or quad.
template <class Exec, class T>
linalg::Dense<T, typename Exec::space> subdivide(Exec& exec,
                                                 const AnyLevel<typename Exec::space>& level,
                                                 const linalg::Dense<T, typename Exec::space>& P) {
  return std::visit([&](const auto& L) { return subdivide(exec, L, P); }, level);
}

// Level l of a plan: level l's vertex data -> level l + 1's. A quad level after a quad level goes by its groups
// (group_eval.hpp).
template <class Exec, class T>
linalg::Dense<T, typename Exec::space> subdivide(Exec& exec, const Plan<typename Exec::space>& plan,
                                                 std::size_t l,
                                                 const linalg::Dense<T, typename Exec::space>& P) {
  return subdivide_in_plan<QuadLevel<typename Exec::space>>(exec, plan, l, P);
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
  return eval_as_built<QuadLevel<typename Exec::space>>(exec, P0, [&](auto& sink) {
    return detail::build_into(exec, std::move(M), C, levels, options, sink);
  });
}

}  // namespace spmesh::schemes::catmull_clark
