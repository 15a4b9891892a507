// The GPU's device-to-device copy rate that the benchmarks' bytes floors are taken at.
#pragma once

#include "linalg/cuda/executor.cuh"

namespace spmesh::bench {

// GB/s (bytes read + written) of a 1 GiB device-to-device cudaMemcpy, timed by `time_ms` (the
// benchmark's own repeat rule) with a wait for its end (the copy returns before it ends).
template <class Time>
double device_copy_gbs(Time&& time_ms) {
  const index_t n = 1 << 28;
  linalg::DeviceArray<float> a(n), b(n);
  linalg::cuda::check(cudaMemset(a.data(), 0, sizeof(float) * n), "cudaMemset");
  const double ms = time_ms([&] {
    linalg::cuda::check(cudaMemcpy(b.data(), a.data(), sizeof(float) * n, cudaMemcpyDeviceToDevice), "cudaMemcpy");
    linalg::cuda::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  });
  return 2.0 * sizeof(float) * n / (ms * 1e6);
}

}  // namespace spmesh::bench
