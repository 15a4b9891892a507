// cuSPARSE (generic API, CUDA 12/13) as the GPU peer of the benchmarks: SpMV, SpMM, SpGEMM and
// CSR transposition on spmesh device matrices, with RAII descriptors and checked calls.
#pragma once

#include "linalg/cuda/memory.hpp"

#include <cusparse.h>

#include <string>
#include <type_traits>

namespace spmesh::bench::cusparse {

inline void check(cusparseStatus_t status, const char* call) {
  if (status != CUSPARSE_STATUS_SUCCESS)
    throw Error(std::string(call) + ": " + cusparseGetErrorString(status));
}

template <class T>
constexpr cudaDataType value_type() { return std::is_same_v<T, float> ? CUDA_R_32F : CUDA_R_64F; }

class Handle {
public:
  explicit Handle(cudaStream_t stream) {
    check(cusparseCreate(&h_), "cusparseCreate");
    check(cusparseSetStream(h_, stream), "cusparseSetStream");
  }
  ~Handle() { cusparseDestroy(h_); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  operator cusparseHandle_t() const { return h_; }

private:
  cusparseHandle_t h_ = nullptr;
};

// A CSR descriptor over spmesh device arrays (not owned).
template <class T>
class SpMat {
public:
  SpMat(index_t rows, index_t cols, index_t nnz, const index_t* offsets, const index_t* indices,
        const T* values) {
    check(cusparseCreateCsr(&d_, rows, cols, nnz, const_cast<index_t*>(offsets),
                            const_cast<index_t*>(indices), const_cast<T*>(values), CUSPARSE_INDEX_32I,
                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, value_type<T>()),
          "cusparseCreateCsr");
  }
  explicit SpMat(const linalg::Csr<T, linalg::Device>& A)
      : SpMat(A.rows, A.cols, A.nnz(), A.offsets.data(), A.indices.data(), A.values.data()) {}
  ~SpMat() { cusparseDestroySpMat(d_); }
  SpMat(const SpMat&) = delete;
  SpMat& operator=(const SpMat&) = delete;
  operator cusparseSpMatDescr_t() const { return d_; }

private:
  cusparseSpMatDescr_t d_ = nullptr;
};

template <class T>
class DnVec {
public:
  DnVec(index_t n, const T* data) {
    check(cusparseCreateDnVec(&d_, n, const_cast<T*>(data), value_type<T>()), "cusparseCreateDnVec");
  }
  ~DnVec() { cusparseDestroyDnVec(d_); }
  DnVec(const DnVec&) = delete;
  DnVec& operator=(const DnVec&) = delete;
  operator cusparseDnVecDescr_t() const { return d_; }

private:
  cusparseDnVecDescr_t d_ = nullptr;
};

template <class T>
class DnMat {
public:
  DnMat(index_t rows, index_t cols, const T* data, cusparseOrder_t order) {
    const std::int64_t ld = order == CUSPARSE_ORDER_ROW ? cols : rows;
    check(cusparseCreateDnMat(&d_, rows, cols, ld, const_cast<T*>(data), value_type<T>(), order),
          "cusparseCreateDnMat");
  }
  ~DnMat() { cusparseDestroyDnMat(d_); }
  DnMat(const DnMat&) = delete;
  DnMat& operator=(const DnMat&) = delete;
  operator cusparseDnMatDescr_t() const { return d_; }

private:
  cusparseDnMatDescr_t d_ = nullptr;
};

// y = A x with a prepared workspace; run() is what gets timed.
template <class T>
class SpMV {
public:
  SpMV(cusparseHandle_t h, const linalg::Csr<T, linalg::Device>& A, const T* x, T* y,
       cusparseSpMVAlg_t alg)
      : h_(h), A_(A), x_(A.cols, x), y_(A.rows, y), alg_(alg) {
    std::size_t bytes = 0;
    check(cusparseSpMV_bufferSize(h_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, A_, x_, &zero_, y_,
                                  value_type<T>(), alg_, &bytes),
          "cusparseSpMV_bufferSize");
    buffer_ = linalg::DeviceArray<char>(static_cast<index_t>(bytes));
    check(cusparseSpMV_preprocess(h_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, A_, x_, &zero_, y_,
                                  value_type<T>(), alg_, buffer_.data()),
          "cusparseSpMV_preprocess");
  }
  void run() {
    check(cusparseSpMV(h_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, A_, x_, &zero_, y_,
                       value_type<T>(), alg_, buffer_.data()),
          "cusparseSpMV");
  }

private:
  cusparseHandle_t h_;
  SpMat<T> A_;
  DnVec<T> x_, y_;
  cusparseSpMVAlg_t alg_;
  T one_ = 1, zero_ = 0;
  linalg::DeviceArray<char> buffer_;
};

// Y = A X for a k-column dense X in row- or column-major order.
template <class T>
class SpMM {
public:
  SpMM(cusparseHandle_t h, const linalg::Csr<T, linalg::Device>& A, index_t k, const T* X, T* Y,
       cusparseOrder_t order, cusparseSpMMAlg_t alg)
      : h_(h), A_(A), X_(A.cols, k, X, order), Y_(A.rows, k, Y, order), alg_(alg) {
    std::size_t bytes = 0;
    check(cusparseSpMM_bufferSize(h_, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                  CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, A_, X_, &zero_, Y_,
                                  value_type<T>(), alg_, &bytes),
          "cusparseSpMM_bufferSize");
    buffer_ = linalg::DeviceArray<char>(static_cast<index_t>(bytes));
    check(cusparseSpMM_preprocess(h_, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                  CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, A_, X_, &zero_, Y_,
                                  value_type<T>(), alg_, buffer_.data()),
          "cusparseSpMM_preprocess");
  }
  void run() {
    check(cusparseSpMM(h_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                       &one_, A_, X_, &zero_, Y_, value_type<T>(), alg_, buffer_.data()),
          "cusparseSpMM");
  }

private:
  cusparseHandle_t h_;
  SpMat<T> A_;
  DnMat<T> X_, Y_;
  cusparseSpMMAlg_t alg_;
  T one_ = 1, zero_ = 0;
  linalg::DeviceArray<char> buffer_;
};

// The transpose of A as CSR (csr2csc of A), as a cuSPARSE user must form M^T.
template <class T>
linalg::Csr<T, linalg::Device> transpose(cusparseHandle_t h, const linalg::Csr<T, linalg::Device>& A) {
  linalg::Csr<T, linalg::Device> At(A.cols, A.rows, linalg::DeviceArray<index_t>(A.cols + 1),
                                    linalg::DeviceArray<index_t>(A.nnz()),
                                    linalg::DeviceArray<T>(A.nnz()));
  std::size_t bytes = 0;
  check(cusparseCsr2cscEx2_bufferSize(h, A.rows, A.cols, A.nnz(), A.values.data(), A.offsets.data(),
                                      A.indices.data(), At.values.data(), At.offsets.data(),
                                      At.indices.data(), value_type<T>(), CUSPARSE_ACTION_NUMERIC,
                                      CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &bytes),
        "cusparseCsr2cscEx2_bufferSize");
  linalg::DeviceArray<char> buffer(static_cast<index_t>(bytes));
  check(cusparseCsr2cscEx2(h, A.rows, A.cols, A.nnz(), A.values.data(), A.offsets.data(),
                           A.indices.data(), At.values.data(), At.offsets.data(), At.indices.data(),
                           value_type<T>(), CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO,
                           CUSPARSE_CSR2CSC_ALG1, buffer.data()),
        "cusparseCsr2cscEx2");
  return At;
}

// C = A B with cuSPARSE's SpGEMM (ALG1), every phase included: work estimation, compute,
// allocation of C and the copy into it.
template <class T>
linalg::Csr<T, linalg::Device> spgemm(cusparseHandle_t h, const linalg::Csr<T, linalg::Device>& A,
                                      const linalg::Csr<T, linalg::Device>& B) {
  const T one = 1, zero = 0;
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const auto type = value_type<T>();
  const auto alg = CUSPARSE_SPGEMM_DEFAULT;
  SpMat<T> a(A), b(B), c(A.rows, B.cols, 0, nullptr, nullptr, nullptr);
  linalg::DeviceArray<index_t> c_offsets(A.rows + 1);
  cusparseSpGEMMDescr_t desc;
  check(cusparseSpGEMM_createDescr(&desc), "cusparseSpGEMM_createDescr");
  std::size_t bytes1 = 0, bytes2 = 0;
  check(cusparseSpGEMM_workEstimation(h, op, op, &one, a, b, &zero, c, type, alg, desc, &bytes1, nullptr),
        "cusparseSpGEMM_workEstimation");
  linalg::DeviceArray<char> buffer1(static_cast<index_t>(bytes1));
  check(cusparseSpGEMM_workEstimation(h, op, op, &one, a, b, &zero, c, type, alg, desc, &bytes1,
                                      buffer1.data()),
        "cusparseSpGEMM_workEstimation");
  check(cusparseSpGEMM_compute(h, op, op, &one, a, b, &zero, c, type, alg, desc, &bytes2, nullptr),
        "cusparseSpGEMM_compute");
  linalg::DeviceArray<char> buffer2(checked_index(static_cast<std::int64_t>(bytes2), "cuSPARSE buffer"));
  check(cusparseSpGEMM_compute(h, op, op, &one, a, b, &zero, c, type, alg, desc, &bytes2, buffer2.data()),
        "cusparseSpGEMM_compute");
  std::int64_t rows = 0, cols = 0, nnz = 0;
  check(cusparseSpMatGetSize(c, &rows, &cols, &nnz), "cusparseSpMatGetSize");
  linalg::DeviceArray<index_t> c_indices(static_cast<index_t>(nnz));
  linalg::DeviceArray<T> c_values(static_cast<index_t>(nnz));
  check(cusparseCsrSetPointers(c, c_offsets.data(), c_indices.data(), c_values.data()),
        "cusparseCsrSetPointers");
  check(cusparseSpGEMM_copy(h, op, op, &one, a, b, &zero, c, type, alg, desc), "cusparseSpGEMM_copy");
  cusparseSpGEMM_destroyDescr(desc);
  return linalg::Csr<T, linalg::Device>(A.rows, B.cols, std::move(c_offsets), std::move(c_indices),
                                        std::move(c_values));
}

}  // namespace spmesh::bench::cusparse
