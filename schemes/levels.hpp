// What every scheme's plan does with its levels (design.md "Build, eval, replay"): eval applies
// the scheme's one-level step level by level; R is the product S_L ... S_1 of the per-level
// matrices. A plan of zero levels gives the data back (eval) and the identity (R).
#pragma once

#include "linalg/spgemm.hpp"

#include <cstdint>
#include <type_traits>
#include <utility>

namespace spmesh::schemes {

// P0 -> the last level's data: subdivide(exec, level, P) -> the child's data, for every level.
template <class Exec, class PlanT, class T, class Subdivide>
linalg::Dense<T, typename Exec::space> eval_levels(Exec& exec, const PlanT& plan,
                                                   const linalg::Dense<T, typename Exec::space>& P0,
                                                   Subdivide subdivide) {
  using S = typename Exec::space;
  if (plan.levels.empty()) {
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

// R = S_L ... S_1 with S_l = level_matrix(exec, level) (double), composed in double by SpGEMM
// and stored as T. `vertices` is the size of the identity a plan of zero levels gives.
template <class T, class Exec, class PlanT, class LevelMatrix>
linalg::Csr<T, typename Exec::space> compose_levels(Exec& exec, const PlanT& plan,
                                                    index_t vertices, LevelMatrix level_matrix) {
  using S = typename Exec::space;
  linalg::Csr<double, S> R;
  if (plan.levels.empty()) {
    linalg::Array<index_t, S> offsets(vertices + 1), indices(vertices);
    linalg::Array<double, S> values(vertices);
    index_t *o = offsets.data(), *ix = indices.data();
    double* v = values.data();
    exec.for_each(vertices + 1, [=] SPMESH_HD(index_t i) {
      o[i] = i;
      if (i < vertices) ix[i] = i, v[i] = 1.0;
    });
    R = linalg::Csr<double, S>(vertices, vertices, std::move(offsets), std::move(indices),
                               std::move(values));
  } else {
    R = level_matrix(exec, plan.levels[0]);
    for (std::size_t l = 1; l < plan.levels.size(); ++l)
      R = linalg::spgemm(exec, level_matrix(exec, plan.levels[l]), R);
  }
  if constexpr (std::is_same_v<T, double>) {
    return R;
  } else {
    linalg::Array<T, S> values(R.nnz());
    const double* in = R.values.data();
    T* out = values.data();
    exec.for_each(R.nnz(), [=] SPMESH_HD(index_t p) { out[p] = static_cast<T>(in[p]); });
    return linalg::Csr<T, S>(R.rows, R.cols, std::move(R.offsets), std::move(R.indices),
                             std::move(values));
  }
}

}  // namespace spmesh::schemes
