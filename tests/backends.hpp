// The backends a test source runs on. A test written once as a template over a Backend is
// compiled as C++ for the CPU backend and, where nvcc exists, again as CUDA (a .cu file that
// includes the same source) for the GPU backend, whose results are compared with the CPU's.
#pragma once

#include "linalg/cpu/executor.hpp"
#include "linalg/formats.hpp"
#include "linalg/mesh_matrix.hpp"
#if defined(__CUDACC__)
#include "linalg/cuda/executor.cuh"
#endif

namespace spmesh::test {

// Host objects go in with upload(), results come back with download(); on the CPU both copy.
struct CpuBackend {
  using Exec = linalg::cpu::Executor;
  static constexpr const char* name = "cpu";
  template <class X>
  static auto upload(const X& x) { return clone(x); }
  template <class X>
  static auto download(const X& x) { return clone(x); }

private:
  template <class X>
  static auto clone(const X& x) {
    if constexpr (requires { x.clone(); }) return x.clone();
    else if constexpr (requires { x.offsets; x.vertices; })  // MeshMatrix
      return linalg::MeshMatrix<>(x.vertices, x.offsets.clone(), x.indices.clone());
    else if constexpr (requires { x.order; })  // ReducedMeshMatrix
      return linalg::ReducedMeshMatrix<>(x.vertices, x.order, x.indices.clone());
    else  // Coo
      return linalg::Coo<typename decltype(x.values)::value_type>{
          x.rows, x.cols, x.row_indices.clone(), x.col_indices.clone(), x.values.clone()};
  }
};

#if defined(__CUDACC__)
struct CudaBackend {
  using Exec = linalg::cuda::Executor;
  static constexpr const char* name = "cuda";
  template <class X>
  static auto upload(const X& x) { return linalg::cuda::to_device(x); }
  template <class X>
  static auto download(const X& x) { return linalg::cuda::to_host(x); }
};
#endif

}  // namespace spmesh::test

// The backend list of this compilation: the CPU in .cpp files, the GPU in .cu files.
#if defined(__CUDACC__)
#define SPMESH_TEST_BACKENDS spmesh::test::CudaBackend
#else
#define SPMESH_TEST_BACKENDS spmesh::test::CpuBackend
#endif
