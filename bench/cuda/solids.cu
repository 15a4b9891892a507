// spmesh_bench_solids' GPU rows (bench/solids.hpp), compiled by nvcc: the measurements on one
// GPU executor kept for the run.
#include "bench/cuda/copy_rate.cuh"
#include "bench/solids.hpp"
#include "linalg/cuda/executor.cuh"

namespace spmesh::bench {

namespace {

linalg::cuda::Executor& gpu() {
  static linalg::cuda::Executor exec;
  return exec;
}

auto up = [](const auto& x) { return linalg::cuda::to_device(x); };

}  // namespace

double gpu_copy_gbs() {
  gpu();  // the context first, outside the timing
  return device_copy_gbs(time_ms);
}

Row measure_on_gpu(const solids::VolumeMesh& mesh, const std::vector<solids::SolidCounts>& counts, int level,
                   double copy_gbs) {
  auto peak = [](bool reset) {
    if (reset) linalg::Device::reset_peak();
    return double(linalg::Device::peak_bytes()) / 1048576.0;
  };
  auto down = [](const auto& x) { return linalg::cuda::to_host(x); };
  std::size_t free_bytes = 0, total_bytes = 0;
  linalg::cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  return measure(gpu(), up, down, peak, mesh, counts, level, copy_gbs, std::int64_t(free_bytes));
}

void phases_on_gpu(const solids::VolumeMesh& mesh, int level) { phases(gpu(), up, mesh, level); }

void profile_on_gpu(const solids::VolumeMesh& mesh, int level) { profile(gpu(), up, mesh, level); }

}  // namespace spmesh::bench
