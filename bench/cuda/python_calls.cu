// The GPU's half of libspmesh_bench_calls (bench/python_calls.cpp): the calls on the GPU, their
// inputs copied to the device once.
#include "bench/python_calls.hpp"
#include "linalg/cuda/executor.cuh"

namespace spmesh::bench {

std::unique_ptr<Call> call_on_gpu(CallInputs in) {
  using linalg::cuda::Executor, linalg::cuda::to_device, linalg::Device;
  if (in.what == "replay")
    return std::make_unique<Replay<Executor, linalg::Csr<double, Device>, linalg::Dense<double, Device>>>(
        to_device(in.R), to_device(in.P0));
  return std::make_unique<MeshAlgorithm<Executor, linalg::MeshMatrix<Device>, linalg::Dense<double, Device>>>(
      to_device(in.triangles.M), to_device(in.triangles.positions), in.what == "implicit_smoothing");
}

}  // namespace spmesh::bench
