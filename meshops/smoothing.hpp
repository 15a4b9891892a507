// Laplacian smoothing of a triangle mesh's points with its cotangent Laplacian L and barycentric
// mass matrix M (meshops/laplacian.hpp), on any executor:
//   explicit_smoothing  P <- P + step M^-1 L P, `steps` times (the mean curvature flow's forward
//                       Euler steps; stable for small steps only);
//   implicit_smoothing  (M - t L) X = M P solved by conjugate gradients on the executor
//                       (linalg/cg.hpp, from X = P): the backward Euler step of the same flow
//                       (Desbrun et al. 1999, Eq. 9), stable for any t >= 0. M - t L is symmetric
//                       positive definite (L negative semi-definite) for a mesh with no
//                       triangle of zero area.
#pragma once

#include "linalg/cg.hpp"
#include "linalg/spmv.hpp"
#include "meshops/laplacian.hpp"

#include <string>

namespace spmesh::meshops {

template <class Exec, class S = typename Exec::space>
linalg::Dense<double, S> explicit_smoothing(Exec& exec, const linalg::MeshMatrix<S>& M, const linalg::Dense<double, S>& P,
                                            double step, index_t steps) {
  const auto L = cotangent_laplacian(exec, M, P);
  const auto areas = vertex_areas(exec, M, P);
  linalg::Dense<double, S> X(P.rows, 3), LX(P.rows, 3);
  exec.copy(P.data.data(), P.data.size(), X.data.data());
  double *x = X.data.data(), *lx = LX.data.data();
  const double* area = areas.data();
  for (index_t s = 0; s < steps; ++s) {
    linalg::spmm(exec, L, X, LX);
    exec.for_each(P.rows * 3, [=] SPMESH_HD(index_t e) { x[e] += area[e / 3] > 0 ? step * lx[e] / area[e / 3] : 0.0; });
  }
  return X;
}

// The points after one implicit step of size t, and how the solve went.
template <class S>
struct Smoothed {
  linalg::Dense<double, S> points;
  linalg::CgResult solve;
};

template <class Exec, class S = typename Exec::space>
Smoothed<S> implicit_smoothing(Exec& exec, const linalg::MeshMatrix<S>& M, const linalg::Dense<double, S>& P, double t,
                               const linalg::CgOptions& options = {}) {
  if (!(t >= 0)) throw InputError("implicit_smoothing: the time step is " + std::to_string(t) + "; give t >= 0");
  const auto A = heat_operator(exec, M, P, t);
  const auto mass = mass_matrix(exec, M, P);
  linalg::Dense<double, S> rhs(P.rows, 3);
  linalg::spmm(exec, mass, P, rhs);
  Smoothed<S> out{linalg::Dense<double, S>(P.rows, 3), {}};
  exec.copy(P.data.data(), P.data.size(), out.points.data.data());
  out.solve = linalg::conjugate_gradient(exec, A, rhs, out.points, options);
  return out;
}

}  // namespace spmesh::meshops
