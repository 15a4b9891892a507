// spmesh_bench_subdivision's GPU rows (bench/subdivision.hpp), compiled by nvcc: run_spmesh on
// the GPU and cuSPARSE's replay of the same R.
#include "bench/cuda/copy_rate.cuh"
#include "bench/cuda/cusparse_peer.hpp"
#include "bench/subdivision.hpp"
#include "linalg/cuda/executor.cuh"

#include <memory>

namespace spmesh::bench {

using namespace linalg;

namespace {

// cuSPARSE's fastest route to P = R P0 (xyz): SpMM (ALG1, ALG3) on row-major data, or on the
// data split into x, y and z (the split not timed) three SpMVs (ALG1) or one column-major SpMM.
double cusparse_replay(cuda::Executor& exec, const linalg::Csr<float, linalg::Device>& R,
                       const linalg::Dense<float, linalg::Device>& P0) {
  namespace cs = bench::cusparse;
  cs::Handle handle(exec.stream());
  linalg::Dense<float, linalg::Device> Y(R.rows, 3), X_soa(3, R.cols), Y_soa(3, R.rows);
  {
    const float* in = P0.data.data();
    float* out = X_soa.data.data();
    const index_t n = R.cols;
    exec.for_each(n, [=] __device__(index_t i) {
      for (int c = 0; c < 3; ++c) out[std::int64_t(c) * n + i] = in[3 * std::int64_t(i) + c];
    });
  }
  cs::SpMM<float> row_major(handle, R, 3, P0.data.data(), Y.data.data(), CUSPARSE_ORDER_ROW,
                            CUSPARSE_SPMM_CSR_ALG1);
  cs::SpMM<float> row_major3(handle, R, 3, P0.data.data(), Y.data.data(), CUSPARSE_ORDER_ROW,
                             CUSPARSE_SPMM_CSR_ALG3);
  cs::SpMM<float> col_major(handle, R, 3, X_soa.data.data(), Y_soa.data.data(),
                            CUSPARSE_ORDER_COL, CUSPARSE_SPMM_CSR_ALG1);
  std::vector<std::unique_ptr<cs::SpMV<float>>> spmv;
  for (int c = 0; c < 3; ++c)
    spmv.push_back(std::make_unique<cs::SpMV<float>>(
        handle, R, X_soa.data.data() + std::int64_t(c) * R.cols,
        Y_soa.data.data() + std::int64_t(c) * R.rows, CUSPARSE_SPMV_CSR_ALG1));
  auto timed = [&](auto&& f) {
    return time_ms([&] {
      f();
      exec.synchronize();
    });
  };
  return std::min({timed([&] { row_major.run(); }), timed([&] { row_major3.run(); }),
                   timed([&] { col_major.run(); }),
                   timed([&] { for (auto& s : spmv) s->run(); })});
}


}  // namespace

GpuInfo gpu_info() {
  cudaDeviceProp prop;
  cuda::check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  return {prop.name, device_copy_gbs(time_ms)};
}

template <class Scheme>
Row gpu_row(const Case& c, int level, bool compose, bool deepest, double copy_gbs, Dense<float>& eval) {
  cuda::Executor gpu;
  Row r;
  eval = run_spmesh<Scheme>(
      gpu, c, level, compose, deepest, r, [](const auto& x) { return cuda::to_device(x); },
      [](const auto& x) { return cuda::to_host(x); },
      [&](const Csr<float, Device>& R, const Dense<float, Device>& P0, Row& row) {
        row.cusparse_replay = cusparse_replay(gpu, R, P0);
      });
  if (r.replay > 0) r.replay_of_copy = r.replay_bytes / (r.replay * 1e6) / copy_gbs;
  if (r.replay_stencils > 0) r.stencil_of_copy = r.stencil_bytes / (r.replay_stencils * 1e6) / copy_gbs;
  return r;
}

template Row gpu_row<schemes::CatmullClark>(const Case&, int, bool, bool, double, Dense<float>&);
template Row gpu_row<schemes::Loop>(const Case&, int, bool, bool, double, Dense<float>&);
template Row gpu_row<schemes::Sqrt3>(const Case&, int, bool, bool, double, Dense<float>&);

}  // namespace spmesh::bench
