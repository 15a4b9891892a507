// Conjugate gradients on the executor for A X = B, A symmetric positive definite (Hestenes and
// Stiefel 1952; Saad, "Iterative Methods for Sparse Linear Systems", Algorithm 9.1 with the Jacobi
// preconditioner diag(A)^-1): the k columns of B solved together, each with its own scalars. Every
// vector and scalar stays in the executor's memory and the scalars are computed there, so an
// iteration waits for nothing; the host reads the residuals every `check_every` iterations to
// stop. Dot products are summed in a fixed order (linalg/sums.hpp), the SpMM by rows: the same
// bits every run; the CPU and the GPU differ by rounding (lanes, fused multiply-adds).
#pragma once

#include "linalg/executor.hpp"
#include "linalg/formats.hpp"
#include "linalg/spmv.hpp"
#include "linalg/sums.hpp"
#include "linalg/tuning.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace spmesh::linalg {

struct CgOptions {
  index_t max_iterations = 1000;
  double tolerance = 1e-10;  // stop when every column's ||r|| <= tolerance ||b||
  index_t check_every = 16;  // iterations between the host's reads of the residuals
  bool jacobi = true;        // precondition by diag(A)^-1
};

struct CgResult {
  index_t iterations = 0;
  double relative_residual = 0;  // the largest column's ||r|| / ||b|| at the last check
  bool converged = false;
};

namespace detail {

// out[c] = sum_i u(i, c) v(i, c), k columns (linalg/sums.hpp's fixed order).
template <class Exec>
void column_dots(Exec& exec, const double* u, const double* v, index_t n, index_t k, double* partial, double* out) {
  column_reduce(exec, n, k, [=] SPMESH_HD(index_t i, index_t c) {
    return u[std::int64_t(i) * k + c] * v[std::int64_t(i) * k + c];
  }, partial, out);
}

}  // namespace detail

// Solves A X = B from the X given (its start); A n x n, B and X n x k. DimensionError on shapes
// that do not fit; a column whose p^T A p is not positive stops moving (A not positive definite:
// the result says it did not converge).
template <class Exec, class S = typename Exec::space>
CgResult conjugate_gradient(Exec& exec, const Csr<double, S>& A, const Dense<double, S>& B, Dense<double, S>& X,
                            const CgOptions& options = {}) {
  const index_t n = A.rows, k = B.cols;
  if (A.cols != n || B.rows != n || X.rows != n || X.cols != k)
    throw DimensionError("conjugate_gradient: A " + std::to_string(A.rows) + " x " + std::to_string(A.cols) + ", B " +
                         std::to_string(B.rows) + " x " + std::to_string(B.cols) + ", X " + std::to_string(X.rows) +
                         " x " + std::to_string(X.cols) + " (A square, B and X n x k)");
  if (options.check_every < 1 || options.max_iterations < 0 || !(options.tolerance >= 0))
    throw InputError("conjugate_gradient: check_every " + std::to_string(options.check_every) + ", max_iterations " +
                     std::to_string(options.max_iterations) + ", tolerance " + std::to_string(options.tolerance) +
                     " (at least 1, 0 and 0)");
  Dense<double, S> R(n, k), Z(n, k), P(n, k), AP(n, k);
  Array<double, S> inverse_diagonal(n), partial(tuning::dot_blocks * k), scalars(5 * k);
  double *r = R.data.data(), *z = Z.data.data(), *p = P.data.data(), *ap = AP.data.data(), *x = X.data.data();
  double* d = inverse_diagonal.data();
  double *rz = scalars.data(), *rz_next = rz + k, *pap = rz + 2 * k, *rr = rz + 3 * k, *bb = rz + 4 * k;
  const double* b = B.data.data();
  const index_t* offsets = A.offsets.data();
  const index_t* columns = A.indices.data();
  const double* values = A.values.data();
  const bool jacobi = options.jacobi;
  exec.for_each(n, [=] SPMESH_HD(index_t i) {
    double diagonal = 0;
    for (index_t q = offsets[i]; q < offsets[i + 1]; ++q)
      if (columns[q] == i) diagonal = values[q];
    d[i] = jacobi && diagonal > 0 ? 1 / diagonal : 1;
  });
  const std::int64_t entries = std::int64_t(n) * k;
  // r = b - A x, z = D r, p = z.
  spmm(exec, A, X, AP);
  exec.for_each(index_t(entries), [=] SPMESH_HD(index_t e) {
    r[e] = b[e] - ap[e], z[e] = d[e / k] * r[e], p[e] = z[e];
  });
  detail::column_dots(exec, r, z, n, k, partial.data(), rz);
  detail::column_dots(exec, b, b, n, k, partial.data(), bb);
  std::vector<double> host(static_cast<std::size_t>(2 * k));
  auto worst = [&] {  // the largest ||r|| / ||b|| (||r|| where ||b|| is 0), read by the host
    detail::column_dots(exec, r, r, n, k, partial.data(), rr);
    exec.read(rr, 2 * k, host.data());
    double largest = 0;
    for (index_t c = 0; c < k; ++c) {
      const double norm_b = std::sqrt(host[std::size_t(k + c)]);
      largest = std::max(largest, std::sqrt(host[std::size_t(c)]) / (norm_b > 0 ? norm_b : 1));
    }
    return largest;
  };
  CgResult result;
  result.relative_residual = worst();
  result.converged = result.relative_residual <= options.tolerance;
  while (!result.converged && result.iterations < options.max_iterations) {
    // alpha = r^T z / p^T A p; x += alpha p; r -= alpha A p.
    spmm(exec, A, P, AP);
    detail::column_dots(exec, p, ap, n, k, partial.data(), pap);
    exec.for_each(index_t(entries), [=] SPMESH_HD(index_t e) {
      const index_t c = e % k;
      const double alpha = pap[c] > 0 ? rz[c] / pap[c] : 0;
      x[e] += alpha * p[e], r[e] -= alpha * ap[e], z[e] = d[e / k] * r[e];
    });
    ++result.iterations;
    if (result.iterations % options.check_every == 0 || result.iterations == options.max_iterations) {
      result.relative_residual = worst();
      if ((result.converged = result.relative_residual <= options.tolerance)) break;
    }
    // beta = r_new^T z_new / r^T z; p = z + beta p.
    detail::column_dots(exec, r, z, n, k, partial.data(), rz_next);
    exec.for_each(index_t(entries), [=] SPMESH_HD(index_t e) {
      const index_t c = e % k;
      const double beta = rz[c] > 0 ? rz_next[c] / rz[c] : 0;
      p[e] = z[e] + beta * p[e];
    });
    exec.for_each(k, [=] SPMESH_HD(index_t c) { rz[c] = rz_next[c]; });
  }
  return result;
}

}  // namespace spmesh::linalg
