// Geodesic distance by the heat method (Crane, Weischedel and Wardetzky 2013, Algorithm 1), on a
// triangle mesh and any executor, with two conjugate-gradient solves (linalg/cg.hpp):
//   I.   (M - t L) u = delta          heat from the sources for a short time t = h^2 (h the mean
//                                     edge length), M the barycentric mass matrix (Eq. 5's
//                                     backward Euler step; meshops::heat_operator);
//   II.  X = -grad u / |grad u|       per triangle: grad u = 1/(2A) sum_i u_i (N x e_i), e_i the
//                                     edge opposite corner i taken counterclockwise (Sec. 3.2);
//   III. L phi = div X                div X at vertex i = 1/2 sum over its triangles of
//                                     cot(theta_1) (e_1 . X) + cot(theta_2) (e_2 . X), e_1 and e_2
//                                     the triangle's edges from i, theta_1 and theta_2 the angles
//                                     opposite them (Sec. 3.2): M {corner -> that term} 1, a
//                                     product over the mesh matrix's rows; solved as
//                                     (-L) phi = -div X (positive semi-definite, and div X sums
//                                     to zero: CG converges), then shifted so the sources' mean
//                                     is 0.
// On a mesh with a boundary the solves take the natural (Neumann) conditions. A vertex the
// sources do not reach (another component) gets a meaningless value: use meshops::components.
#pragma once

#include "linalg/cg.hpp"
#include "linalg/convert.hpp"
#include "linalg/spmv.hpp"
#include "linalg/sums.hpp"
#include "meshops/laplacian.hpp"
#include "meshops/tuning.hpp"

#include <cmath>
#include <string>
#include <utility>

namespace spmesh::meshops {

struct HeatGeodesicOptions {
  double time_factor = 1;       // t = time_factor * h^2 at first (Crane et al.: 1; larger smooths the distance)
  linalg::CgOptions solve = {}; // both solves
};

template <class S>
struct HeatGeodesic {
  linalg::Array<double, S> distance;  // vertices
  linalg::CgResult heat, poisson;     // how the two solves went
  double time = 0;                    // t, as taken (see the far field below)
  index_t unreached = 0;              // vertices the heat did not reach (see above)
};

namespace detail {

// X_f = -grad u / |grad u| on triangle f (faces x 3; 0 where u is flat).
struct NormalizedGradient {
  TriangleCorners<double> triangle;
  const double* u;
  double* X;
  SPMESH_HD void operator()(index_t f) const {
    const double *a = triangle.point(f, 0), *b = triangle.point(f, 1), *c = triangle.point(f, 2);
    double e[3][3], ab[3], ac[3];  // e_i: the side opposite corner i, counterclockwise
    for (int x = 0; x < 3; ++x) {
      e[0][x] = c[x] - b[x], e[1][x] = a[x] - c[x], e[2][x] = b[x] - a[x];
      ab[x] = b[x] - a[x], ac[x] = c[x] - a[x];
    }
    const double n[3] = {ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2],
                         ab[0] * ac[1] - ab[1] * ac[0]};  // 2A N
    double gradient[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {  // sum_i u_i (n x e_i); the 1/(2A) and N's length cancel below
      const double value = u[triangle.m.index(triangle.m.begin(f) + i)];
      gradient[0] += value * (n[1] * e[i][2] - n[2] * e[i][1]);
      gradient[1] += value * (n[2] * e[i][0] - n[0] * e[i][2]);
      gradient[2] += value * (n[0] * e[i][1] - n[1] * e[i][0]);
    }
    const double length = std::sqrt(gradient[0] * gradient[0] + gradient[1] * gradient[1] + gradient[2] * gradient[2]);
    for (int x = 0; x < 3; ++x) X[std::int64_t(f) * 3 + x] = length > 0 ? -gradient[x] / length : 0.0;
  }
};

// The divergence's term of the corner in `slot` of triangle f (a map on M by rows).
struct CornerDivergence {
  TriangleCorners<double> triangle;
  const double* X;
  SPMESH_HD double operator()(index_t slot, index_t, index_t f) const {
    const double* o = triangle.point(f, slot);
    const double* p1 = triangle.point(f, (slot + 1) % 3);
    const double* p2 = triangle.point(f, (slot + 2) % 3);
    const double* x = X + std::int64_t(f) * 3;
    double along1 = 0, along2 = 0;
    for (int c = 0; c < 3; ++c) along1 += (p1[c] - o[c]) * x[c], along2 += (p2[c] - o[c]) * x[c];
    // theta_1, opposite e_1 = p1 - o, is at p2; theta_2 at p1.
    return (triangle.cotangent(f, (slot + 2) % 3) * along1 + triangle.cotangent(f, (slot + 1) % 3) * along2) / 2;
  }
};

}  // namespace detail

// The geodesic distance from the `sources` (vertex ids, 0-based, in the executor's memory) to
// every vertex.
template <class Exec, class S = typename Exec::space>
HeatGeodesic<S> heat_geodesic(Exec& exec, const linalg::MeshMatrix<S>& M, const linalg::Dense<double, S>& P,
                              const linalg::Array<index_t, S>& sources, const HeatGeodesicOptions& options = {}) {
  detail::require_xyz(M, P, "heat_geodesic");
  detail::require_triangles(exec, M, "heat_geodesic");
  const index_t n = M.vertices, count = sources.size();
  const index_t* source = sources.data();
  if (count == 0) throw InputError("heat_geodesic: no source vertex given");
  if (const index_t bad = exec.count_if(count, [=] SPMESH_HD(index_t s) { return source[s] < 0 || source[s] >= n; }))
    throw InputError("heat_geodesic: " + std::to_string(bad) + " source ids lie outside the mesh's " +
                     std::to_string(n) + " vertices (ids count from 0)");
  if (!(options.time_factor > 0))
    throw InputError("heat_geodesic: time_factor is " + std::to_string(options.time_factor) + "; give a positive one");
  const detail::TriangleCorners<double> triangle{M.view(), P.data.data()};
  // h: the mean over the triangles' sides (an inside edge counts twice, as it does in the sum).
  const double h = linalg::reduce_all(exec, M.faces, [=] SPMESH_HD(index_t f) {
                     double sides = 0;
                     for (index_t at = 0; at < 3; ++at) {
                       const double *a = triangle.point(f, at), *b = triangle.point(f, (at + 1) % 3);
                       sides += std::sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) +
                                          (b[2] - a[2]) * (b[2] - a[2]));
                     }
                     return sides;
                   }) / (3.0 * M.faces);
  HeatGeodesic<S> out{linalg::Array<double, S>(n), {}, {}, options.time_factor * h * h};

  // I. (M - t L) u = delta.
  linalg::Dense<double, S> delta(n, 1), u(n, 1);
  double *d = delta.data.data(), *heat = u.data.data();
  exec.for_each(n, [=] SPMESH_HD(index_t i) { d[i] = 0; });
  exec.for_each(1, [=] SPMESH_HD(index_t) {
    for (index_t s = 0; s < count; ++s) d[source[s]] = 1;
  });
  // The residual's test looks at its norm, which the sources' neighbourhood holds, while far from
  // them the heat is tiny (at t = h^2 on a unit icosphere of 40,962 vertices, 1e-67 at the point
  // opposite the source, some 180 edges away) and a Krylov iterate is zero beyond as many edges as
  // it has taken iterations. grad u's direction is wanted everywhere, so the solve goes on,
  // tuning::heat_further_iterations at a time, until no vertex gains heat and the smallest
  // positive u moves by under 1%: the far field converged too. Where that smallest u is below
  // tuning::smallest_heat (CG's squares would underflow, and with them the far field's
  // direction), t is taken 4 times longer and the step solved again, at most 16 times.
  auto coldest = [&] {
    return std::pair{exec.count_if(n, [=] SPMESH_HD(index_t i) { return !(heat[i] > 0); }),
                     linalg::reduce_all(exec, n, [=] SPMESH_HD(index_t i) { return heat[i] > 0 ? heat[i] : 1.0; },
                                        linalg::reduce::Min{})};
  };
  linalg::CgOptions further = options.solve;
  further.tolerance = 0;
  further.max_iterations = tuning::heat_further_iterations;
  for (int growths = 0;; ++growths, out.time *= 4) {
    exec.for_each(n, [=] SPMESH_HD(index_t i) { heat[i] = 0; });
    const auto heat_system = heat_operator(exec, M, P, out.time);
    const auto first = linalg::conjugate_gradient(exec, heat_system, delta, u, options.solve);
    out.heat.iterations += first.iterations;  // every try's
    out.heat.relative_residual = first.relative_residual;
    out.heat.converged = first.converged;
    auto before = coldest();
    for (index_t taken = first.iterations; taken < options.solve.max_iterations; taken += further.max_iterations) {
      const auto more = linalg::conjugate_gradient(exec, heat_system, delta, u, further);
      out.heat.iterations += more.iterations;
      const auto now = coldest();
      if (now.first == before.first && std::abs(now.second - before.second) <= 0.01 * before.second) break;
      before = now;
    }
    if (before.second >= tuning::smallest_heat || growths == 16) break;
  }
  out.unreached = coldest().first;

  // II. X = -grad u / |grad u|.
  linalg::Array<double, S> X(std::int64_t(M.faces) * 3);
  exec.for_each(M.faces, detail::NormalizedGradient{triangle, heat, X.data()});

  // III. (-L) phi = -div X, from phi = 0.
  const auto divergence = detail::sum_over_corners(exec, M, detail::CornerDivergence{triangle, X.data()});
  auto minus_L = cotangent_laplacian(exec, M, P);
  double* values = minus_L.values.data();
  exec.for_each(minus_L.nnz(), [=] SPMESH_HD(index_t q) { values[q] = -values[q]; });
  linalg::Dense<double, S> rhs(n, 1), phi(n, 1);
  double *b = rhs.data.data(), *distance = phi.data.data();
  const double* div = divergence.data();
  exec.for_each(n, [=] SPMESH_HD(index_t i) { b[i] = -div[i], distance[i] = 0; });
  out.poisson = linalg::conjugate_gradient(exec, minus_L, rhs, phi, options.solve);

  // Shifted so the sources' mean is 0 (summed in their order).
  linalg::Array<double, S> shift(1);
  double* mean = shift.data();
  exec.for_each(1, [=] SPMESH_HD(index_t) {
    double sum = 0;
    for (index_t s = 0; s < count; ++s) sum += distance[source[s]];
    mean[0] = sum / count;
  });
  double* result = out.distance.data();
  exec.for_each(n, [=] SPMESH_HD(index_t i) { result[i] = distance[i] - mean[0]; });
  return out;
}

}  // namespace spmesh::meshops
