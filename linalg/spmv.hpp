// Mapped SpMV and SpMM (design.md "Action maps"): y_i = reduce_j map(a_ij, i, j) * x_j.
// One gather kernel serves both directions: spmv/spmm walk the rows of a CSR matrix,
// spmv_t/spmm_t walk the columns of a CSC or mesh matrix to compute y = A^T x. Either way
// each output row is written by one thread in a fixed order: no atomics, same bits every run.
// On the GPU, sums over long CSR rows take several lanes per row (LaneGather), combined in a
// fixed order too; their bits differ from the CPU's one-lane order by rounding only.
#pragma once

#include "linalg/executor.hpp"
#include "linalg/formats.hpp"
#include "linalg/lanes.hpp"
#include "linalg/maps.hpp"
#include "linalg/mesh_matrix.hpp"
#include "linalg/tuning.hpp"

#include <cstdint>
#include <string>
#include <type_traits>

namespace spmesh::linalg {

namespace detail {

// Output line o of the gather: y(o, :) = reduce over the stored entries p of line o of
// map(value, i, j) * x(index(p), :). `Transposed` says whether o is a column (y = A^T x).
template <class View, class Map, class Reduce, class T, int K, bool Transposed>
struct Gather {
  View A;
  Map map;
  Reduce reduce;
  const T* x;
  T* y;
  index_t k;  // columns of x and y; equals K when K > 0

  SPMESH_HD T weight(index_t o, index_t p) const {
    const index_t j = A.index(p);
    if constexpr (Transposed) return static_cast<T>(map(A.value(o, p), j, o));
    else return static_cast<T>(map(A.value(o, p), o, j));
  }

  SPMESH_HD void operator()(index_t o) const {
    const index_t lo = A.begin(o), hi = A.end(o);
    const index_t width = K > 0 ? K : k;
    if (lo == hi) {
      for (index_t c = 0; c < width; ++c) y[o * width + c] = reduce.template identity<T>();
      return;
    }
    // Fixed-width blocks of columns keep the accumulators in registers for any k.
    constexpr int B = K > 0 ? K : tuning::gather_column_block;
    for (index_t c0 = 0; c0 < width; c0 += B) {
      const int nc = K > 0 ? K : (width - c0 < B ? width - c0 : B);
      T acc[B];
      {
        const T w = weight(o, lo);
        const T* xj = row_of_x(lo, width, c0);
        for (int c = 0; c < nc; ++c) acc[c] = w * xj[c];
      }
      // Two entries per step, still combined one at a time in position order (same bits as
      // a plain loop). A plain loop is an in-order reduction that GCC -O3 vectorizes anyway:
      // scalar loads shuffled into a vector, then four ordered adds, behind a length test.
      // On mesh rows (4 to 10 entries) that only adds work and row-length-dependent branches,
      // which made spmv slower than scalar code on a randomly ordered R (bench/RESULTS.md).
      // Pairing the entries leaves no single reduction statement for the vectorizer to take.
      index_t p = lo + 1;
      for (; p + 1 < hi; p += 2) {
        const T w0 = weight(o, p), w1 = weight(o, p + 1);
        const T *x0 = row_of_x(p, width, c0), *x1 = row_of_x(p + 1, width, c0);
        for (int c = 0; c < nc; ++c) acc[c] = reduce(reduce(acc[c], w0 * x0[c]), w1 * x1[c]);
      }
      if (p < hi) {
        const T w = weight(o, p);
        const T* xj = row_of_x(p, width, c0);
        for (int c = 0; c < nc; ++c) acc[c] = reduce(acc[c], w * xj[c]);
      }
      T* yo = y + static_cast<std::int64_t>(o) * width + c0;
      for (int c = 0; c < nc; ++c) yo[c] = acc[c];
    }
  }

  // Columns c0.. of the row of x that stored entry p multiplies.
  SPMESH_HD const T* row_of_x(index_t p, index_t width, index_t c0) const {
    return x + static_cast<std::int64_t>(A.index(p)) * width + c0;
  }
};

// Row o of y = A x by G lanes (Gather's sum for an executor with cooperating lanes, on long
// rows): lane l takes the entries l, l + G, ... of the row, so the G lanes read G consecutive
// entries at a time, and lane_sum combines them in a fixed order. Columns go in blocks of
// tuning::gather_column_block (or K) as in Gather, each column summed in the same order
// whatever the width.
template <class View, class Map, class T, int K, int G>
struct LaneGather {
  View A;
  Map map;
  const T* x;
  T* y;
  index_t k;  // columns of x and y; equals K when K > 0

  SPMESH_HD void operator()(index_t o, int lane) const {
    const index_t width = K > 0 ? K : k;
    const bool row = o < A.outer;  // past the end: only take part in lane_sum
    constexpr int B = K > 0 ? K : tuning::gather_column_block;
    for (index_t c0 = 0; c0 < width; c0 += B) {
      const int nc = K > 0 ? K : (width - c0 < B ? width - c0 : B);
      T acc[B] = {};
      if (row)
        for (index_t p = A.begin(o) + lane; p < A.end(o); p += G) {
          const index_t j = A.index(p);
          const T w = static_cast<T>(map(A.value(o, p), o, j));
          const T* xj = x + static_cast<std::int64_t>(j) * width + c0;
          for (int c = 0; c < nc; ++c) acc[c] += w * xj[c];
        }
      for (int c = 0; c < nc; ++c) acc[c] = lane_sum<G>(acc[c]);
      if (row && lane == 0)
        for (int c = 0; c < nc; ++c) y[static_cast<std::int64_t>(o) * width + c0 + c] = acc[c];
    }
  }
};

// Lanes per row of a CSR sum over rows of `average` entries (the view's lanes_per_row, below,
// can say otherwise): one for short rows, two for the middle ones, four for long ones, the
// bounds from replays on an H100 (tuning.hpp).
inline int lanes_per_row(double average) {
  return average < tuning::csr_two_lanes_from ? 1 : average < tuning::csr_four_lanes_from ? 2 : 4;
}

template <class View>
int lanes_for(const View& A, std::int64_t nnz) {
  if (A.outer == 0) return 1;
  if constexpr (requires { View::lanes_per_row(1.0); }) return View::lanes_per_row(double(nnz) / A.outer);
  else return lanes_per_row(double(nnz) / A.outer);
}

template <bool Transposed, class Exec, class View, class Map, class Reduce, class T>
void gather(Exec& exec, const View& A, const T* x, T* y, index_t k, std::int64_t nnz, Map map,
            Reduce reduce) {
  if constexpr (Exec::lanes > 1 && !Transposed && std::is_same_v<Reduce, reduce::Sum>) {
    const int G = lanes_for(A, nnz);
    auto lanes = [&]<int K, int Lanes>() {
      exec.template for_each_grouped<Lanes>(A.outer,
                                            LaneGather<View, Map, T, K, Lanes>{A, map, x, y, k});
    };
    auto by_lanes = [&]<int K>() {
      if (G == 2) lanes.template operator()<K, 2>();
      else lanes.template operator()<K, 4>();
    };
    if (G > 1) {  // k = 1 (spmv) and 3 (xyz) at fixed width, others in blocks of columns
      if (k == 1) by_lanes.template operator()<1>();
      else if (k == 3) by_lanes.template operator()<3>();
      else by_lanes.template operator()<0>();
      return;
    }
  }
  auto run = [&]<int K>() {
    exec.for_each(A.outer, Gather<View, Map, Reduce, T, K, Transposed>{A, map, reduce, x, y, k});
  };
  switch (k) {
    case 1: run.template operator()<1>(); break;
    case 2: run.template operator()<2>(); break;
    case 3: run.template operator()<3>(); break;
    case 4: run.template operator()<4>(); break;
    default: run.template operator()<0>(); break;
  }
}

inline void check_shape(const char* op, const char* what, index_t got_rows, index_t got_cols,
                        index_t want_rows, index_t want_cols) {
  if (got_rows != want_rows || got_cols != want_cols)
    throw DimensionError(std::string(op) + ": " + what + " is " + std::to_string(got_rows) +
                         " x " + std::to_string(got_cols) + ", expected " +
                         std::to_string(want_rows) + " x " + std::to_string(want_cols));
}

template <class Matrix>
concept ColumnMajorMatrix = (requires { requires Matrix::major == Major::column; }) ||
                            (requires { requires Matrix::column_major; });

// Rows and columns of any stored matrix (compressed or mesh).
template <class Matrix>
index_t rows_of(const Matrix& A) {
  if constexpr (requires { A.rows(); }) return A.rows();
  else return A.rows;
}
template <class Matrix>
index_t cols_of(const Matrix& A) {
  if constexpr (requires { A.cols(); }) return A.cols();
  else return A.cols;
}

}  // namespace detail

namespace detail {
// Dense operands of SpMM: a whole Dense block or a row range of one, in memory space S.
template <class S, class T>
DenseRows<const T, S> in_rows(const Dense<T, S>& X) { return {X.data.data(), X.rows, X.cols}; }
template <class S, class T>
DenseRows<const T, S> in_rows(const DenseRows<T, S>& X) { return {X.data, X.rows, X.cols}; }
template <class S, class T>
DenseRows<T, S> out_rows(Dense<T, S>& Y) { return {Y.data.data(), Y.rows, Y.cols}; }
template <class S, class T>
  requires(!std::is_const_v<T>)
DenseRows<T, S> out_rows(const DenseRows<T, S>& Y) { return Y; }

template <class X>
concept DenseInput = requires(const X& x) { in_rows<typename X::space>(x); };
template <class Y>
concept DenseOutput = requires(Y& y) { out_rows<typename std::remove_cvref_t<Y>::space>(y); };
}  // namespace detail

// A map for SpMV: a functor of (value, i, j). Excludes arrays, so output-argument overloads
// and returning overloads never collide.
template <class Map>
concept ValueMap = requires(const Map& m) { m(0, index_t{}, index_t{}); };

// ---- y = A x, A in CSR ------------------------------------------------------------------------

// A matrix stored by rows whose view() the gather walks: CSR, or a ternary matrix
// (ternary.hpp), whose entries' values are their signs.
template <class Matrix>
concept RowMajorMatrix = !detail::ColumnMajorMatrix<Matrix> && requires(const Matrix& A) {
  typename Matrix::space;
  A.view();
  { A.nnz() } -> std::convertible_to<std::int64_t>;
  { A.rows } -> std::convertible_to<index_t>;
};

// Y (rows(A) x k) = A X, X (cols(A) x k): each column of X multiplied by the mapped A.
// X and Y are Dense blocks or row ranges of one (row_block).
template <Executor Exec, RowMajorMatrix Matrix, detail::DenseInput X, detail::DenseOutput Y,
          ValueMap Map = map::Identity, class Reduce = reduce::Sum>
void spmm(Exec& exec, const Matrix& A, const X& X_in, Y&& Y_out, Map map = {}, Reduce reduce = {}) {
  using S = typename Matrix::space;
  const auto x = detail::in_rows<S>(X_in);
  const auto y = detail::out_rows<S>(Y_out);
  detail::check_shape("spmm", "X", x.rows, x.cols, A.cols, x.cols);
  detail::check_shape("spmm", "Y", y.rows, y.cols, A.rows, x.cols);
  detail::check_map(map, A.rows, A.cols, "spmm");
  detail::gather<false>(exec, A.view(), x.data, y.data, x.cols, A.nnz(), map, reduce);
}

template <Executor Exec, class TA, class T, class S, ValueMap Map = map::Identity,
          class Reduce = reduce::Sum>
void spmv(Exec& exec, const Csr<TA, S>& A, const Array<T, S>& x, Array<T, S>& y, Map map = {},
          Reduce reduce = {}) {
  detail::check_shape("spmv", "x", x.size(), 1, A.cols, 1);
  detail::check_shape("spmv", "y", y.size(), 1, A.rows, 1);
  detail::check_map(map, A.rows, A.cols, "spmv");
  detail::gather<false>(exec, A.view(), x.data(), y.data(), 1, A.nnz(), map, reduce);
}

// ---- y = A^T x, A stored by columns (CSC, MeshMatrix, ReducedMeshMatrix) -----------------------

template <Executor Exec, detail::ColumnMajorMatrix Matrix, detail::DenseInput X,
          detail::DenseOutput Y, ValueMap Map = map::Identity, class Reduce = reduce::Sum>
void spmm_t(Exec& exec, const Matrix& A, const X& X_in, Y&& Y_out, Map map = {},
            Reduce reduce = {}) {
  using S = typename Matrix::space;
  const auto x = detail::in_rows<S>(X_in);
  const auto y = detail::out_rows<S>(Y_out);
  const index_t rows = detail::rows_of(A), cols = detail::cols_of(A);
  detail::check_shape("spmm_t", "X", x.rows, x.cols, rows, x.cols);
  detail::check_shape("spmm_t", "Y", y.rows, y.cols, cols, x.cols);
  detail::check_map(map, rows, cols, "spmm_t");
  detail::gather<true>(exec, A.view(), x.data, y.data, x.cols, 0, map, reduce);
}

template <Executor Exec, detail::ColumnMajorMatrix Matrix, class T, class S,
          ValueMap Map = map::Identity, class Reduce = reduce::Sum>
void spmv_t(Exec& exec, const Matrix& A, const Array<T, S>& x, Array<T, S>& y, Map map = {},
            Reduce reduce = {}) {
  const index_t rows = detail::rows_of(A), cols = detail::cols_of(A);
  detail::check_shape("spmv_t", "x", x.size(), 1, rows, 1);
  detail::check_shape("spmv_t", "y", y.size(), 1, cols, 1);
  detail::check_map(map, rows, cols, "spmv_t");
  detail::gather<true>(exec, A.view(), x.data(), y.data(), 1, 0, map, reduce);
}

// ---- returning forms: allocate the output in the executor's memory space -------------------------

template <Executor Exec, class Matrix, class T, class S, ValueMap Map = map::Identity,
          class Reduce = reduce::Sum>
Array<T, S> spmv(Exec& exec, const Matrix& A, const Array<T, S>& x, Map map = {},
                 Reduce reduce = {}) {
  Array<T, S> y(detail::rows_of(A));
  spmv(exec, A, x, y, map, reduce);
  return y;
}
template <Executor Exec, class Matrix, class T, class S, ValueMap Map = map::Identity,
          class Reduce = reduce::Sum>
Array<T, S> spmv_t(Exec& exec, const Matrix& A, const Array<T, S>& x, Map map = {},
                   Reduce reduce = {}) {
  Array<T, S> y(detail::cols_of(A));
  spmv_t(exec, A, x, y, map, reduce);
  return y;
}
template <Executor Exec, class Matrix, class T, class S, ValueMap Map = map::Identity,
          class Reduce = reduce::Sum>
Dense<T, S> spmm(Exec& exec, const Matrix& A, const Dense<T, S>& X, Map map = {},
                 Reduce reduce = {}) {
  Dense<T, S> Y(detail::rows_of(A), X.cols);
  spmm(exec, A, X, Y, map, reduce);
  return Y;
}
template <Executor Exec, class Matrix, class T, class S, ValueMap Map = map::Identity,
          class Reduce = reduce::Sum>
Dense<T, S> spmm_t(Exec& exec, const Matrix& A, const Dense<T, S>& X, Map map = {},
                   Reduce reduce = {}) {
  Dense<T, S> Y(detail::cols_of(A), X.cols);
  spmm_t(exec, A, X, Y, map, reduce);
  return Y;
}

}  // namespace spmesh::linalg
