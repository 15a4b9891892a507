// Sparse and dense containers: CSR, CSC, COO, row-major dense blocks, and the views kernels use.
#pragma once

#include "linalg/array.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace spmesh::linalg {

// What a kernel sees of a compressed matrix: `outer` lines (rows of a CSR, columns of a CSC),
// each a run [begin(o), end(o)) of inner indices and values. Trivially copyable, so it can be
// captured by value in a host or device functor.
template <class T>
struct CompressedView {
  index_t outer = 0, inner = 0;
  const index_t* offsets = nullptr;
  const index_t* indices = nullptr;
  const T* values = nullptr;

  SPMESH_HD index_t begin(index_t o) const { return offsets[o]; }
  SPMESH_HD index_t end(index_t o) const { return offsets[o + 1]; }
  SPMESH_HD index_t index(index_t p) const { return indices[p]; }
  SPMESH_HD T value(index_t /*o*/, index_t p) const { return values[p]; }

  // Position of entry (o, j) by binary search in a canonical line (sorted indices), or -1.
  SPMESH_HD index_t find(index_t o, index_t j) const {
    index_t lo = offsets[o], hi = offsets[o + 1];
    while (lo < hi) {
      const index_t mid = lo + (hi - lo) / 2;
      if (indices[mid] < j)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo < offsets[o + 1] && indices[lo] == j ? lo : -1;
  }
};

enum class Major { row, column };

// A compressed sparse matrix. Major::row is CSR (offsets over rows, indices are columns),
// Major::column is CSC. Canonical form, which every operation here produces: indices sorted
// and unique within each line. Inputs to SpMV and SpGEMM need not be canonical.
template <class T, Major M, class Space = Host>
struct Compressed {
  using value_type = T;
  using space = Space;
  static constexpr Major major = M;

  index_t rows = 0, cols = 0;
  Array<index_t, Space> offsets;  // outer() + 1 entries
  Array<index_t, Space> indices;  // nnz entries
  Array<T, Space> values;         // nnz entries

  Compressed() : offsets(1) { init_empty_offsets(); }
  Compressed(index_t rows_, index_t cols_, Array<index_t, Space> offsets_,
             Array<index_t, Space> indices_, Array<T, Space> values_)
      : rows(rows_), cols(cols_), offsets(std::move(offsets_)), indices(std::move(indices_)),
        values(std::move(values_)) {
    if (rows < 0 || cols < 0)
      throw DimensionError("sparse matrix: negative shape " + shape());
    if (offsets.size() != outer() + 1)
      throw DimensionError("sparse matrix " + shape() + ": offsets has " +
                           std::to_string(offsets.size()) + " entries, expected " +
                           std::to_string(outer() + 1));
    if (indices.size() != values.size())
      throw DimensionError("sparse matrix " + shape() + ": " + std::to_string(indices.size()) +
                           " indices but " + std::to_string(values.size()) + " values");
  }

  index_t outer() const { return M == Major::row ? rows : cols; }
  index_t inner() const { return M == Major::row ? cols : rows; }
  index_t nnz() const { return indices.size(); }
  std::string shape() const { return std::to_string(rows) + " x " + std::to_string(cols); }

  CompressedView<T> view() const {
    return {outer(), inner(), offsets.data(), indices.data(), values.data()};
  }

  Compressed clone() const requires std::is_same_v<Space, Host> {
    return Compressed(rows, cols, offsets.clone(), indices.clone(), values.clone());
  }

private:
  void init_empty_offsets() {
    if constexpr (std::is_same_v<Space, Host>) offsets[0] = 0;
  }
};

template <class T, class Space = Host>
using Csr = Compressed<T, Major::row, Space>;
template <class T, class Space = Host>
using Csc = Compressed<T, Major::column, Space>;

// A CSR matrix over arrays that someone else owns (a NumPy or CuPy array's buffer, a mapped
// file): what SpMV and SpMM read of a Csr, without a copy. The owner keeps the arrays alive and
// unchanged while it is in use; linalg::validate checks arrays from outside.
template <class T, class Space = Host>
struct CsrRef {
  using value_type = T;
  using space = Space;
  static constexpr Major major = Major::row;
  index_t rows = 0, cols = 0;
  const index_t* offsets = nullptr;  // rows + 1 entries
  const index_t* indices = nullptr;  // nnz() entries
  const T* values = nullptr;         // nnz() entries
  index_t nonzeros = 0;

  index_t outer() const { return rows; }
  index_t nnz() const { return nonzeros; }
  std::string shape() const { return std::to_string(rows) + " x " + std::to_string(cols); }
  CompressedView<T> view() const { return {rows, cols, offsets, indices, values}; }
};

// Reinterprets the arrays of A as its transpose in the other major order, in O(1):
// the CSR arrays of A are the CSC arrays of A^T.
template <class T, Major M, class Space>
auto transposed(Compressed<T, M, Space>&& A) {
  constexpr Major other = M == Major::row ? Major::column : Major::row;
  return Compressed<T, other, Space>(A.cols, A.rows, std::move(A.offsets), std::move(A.indices),
                                     std::move(A.values));
}

// Coordinate (triplet) form; duplicates allowed, any order. Assembled by linalg::to_csr.
template <class T, class Space = Host>
struct Coo {
  index_t rows = 0, cols = 0;
  Array<index_t, Space> row_indices, col_indices;
  Array<T, Space> values;

  index_t nnz() const { return values.size(); }
  Coo clone() const requires std::is_same_v<Space, Host> {
    return Coo{rows, cols, row_indices.clone(), col_indices.clone(), values.clone()};
  }
};

inline void check_row_block(index_t rows, index_t first, index_t count) {
  if (first < 0 || count < 0 || first > rows - count)
    throw DimensionError("row_block: rows [" + std::to_string(first) + ", " +
                         std::to_string(first + count) + ") of a block of " +
                         std::to_string(rows) + " rows");
}

// An n x k block of row-major data: vertex positions (k = 3), colours, any primvar.
template <class T, class Space = Host>
struct Dense {
  using value_type = T;
  using space = Space;
  index_t rows = 0, cols = 0;
  Array<T, Space> data;

  Dense() = default;
  Dense(index_t rows_, index_t cols_)
      : rows(rows_), cols(cols_),
        data(checked_index(static_cast<std::int64_t>(rows_) * cols_, "Dense block size")) {}
  Dense(index_t rows_, index_t cols_, Array<T, Space> data_)
      : rows(rows_), cols(cols_), data(std::move(data_)) {
    if (static_cast<std::int64_t>(rows) * cols != data.size())
      throw DimensionError("Dense " + std::to_string(rows) + " x " + std::to_string(cols) +
                           " given " + std::to_string(data.size()) + " values");
  }

  T& operator()(index_t i, index_t c) requires std::is_same_v<Space, Host> {
    return data[i * cols + c];
  }
  const T& operator()(index_t i, index_t c) const requires std::is_same_v<Space, Host> {
    return data[i * cols + c];
  }
  Dense clone() const requires std::is_same_v<Space, Host> {
    return Dense(rows, cols, data.clone());
  }
};

// Consecutive rows [first, first + rows) of a Dense block, not owning: lets one product write
// (or read) part of a larger block, e.g. the face points of a refined level in place.
template <class T, class Space = Host>
struct DenseRows {
  using value_type = std::remove_const_t<T>;
  using space = Space;
  T* data = nullptr;
  index_t rows = 0, cols = 0;
};

template <class T, class S>
DenseRows<T, S> row_block(Dense<T, S>& X, index_t first, index_t count) {
  check_row_block(X.rows, first, count);
  return {X.data.data() + static_cast<std::int64_t>(first) * X.cols, count, X.cols};
}
template <class T, class S>
DenseRows<const T, S> row_block(const Dense<T, S>& X, index_t first, index_t count) {
  check_row_block(X.rows, first, count);
  return {X.data.data() + static_cast<std::int64_t>(first) * X.cols, count, X.cols};
}

}  // namespace spmesh::linalg
