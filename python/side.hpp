// Side<Exec>: how the host's objects and Python's arrays reach an executor, and how its results
// reach Python (where they were made: NumPy from the CPU, DLPack tensors from the GPU). The
// CPU's is here, the GPU's in side_cuda.cuh; algorithms.hpp and plans.hpp are written once
// against either.
#pragma once

#include "linalg/cpu/executor.hpp"
#include "python/arrays.hpp"
#include "python/mesh.hpp"
#include "schemes/plan.hpp"

#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace spmesh::python {

template <class Exec>
struct Side;

// The executor of this thread for the calls that hold none of their own (the mesh algorithms,
// SpMV): made at the first call and kept, as a C++ program keeps its executor. A GPU executor
// made per call cost each call a new stream, whose first work is slower (bench/RESULTS.md,
// "From Python: the binding's cost, SciPy and libigl").
template <class Exec>
Exec& thread_executor() {
  thread_local Exec exec;
  return exec;
}

template <>
struct Side<linalg::cpu::Executor> {
  using S = linalg::Host;
  static constexpr const char* name = "cpu";
  // A mesh's topology (M) as the executor reads it, and f(its positions): Python's `positions`
  // if given (V x 3), else the mesh's own (read in place).
  static const linalg::MeshMatrix<>& topology(const Mesh& mesh) { return mesh.mesh.M; }
  template <class F>
  static decltype(auto) with_positions(const Mesh& mesh, const std::optional<AnyPoints>& given, const char* what, F&& f) {
    if (given) return f(points(*given, what, mesh.mesh.vertex_count()));
    return f(mesh.mesh.positions);
  }
  // A host object as the executor reads it (in place) ...
  template <class X>
  static const X& up(const X& x) { return x; }
  // ... and as an operation that keeps it takes it (a copy).
  template <class X>
  static X own(const X& x) { return x.clone(); }
  template <class T>
  static nb::object out(linalg::Array<T>&& values, std::initializer_list<std::size_t> shape) {
    return hand_out(std::move(values), shape, nb::device::cpu::value, 0);
  }
  // A result made from the input `like`: a NumPy array (the CPU takes only host arrays).
  template <class T>
  static nb::object out_like(const AnyPoints& /*like*/, linalg::Dense<T>&& block) {
    const auto rows = std::size_t(block.rows), cols = std::size_t(block.cols);
    return out(std::move(block.data), {rows, cols});
  }
  // Points from Python, rows x 3 (any rows where rows < 0), copied into the executor's memory.
  static linalg::Dense<double> points(const AnyPoints& P, const char* what, index_t rows) {
    require_here(P, what);
    return copy_points(P, what, rows);
  }
  // f(DenseRows) over points from Python, read in place.
  template <class F>
  static void with_rows(const AnyPoints& P, const char* what, index_t rows, F&& f) {
    require_here(P, what);
    check_points(P, what, rows);
    f(linalg::DenseRows<const double>{P.data(), index_t(P.shape(0)), 3});
  }
  // A matrix the executor keeps, as host CSR arrays that share its buffers, read-only (`owner`
  // keeps them).
  template <class T>
  static nb::object host_csr(const linalg::Csr<T>& A, const std::shared_ptr<linalg::Csr<T>>& owner) {
    auto* held = new std::shared_ptr<linalg::Csr<T>>(owner);
    nb::capsule keep(held, [](void* p) noexcept { delete static_cast<std::shared_ptr<linalg::Csr<T>>*>(p); });
    auto view = [&]<class V>(const V* data, index_t n) {
      const std::size_t size = std::size_t(n);
      return nb::ndarray<nb::numpy, const V>(data, 1, &size, keep);
    };
    return nb::make_tuple(view(A.values.data(), A.nnz()), view(A.indices.data(), A.nnz()),
                          view(A.offsets.data(), A.rows + 1), nb::make_tuple(A.rows, A.cols));
  }
  // Results on the host.
  static linalg::MeshMatrix<> refined_mesh(const schemes::RefinedMesh<>& refined) { return refined.mesh(); }
  template <class X>
  static X down(X&& x) { return std::move(x); }

  // Arrays from Python that an operation reads in place: here (on the host) or InputError.
  template <class Array>
  static void require_here(const Array& a, const char* what) {
    if (!on_host(a)) throw InputError(std::string(what) + ": a GPU array given to a CPU operation; give a NumPy array");
  }
  static void validate(linalg::cpu::Executor& exec, const linalg::CsrRef<double>& A) { linalg::validate(exec, A); }
};

template <class Exec, class T, class S>
nb::object out(linalg::Array<T, S>&& values) {
  const auto n = std::size_t(values.size());
  return Side<Exec>::out(std::move(values), {n});
}
template <class Exec, class T, class S>
nb::object out(linalg::Dense<T, S>&& block) {
  const auto rows = std::size_t(block.rows), cols = std::size_t(block.cols);
  return Side<Exec>::out(std::move(block.data), {rows, cols});
}
// A CSR matrix as (values, column indices, row offsets, (rows, cols)).
template <class Exec, class T, class S>
nb::object out(linalg::Csr<T, S>&& A) {
  const index_t rows = A.rows, cols = A.cols;
  return nb::make_tuple(out<Exec>(std::move(A.values)), out<Exec>(std::move(A.indices)), out<Exec>(std::move(A.offsets)),
                        nb::make_tuple(rows, cols));
}

}  // namespace spmesh::python
