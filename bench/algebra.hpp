// What spmesh_bench_algebra's two translation units share: bench/algebra.cpp (the CPU's rows
// and the peers, compiled by the host compiler) and cuda/algebra.cu (the GPU's rows, compiled
// by nvcc, in a CUDA build with SPMESH_BENCH_GPU defined).
#pragma once

#include "bench/timing.hpp"
#include "linalg/cg.hpp"
#include "linalg/formats.hpp"

#include <algorithm>
#include <vector>

namespace spmesh::bench {

// The median of `repeats` timed calls after one warm-up.
template <class F>
double median_ms(int repeats, F&& f) {
  f();
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    const double t = now_ms();
    f();
    times.push_back(now_ms() - t);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// The GPU's rows, each on inputs copied to the device once, timed to the executor's
// synchronize(): R P0 into a new block; the cotangent Laplacian of (M, P); `options`' conjugate
// gradients on A X = B from X = P, with the solution of one run.
double gpu_replay_ms(const linalg::Csr<double>& R, const linalg::Dense<double>& P0, int repeats);
double gpu_laplacian_ms(const linalg::MeshMatrix<>& M, const linalg::Dense<double>& P, int repeats);
struct GpuSolve {
  double ms;
  linalg::Dense<double> X;
};
GpuSolve gpu_conjugate_gradient(const linalg::Csr<double>& A, const linalg::Dense<double>& B,
                                const linalg::Dense<double>& P, const linalg::CgOptions& options, int repeats);

}  // namespace spmesh::bench
