// Eigen interop: zero-copy Eigen::Map views of spmesh CSR/CSC matrices and dense blocks,
// and conversions from Eigen sparse matrices (host memory only).
#pragma once

#include "linalg/formats.hpp"

#include <Eigen/Dense>
#include <Eigen/SparseCore>

namespace spmesh::linalg {

template <class T, Major M>
using EigenSparse =
    Eigen::SparseMatrix<T, M == Major::row ? Eigen::RowMajor : Eigen::ColMajor, index_t>;

// A read-only Eigen view of A's arrays; valid while A lives.
template <class T, Major M>
Eigen::Map<const EigenSparse<T, M>> eigen_view(const Compressed<T, M, Host>& A) {
  return Eigen::Map<const EigenSparse<T, M>>(A.rows, A.cols, A.nnz(), A.offsets.data(),
                                             A.indices.data(), A.values.data());
}

// A read-only Eigen view of a row-major dense block.
template <class T>
auto eigen_view(const Dense<T, Host>& X) {
  using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  return Eigen::Map<const Matrix>(X.data.data(), X.rows, X.cols);
}

// Copies an Eigen sparse matrix (any storage order, compressed or not) into CSR or CSC.
template <Major M, class Derived>
Compressed<typename Derived::Scalar, M> from_eigen(const Eigen::SparseMatrixBase<Derived>& E) {
  using T = typename Derived::Scalar;
  EigenSparse<T, M> S = E.derived();  // converts storage order if needed
  S.makeCompressed();
  const index_t outer = static_cast<index_t>(S.outerSize());
  const index_t nnz = static_cast<index_t>(S.nonZeros());
  Array<index_t> offsets(outer + 1), indices(nnz);
  Array<T> values(nnz);
  std::copy_n(S.outerIndexPtr(), outer + 1, offsets.data());
  std::copy_n(S.innerIndexPtr(), nnz, indices.data());
  std::copy_n(S.valuePtr(), nnz, values.data());
  return Compressed<T, M>(static_cast<index_t>(S.rows()), static_cast<index_t>(S.cols()),
                          std::move(offsets), std::move(indices), std::move(values));
}

template <class Derived>
Csr<typename Derived::Scalar> csr_from_eigen(const Eigen::SparseMatrixBase<Derived>& E) {
  return from_eigen<Major::row>(E);
}
template <class Derived>
Csc<typename Derived::Scalar> csc_from_eigen(const Eigen::SparseMatrixBase<Derived>& E) {
  return from_eigen<Major::column>(E);
}

}  // namespace spmesh::linalg
