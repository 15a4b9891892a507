// Catmull-Clark eval (paper section 3.2, Fig. 3): vertex data only, level by level, as mapped
// products on the operators a build made. P is n x k row-major data of any width k
// (positions, colours, UVs), float or double.
#pragma once

#include "linalg/spmv.hpp"
#include "schemes/catmull_clark/plan.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace spmesh::schemes::catmull_clark {

namespace detail {

// Eq. 2 with the crease blend: e = (1 + w)/4 (p_i + p_j) + (1 - w)/4 (f_0 + f_1).
template <class T>
struct EdgePoints {
  const index_t *from, *to, *face0, *face1;
  const double* crease;
  const T *P, *face_points;
  T* out;
  index_t k;

  SPMESH_HD void operator()(index_t e) const {
    const T w = static_cast<T>(crease[e]);
    const T a = (1 + w) / 4, b = (1 - w) / 4;
    const T *pi = P + std::int64_t(from[e]) * k, *pj = P + std::int64_t(to[e]) * k;
    T* y = out + std::int64_t(e) * k;
    for (index_t c = 0; c < k; ++c) y[c] = a * (pi[c] + pj[c]);
    if (b == 0) return;
    const index_t faces[2] = {face0[e], face1[e]};
    for (const index_t f : faces) {
      if (f < 0) continue;
      const T* pf = face_points + std::int64_t(f) * k;
      for (index_t c = 0; c < k; ++c) y[c] += b * pf[c];
    }
  }
};

// Eq. 14 with the crease masks: v_i = a_i p_i + (s2_i + s3_i) + d_i (p_u + p_w), where out
// already holds s2 = E P and ring_faces holds s3 = M f (both scaled by b_i).
template <class T>
struct VertexPoints {
  const double *self, *crease;
  const index_t *u, *w;
  const T *P, *ring_faces;
  T* out;
  index_t k;

  SPMESH_HD void operator()(index_t i) const {
    const T a = static_cast<T>(self[i]), d = static_cast<T>(crease[i]);
    const std::int64_t r = std::int64_t(i) * k;
    for (index_t c = 0; c < k; ++c) out[r + c] += a * P[r + c] + ring_faces[r + c];
    if (d == 0) return;
    const T *pu = P + std::int64_t(u[i]) * k, *pw = P + std::int64_t(w[i]) * k;
    for (index_t c = 0; c < k; ++c) out[r + c] += d * (pu[c] + pw[c]);
  }
};

}  // namespace detail

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
  exec.for_each(L.edges, detail::EdgePoints<T>{L.edge_from.data(), L.edge_to.data(),
                                               L.edge_face0.data(), L.edge_face1.data(),
                                               L.rules.edge_crease.data(), P.data.data(),
                                               face_points.data,
                                               out.data.data() + std::int64_t(V + F) * k, k});
  // Eq. 16: s2 = E P, val_i,* -> b_i (1/n_i^2 where smooth).
  linalg::spmm(exec, L.E, P, vertex_points, map::per_row(L.rules.vertex_ring));
  // Eq. 17: s3 = M f, val_i,* -> b_i.
  linalg::Dense<T, S> s3(V, k);
  linalg::spmm(exec, L.M_rows, face_points, s3, map::per_row(L.rules.vertex_ring));
  // Eq. 14 and the crease repair (Eq. 4 generalised): v = a p + s2 + s3 + d (p_u + p_w).
  exec.for_each(V, detail::VertexPoints<T>{L.rules.vertex_self.data(), L.rules.vertex_crease.data(),
                                           L.rules.crease_u.data(), L.rules.crease_w.data(), P.data.data(),
                                           s3.data.data(), vertex_points.data, k});
  return out;
}

// All levels of a plan: P0 (base vertices x k) -> the last level's vertex data.
template <class Exec, class T>
linalg::Dense<T, typename Exec::space> eval(Exec& exec, const Plan<typename Exec::space>& plan,
                                            const linalg::Dense<T, typename Exec::space>& P0) {
  using S = typename Exec::space;
  if (plan.levels.empty()) {  // zero levels: a copy
    linalg::Dense<T, S> P(P0.rows, P0.cols);
    const T* in = P0.data.data();
    T* out = P.data.data();
    exec.for_each(P0.data.size(), [=] SPMESH_HD(index_t i) { out[i] = in[i]; });
    return P;
  }
  linalg::Dense<T, S> P = subdivide(exec, plan.levels[0], P0);
  for (std::size_t l = 1; l < plan.levels.size(); ++l) P = subdivide(exec, plan.levels[l], P);
  return P;
}

}  // namespace spmesh::schemes::catmull_clark
