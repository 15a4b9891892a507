// run_suite<T>: each op, its Eigen peer, its byte floor and its result check.
//
// Byte floors (docs/design.md "Performance model"): the fewest bytes the op must
// move, every input read once and every output written once, int32 indices, nothing counted
// for caches or re-reads of x. A CSR matrix is 4 * (rows + 1) offsets + (4 + sizeof(value))
// per non-zero. SpMV: CSR(A) + sizeof(T) * (cols + rows) for x and y. SpMM with k columns:
// CSR(A) + k * sizeof(T) * (cols + rows). A map that ignores the stored value (per_row) needs
// no value array: 4 bytes per non-zero plus its table. SpGEMM C = A A: CSR(A) + CSR(C).
// M M^T: the face table of M (4 bytes per entry, no offsets for a reduced matrix) + CSR(E)
// with E spmesh's edge matrix (no diagonal). The same floor is used for spmesh and Eigen, so
// achieved GB/s compares implementations of the same op.
#pragma once

#include "bench/suite.hpp"
#include "linalg/eigen.hpp"

#include <Eigen/SparseCore>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <tuple>
#include <type_traits>

namespace spmesh::bench {

namespace suite_detail {

template <class T>
using EigenCsr = Eigen::SparseMatrix<T, Eigen::RowMajor, index_t>;
template <class T>
using EigenVector = Eigen::Matrix<T, Eigen::Dynamic, 1>;
template <class T>
using EigenRows3 = Eigen::Matrix<T, Eigen::Dynamic, 3, Eigen::RowMajor>;

inline double csr_bytes(std::int64_t rows, std::int64_t nnz, std::size_t value_bytes) {
  return 4.0 * static_cast<double>(rows + 1) + (4.0 + value_bytes) * static_cast<double>(nnz);
}

template <class T>
const char* precision_name() {
  return std::is_same_v<T, float> ? "float" : "double";
}

template <class T>
EigenCsr<T> to_eigen(const linalg::Csr<T>& A) {
  return EigenCsr<T>(linalg::eigen_view(A));
}

inline void record_check(Result& r, bool pattern_matches, double rel_diff, bool bit_identical) {
  r.checked = true;
  r.pattern_matches = pattern_matches;
  r.max_rel_diff = rel_diff;
  r.bit_identical = bit_identical;
}

template <class T, class Matrix>
Result make_result(const Inputs& in, const char* op, const char* matrix, const Matrix& A) {
  Result r;
  r.op = op;
  r.matrix = matrix;
  r.precision = precision_name<T>();
  r.target_rows = in.target_rows;
  r.rows = A.rows;
  r.cols = A.cols;
  r.nnz = A.nnz();
  return r;
}

// y = A x, unmapped, against Eigen's row-major SpMV (OpenMP-parallel above 20000 non-zeros).
template <class T>
Result spmv_case(cpu::Executor& exec, const Inputs& in, const linalg::Csr<T>& A, const char* op,
                 const char* matrix, const Options& opt) {
  Result r = make_result<T>(in, op, matrix, A);
  r.eigen_peer = "SparseMatrix<RowMajor> * VectorX, y.noalias() = A * x";
  const auto x = random_values<T>(A.cols, 1);
  linalg::Array<T> y(A.rows);
  const EigenCsr<T> Ae = to_eigen(A);
  const Eigen::Map<const EigenVector<T>> xe(x.data(), A.cols);
  EigenVector<T> ye(A.rows);
  std::tie(r.spmesh, r.eigen) = time_pair([&] { linalg::spmv(exec, A, x, y); },  //
                                          [&] { ye.noalias() = Ae * xe; }, opt.repeats);
  r.floor_bytes = csr_bytes(A.rows, A.nnz(), sizeof(T)) + sizeof(T) * double(A.cols + A.rows);
  if (opt.check) {
    linalg::Array<T> y2(A.rows);
    linalg::spmv(exec, A, x, y2);
    record_check(r, true, max_rel_diff(y.data(), ye.data(), A.rows),
                 std::memcmp(y.data(), y2.data(), sizeof(T) * A.rows) == 0);
  }
  return r;
}

// y = A x with map::per_row (a_ij -> w_i, Eq. 16/17 style). Eigen has no mapped product, so
// its peer multiplies a copy of A whose values were replaced by w_i beforehand (not timed).
template <class T>
Result spmv_per_row_case(cpu::Executor& exec, const Inputs& in, const linalg::Csr<T>& A,
                         const Options& opt) {
  Result r = make_result<T>(in, "spmv_per_row", "R, a_ij -> w_i", A);
  r.eigen_peer = "SpMV on a materialised copy of A with values w_i (copy not timed)";
  linalg::Array<T> w(A.rows);
  for (index_t i = 0; i < A.rows; ++i)
    w[i] = T(1) / static_cast<T>(std::max<index_t>(1, A.offsets[i + 1] - A.offsets[i]));
  linalg::Csr<T> Aw = A.clone();
  for (index_t i = 0; i < A.rows; ++i)
    for (index_t p = A.offsets[i]; p < A.offsets[i + 1]; ++p) Aw.values[p] = w[i];
  const auto x = random_values<T>(A.cols, 2);
  linalg::Array<T> y(A.rows);
  const EigenCsr<T> Ae = to_eigen(Aw);
  const Eigen::Map<const EigenVector<T>> xe(x.data(), A.cols);
  EigenVector<T> ye(A.rows);
  const auto map = linalg::map::per_row(w);
  std::tie(r.spmesh, r.eigen) = time_pair([&] { linalg::spmv(exec, A, x, y, map); },  //
                                          [&] { ye.noalias() = Ae * xe; }, opt.repeats);
  r.floor_bytes = 4.0 * double(A.rows + 1) + 4.0 * double(A.nnz()) + sizeof(T) * double(A.rows) +
                  sizeof(T) * double(A.cols + A.rows);
  if (opt.check) {
    linalg::Array<T> y2(A.rows);
    linalg::spmv(exec, A, x, y2, map);
    record_check(r, true, max_rel_diff(y.data(), ye.data(), A.rows),
                 std::memcmp(y.data(), y2.data(), sizeof(T) * A.rows) == 0);
  }
  return r;
}

// Y = A X, X n x 3 row-major (vertex positions), against Eigen sparse * dense n x 3 RowMajor.
template <class T>
Result spmm3_case(cpu::Executor& exec, const Inputs& in, const linalg::Csr<T>& A,
                  const Options& opt) {
  Result r = make_result<T>(in, "spmm3", "R, X: n x 3", A);
  r.eigen_peer = "SparseMatrix<RowMajor> * Matrix<Dynamic, 3, RowMajor>";
  linalg::Dense<T> X(A.cols, 3, random_values<T>(3 * A.cols, 3)), Y(A.rows, 3);
  const EigenCsr<T> Ae = to_eigen(A);
  const Eigen::Map<const EigenRows3<T>> Xe(X.data.data(), A.cols, 3);
  EigenRows3<T> Ye(A.rows, 3);
  std::tie(r.spmesh, r.eigen) = time_pair([&] { linalg::spmm(exec, A, X, Y); },  //
                                          [&] { Ye.noalias() = Ae * Xe; }, opt.repeats);
  r.floor_bytes = csr_bytes(A.rows, A.nnz(), sizeof(T)) + 3.0 * sizeof(T) * double(A.cols + A.rows);
  if (opt.check) {
    linalg::Dense<T> Y2(A.rows, 3);
    linalg::spmm(exec, A, X, Y2);
    record_check(r, true, max_rel_diff(Y.data.data(), Ye.data(), 3 * std::int64_t(A.rows)),
                 std::memcmp(Y.data.data(), Y2.data.data(), sizeof(T) * 3 * A.rows) == 0);
  }
  return r;
}

// C = S S (the two-ring stencil of two smoothing steps), full product and numeric phase alone
// (pattern reused), both against Eigen's sparse * sparse (single-threaded).
template <class T>
std::vector<Result> spgemm_cases(cpu::Executor& exec, const Inputs& in, const linalg::Csr<T>& S,
                                 const Options& opt) {
  Result full = make_result<T>(in, "spgemm", "S*S", S);
  full.eigen_peer = "SparseMatrix<RowMajor> * SparseMatrix<RowMajor> (one thread)";
  const EigenCsr<T> Se = to_eigen(S);
  linalg::Csr<T> C;
  EigenCsr<T> Ce;
  std::tie(full.spmesh, full.eigen) = time_pair([&] { C = linalg::spgemm(exec, S, S); },  //
                                                [&] { Ce = Se * Se; }, opt.slow_repeats);
  full.nnz_out_spmesh = C.nnz();
  full.nnz_out_eigen = Ce.nonZeros();
  full.floor_bytes = csr_bytes(S.rows, S.nnz(), sizeof(T)) + csr_bytes(C.rows, C.nnz(), sizeof(T));

  Result numeric = full;
  numeric.op = "spgemm_numeric";
  numeric.matrix = "S*S, pattern reused";
  numeric.eigen_peer = full.eigen_peer + ", full product";
  linalg::Csr<T> P = linalg::spgemm_symbolic(exec, S, S);
  numeric.spmesh = time_op([&] { linalg::spgemm_numeric(exec, S, S, P); }, opt.slow_repeats);
  // The numeric phase need not write the pattern: it reads S and C's pattern, writes values.
  numeric.floor_bytes = csr_bytes(S.rows, S.nnz(), sizeof(T)) + csr_bytes(C.rows, C.nnz(), 4) +
                        sizeof(T) * double(C.nnz());

  if (opt.check) {
    Ce.makeCompressed();
    const bool same_pattern = C.nnz() == Ce.nonZeros() &&
                              std::equal(C.offsets.begin(), C.offsets.end(), Ce.outerIndexPtr()) &&
                              std::equal(C.indices.begin(), C.indices.end(), Ce.innerIndexPtr());
    const linalg::Csr<T> C2 = linalg::spgemm(exec, S, S);
    const bool same_bits =
        std::memcmp(C.values.data(), C2.values.data(), sizeof(T) * C.nnz()) == 0 &&
        std::memcmp(P.values.data(), C.values.data(), sizeof(T) * C.nnz()) == 0;
    record_check(full, same_pattern,
                 same_pattern ? max_rel_diff(C.values.data(), Ce.valuePtr(), C.nnz()) : 0,
                 same_bits);
    record_check(numeric, full.pattern_matches, full.max_rel_diff, full.bit_identical);
  }
  std::vector<Result> out;
  out.push_back(std::move(full));
  out.push_back(std::move(numeric));
  return out;
}

// E = M M^T {Q_3 + Q_3^2}, collide -> 1 (Eq. 8, the edge matrix) against Eigen M * M^T with M
// stored with values 1. Eigen computes the full product, diagonal (faces per vertex) included,
// and transposes M inside the product; spmesh never forms M^T and emits only the edges.
template <class T>
Result mmt_case(cpu::Executor& exec, const Inputs& in, const Options& opt) {
  const auto& M = *in.M;
  Result r;
  r.op = "mmt";
  r.matrix = "E = M*M^T{1,-1}";
  r.precision = precision_name<T>();
  r.target_rows = in.target_rows;
  r.rows = M.rows(), r.cols = M.cols(), r.nnz = M.nnz();
  r.eigen_peer = "SparseMatrix M (values 1) * M.transpose(), one thread, diagonal included";
  Eigen::SparseMatrix<T, Eigen::ColMajor, index_t> Me(M.rows(), M.cols());
  {
    std::vector<Eigen::Triplet<T, index_t>> t;
    t.reserve(M.nnz());
    for (index_t f = 0; f < M.faces; ++f)
      for (index_t s = 0; s < M.order; ++s) t.emplace_back(M.indices[f * M.order + s], f, T(1));
    Me.setFromTriplets(t.begin(), t.end());
  }
  auto one = [](const linalg::Collision&) { return T(1); };
  linalg::Csr<T> E;
  Eigen::SparseMatrix<T, Eigen::ColMajor, index_t> Ee;
  std::tie(r.spmesh, r.eigen) = time_pair(
      [&] {
        E = linalg::mmt(exec, M, linalg::Circulant{1, -1}, one);
      },
      [&] { Ee = Me * Me.transpose(); }, opt.slow_repeats);
  r.nnz_out_spmesh = E.nnz();
  r.nnz_out_eigen = Ee.nonZeros();
  r.floor_bytes = 4.0 * double(M.nnz()) + csr_bytes(E.rows, E.nnz(), sizeof(T));
  if (opt.check) {
    // E is symmetric, so Eigen's column i is row i; compare off the diagonal.
    double diff = 0, scale = 0;
    bool same_pattern = true;
    for (index_t i = 0; i < E.rows && same_pattern; ++i) {
      index_t p = E.offsets[i];
      for (typename decltype(Ee)::InnerIterator it(Ee, i); it; ++it) {
        if (it.index() == i) continue;
        if (p >= E.offsets[i + 1] || E.indices[p] != it.index()) {
          same_pattern = false;
          break;
        }
        diff = std::max(diff, std::abs(double(E.values[p++]) - double(it.value())));
        scale = std::max(scale, std::abs(double(it.value())));
      }
      same_pattern = same_pattern && p == E.offsets[i + 1];
    }
    const linalg::Csr<T> E2 = linalg::mmt(exec, M, linalg::Circulant{1, -1}, one);
    record_check(r, same_pattern, scale > 0 ? diff / scale : diff,
                 std::memcmp(E.values.data(), E2.values.data(), sizeof(T) * E.nnz()) == 0);
  }
  return r;
}

// Runs one case, and again (once the machine is quiet, or Options::quiet_wait_s have passed)
// while other processes took more than Options::busy_threshold of the machine during its
// timing; keeps the least disturbed try.
template <class Case>
void run_case(const Options& opt, std::vector<Result>& out, Case&& run) {
  auto disturbance = [](const std::vector<Result>& rs) {
    double d = 0;
    for (const Result& r : rs) d = std::max({d, r.spmesh.others_cpu, r.eigen.others_cpu});
    return d;
  };
  std::vector<Result> best;
  for (int attempt = 0; attempt <= opt.busy_retries; ++attempt) {
    if (attempt > 0) wait_until_quiet(opt.busy_threshold, opt.quiet_wait_s);
    std::vector<Result> rs = run();
    for (Result& r : rs) r.attempts = attempt + 1;
    if (best.empty() || disturbance(rs) < disturbance(best)) best = std::move(rs);
    if (disturbance(best) <= opt.busy_threshold) break;
  }
  out.insert(out.end(), best.begin(), best.end());
}

}  // namespace suite_detail

template <class T>
void run_suite(cpu::Executor& exec, const Inputs& in, const Options& opt,
               std::vector<Result>& out) {
  using namespace suite_detail;
  using Results = std::vector<Result>;
  const linalg::Csr<T> R = cast_values<T>(*in.R);
  run_case(opt, out, [&] { return Results{spmv_case(exec, in, R, "spmv", "R", opt)}; });
  run_case(opt, out, [&] { return Results{spmv_per_row_case(exec, in, R, opt)}; });
  {
    const linalg::Csr<T> Rr = cast_values<T>(*in.R_random);
    run_case(opt, out, [&] {
      return Results{spmv_case(exec, in, Rr, "spmv_random", "R, random order", opt)};
    });
  }
  run_case(opt, out, [&] { return Results{spmm3_case(exec, in, R, opt)}; });
  if (in.target_rows <= opt.spgemm_max_rows) {
    const linalg::Csr<T> S = cast_values<T>(*in.S);
    run_case(opt, out, [&] { return spgemm_cases(exec, in, S, opt); });
  }
  run_case(opt, out, [&] { return Results{mmt_case<T>(exec, in, opt)}; });
}

}  // namespace spmesh::bench
