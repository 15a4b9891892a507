// spmesh_bench_algebra's GPU rows (bench/algebra.hpp), compiled by nvcc.
#include "bench/algebra.hpp"
#include "linalg/cuda/executor.cuh"
#include "linalg/spmv.hpp"
#include "meshops/laplacian.hpp"

namespace spmesh::bench {

double gpu_replay_ms(const linalg::Csr<double>& R, const linalg::Dense<double>& P0, int repeats) {
  linalg::cuda::Executor gpu;
  const auto dR = linalg::cuda::to_device(R);
  const auto dP = linalg::cuda::to_device(P0);
  return median_ms(repeats, [&] {
    linalg::spmm(gpu, dR, dP);  // the returning form, as Plan.replay: a new output each call
    gpu.synchronize();
  });
}

double gpu_laplacian_ms(const linalg::MeshMatrix<>& M, const linalg::Dense<double>& P, int repeats) {
  linalg::cuda::Executor gpu;
  const auto dM = linalg::cuda::to_device(M);
  const auto dP = linalg::cuda::to_device(P);
  return median_ms(repeats, [&] {
    meshops::cotangent_laplacian(gpu, dM, dP);
    gpu.synchronize();
  });
}

GpuSolve gpu_conjugate_gradient(const linalg::Csr<double>& A, const linalg::Dense<double>& B,
                                const linalg::Dense<double>& P, const linalg::CgOptions& options, int repeats) {
  linalg::cuda::Executor gpu;
  const auto dA = linalg::cuda::to_device(A);
  const auto dB = linalg::cuda::to_device(B);
  const auto dP = linalg::cuda::to_device(P);
  linalg::Dense<double, linalg::Device> dX(P.rows, P.cols);
  auto solve = [&] {
    gpu.copy(dP.data.data(), dP.data.size(), dX.data.data());
    linalg::conjugate_gradient(gpu, dA, dB, dX, options);
    gpu.synchronize();
  };
  const double ms = median_ms(repeats, solve);
  solve();
  return {ms, linalg::cuda::to_host(dX)};
}

}  // namespace spmesh::bench
