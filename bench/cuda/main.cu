// spmesh_bench_cuda: spmesh's GPU backend against cuSPARSE (and Eigen on the host) on the same
// matrices in the same run: the xyz product P' = R P, single-vector SpMV, the implicit M M^T
// and a general SpGEMM. Reports median ms (CUDA events), the op's byte floor, GB/s, the
// fraction of a device-to-device copy measured in the same run, the ratio to cuSPARSE and the
// peak GPU memory of each op. --json PATH writes every figure.
#include "bench/cuda/cusparse_peer.hpp"
#include "bench/cuda/quad_torus.hpp"
#include "bench/generators.hpp"
#include "linalg/cuda/executor.cuh"
#include "linalg/eigen.hpp"
#include "linalg/linalg.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace spmesh::bench {

using linalg::Device;
template <class T>
using DCsr = linalg::Csr<T, Device>;

struct Row {
  std::string op, matrix, impl;
  std::int64_t rows = 0, cols = 0, nnz = 0;
  double ms = 0, floor_bytes = 0, peak_mib = 0;
  double vs_cusparse = 0;  // cuSPARSE's best time / this time (> 1: faster than cuSPARSE)
  std::string note;
};

struct Config {
  index_t grid = 2048;      // Loop-like R on a grid^2 torus: ~4.2 grid^2 rows
  index_t quad_grid = 2048; // Catmull-Clark-like R and quad M on a quad_grid^2 torus
  index_t spgemm_grid = 1024;
  int repeats = 50;
  std::string ops = "xyz,spmv,mmt,spgemm";  // which groups of ops to run
  std::string json;

  // Repeats of the slow ops (M M^T, SpGEMM): cuSPARSE's SpGEMM varies by 30% run to run.
  int slow_repeats() const { return std::max(5, repeats / 5); }
  bool runs(const std::string& op) const { return ("," + ops + ",").find("," + op + ",") != std::string::npos; }
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Median of `repeats` event-timed runs after two warm-ups, and the op's peak device memory.
struct Timed {
  double ms, peak_mib;
};
Timed time_gpu(cudaStream_t s, const std::function<void()>& f, int repeats) {
  f();
  f();
  cuda::check(cudaDeviceSynchronize(), "warm-up");
  Device::reset_peak();
  const std::size_t base = Device::current_bytes();
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<double> ms;
  for (int r = 0; r < repeats; ++r) {
    cudaEventRecord(a, s);
    f();
    cudaEventRecord(b, s);
    cuda::check(cudaEventSynchronize(b), "timed run");
    float t = 0;
    cudaEventElapsedTime(&t, a, b);
    ms.push_back(t);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return {median(ms), double(Device::peak_bytes() - base) / (1 << 20)};
}

double host_ms(const std::function<void()>& f, int repeats) {
  f();
  std::vector<double> ms;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return median(ms);
}

// Device-to-device copy bandwidth, bytes read + written.
double copy_gbs(cudaStream_t s) {
  const index_t n = 1 << 28;  // 1 GiB of float
  linalg::DeviceArray<float> a(n), b(n);
  cuda::check(cudaMemsetAsync(a.data(), 0, sizeof(float) * n, s), "cudaMemset");
  const Timed t = time_gpu(s, [&] { cudaMemcpyAsync(b.data(), a.data(), sizeof(float) * n, cudaMemcpyDeviceToDevice, s); }, 20);
  return 2.0 * sizeof(float) * n / (t.ms * 1e6);
}

// On the host: max |a - b| / max |b| of two device arrays.
template <class T>
double max_rel_diff(const linalg::DeviceArray<T>& a, const linalg::DeviceArray<T>& b) {
  const auto ha = cuda::to_host(a), hb = cuda::to_host(b);
  return max_rel_diff(ha.data(), hb.data(), ha.size());
}

template <class T>
bool same_bits(const linalg::DeviceArray<T>& a, const linalg::DeviceArray<T>& b) {
  const auto ha = cuda::to_host(a), hb = cuda::to_host(b);
  return ha.size() == hb.size() && std::memcmp(ha.data(), hb.data(), sizeof(T) * ha.size()) == 0;
}

// SoA <-> AoS: cuSPARSE's three-SpMV route works on separate x, y, z vectors.
template <class T>
linalg::DeviceArray<T> column(cuda::Executor& exec, const linalg::DeviceArray<T>& xyz, int c, index_t n) {
  linalg::DeviceArray<T> out(n);
  T* o = out.data();
  const T* in = xyz.data();
  exec.for_each(n, [=] __device__(index_t i) { o[i] = in[3 * i + c]; });
  return out;
}

// P' = R P with k = 3: spmesh SpMM (row-major n x 3) vs cuSPARSE three SpMVs (SoA, ALG1) and
// SpMM in row- and column-major order with each algorithm; plus Eigen on the host.
void xyz_product(cuda::Executor& exec, cusparseHandle_t h, const linalg::Csr<float>& R_host,
                 const char* name, const Config& cfg, double copy, std::vector<Row>& rows) {
  const auto R = cuda::to_device(R_host);
  const index_t n = R.rows, m = R.cols;
  const double floor = 8.0 * R.nnz() + 4.0 * (n + 1) + 12.0 * n + 12.0 * m;
  const auto P_host = random_values<float>(3 * m, 7);
  linalg::Dense<float, Device> P(m, 3, cuda::to_device(P_host)), Y(n, 3), Y2(n, 3);
  auto add = [&](const char* impl, Timed t, std::string note = "") {
    rows.push_back({"xyz P'=RP", name, impl, n, m, R.nnz(), t.ms, floor, t.peak_mib, 0, note});
  };
  const Timed ours = time_gpu(exec.stream(), [&] { linalg::spmm(exec, R, P, Y); }, cfg.repeats);
  linalg::spmm(exec, R, P, Y2);
  add("spmesh spmm k=3", ours, same_bits(Y.data, Y2.data) ? "bit-identical rerun" : "RERUN DIFFERS");

  // cuSPARSE: three SpMVs on SoA data.
  std::vector<linalg::DeviceArray<float>> x, y;
  for (int c = 0; c < 3; ++c) x.push_back(column(exec, P.data, c, m)), y.emplace_back(n);
  {
    std::vector<std::unique_ptr<cusparse::SpMV<float>>> ops;
    for (int c = 0; c < 3; ++c)
      ops.push_back(std::make_unique<cusparse::SpMV<float>>(h, R, x[c].data(), y[c].data(), CUSPARSE_SPMV_CSR_ALG1));
    const Timed t = time_gpu(exec.stream(), [&] { for (auto& op : ops) op->run(); }, cfg.repeats);
    double diff = 0;
    for (int c = 0; c < 3; ++c) diff = std::max(diff, max_rel_diff(column(exec, Y.data, c, n), y[c]));
    add("cuSPARSE 3x SpMV ALG1 (SoA)", t, "max rel diff to spmesh " + std::to_string(diff));
  }
  struct Variant { const char* label; cusparseOrder_t order; cusparseSpMMAlg_t alg; };
  for (const Variant& v : {Variant{"cuSPARSE SpMM row-major ALG1", CUSPARSE_ORDER_ROW, CUSPARSE_SPMM_CSR_ALG1},
                           Variant{"cuSPARSE SpMM row-major ALG2", CUSPARSE_ORDER_ROW, CUSPARSE_SPMM_CSR_ALG2},
                           Variant{"cuSPARSE SpMM row-major ALG3", CUSPARSE_ORDER_ROW, CUSPARSE_SPMM_CSR_ALG3},
                           Variant{"cuSPARSE SpMM col-major ALG1", CUSPARSE_ORDER_COL, CUSPARSE_SPMM_CSR_ALG1},
                           Variant{"cuSPARSE SpMM col-major ALG2", CUSPARSE_ORDER_COL, CUSPARSE_SPMM_CSR_ALG2},
                           Variant{"cuSPARSE SpMM col-major ALG3", CUSPARSE_ORDER_COL, CUSPARSE_SPMM_CSR_ALG3}}) {
    try {
      linalg::Dense<float, Device> Yc(n, 3);
      cusparse::SpMM<float> op(h, R, 3, P.data.data(), Yc.data.data(), v.order, v.alg);
      add(v.label, time_gpu(exec.stream(), [&] { op.run(); }, cfg.repeats));
    } catch (const Error& e) {
      rows.push_back({"xyz P'=RP", name, v.label, n, m, R.nnz(), 0, floor, 0, 0, std::string("unsupported: ") + e.what()});
    }
  }
  // Eigen on the host, same product.
  using EigenCsr = Eigen::SparseMatrix<float, Eigen::RowMajor, index_t>;
  const EigenCsr Re(linalg::eigen_view(R_host));
  const Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, 3, Eigen::RowMajor>> Pe(P_host.data(), m, 3);
  Eigen::Matrix<float, Eigen::Dynamic, 3, Eigen::RowMajor> Ye(n, 3);
  const double eigen = host_ms([&] { Ye.noalias() = Re * Pe; }, 5);
  rows.push_back({"xyz P'=RP", name, "Eigen (host CPU)", n, m, R.nnz(), eigen, floor, 0, 0, ""});
  (void)copy;
}

// y = A x, one vector: spmesh vs cuSPARSE ALG1 and the deterministic ALG2.
void single_spmv(cuda::Executor& exec, cusparseHandle_t h, const linalg::Csr<float>& R_host,
                 const char* name, const Config& cfg, std::vector<Row>& rows) {
  const auto R = cuda::to_device(R_host);
  const index_t n = R.rows, m = R.cols;
  const double floor = 8.0 * R.nnz() + 4.0 * (n + 1) + 4.0 * n + 4.0 * m;
  const auto x = cuda::to_device(random_values<float>(m, 9));
  linalg::DeviceArray<float> y(n), y2(n);
  const Timed ours = time_gpu(exec.stream(), [&] { linalg::spmv(exec, R, x, y); }, cfg.repeats);
  linalg::spmv(exec, R, x, y2);
  rows.push_back({"spmv", name, "spmesh spmv", n, m, R.nnz(), ours.ms, floor, ours.peak_mib, 0,
                  same_bits(y, y2) ? "bit-identical rerun" : "RERUN DIFFERS"});
  for (auto [label, alg] : {std::pair{"cuSPARSE SpMV ALG1", CUSPARSE_SPMV_CSR_ALG1},
                            std::pair{"cuSPARSE SpMV ALG2 (deterministic)", CUSPARSE_SPMV_CSR_ALG2}}) {
    linalg::DeviceArray<float> yc(n);
    cusparse::SpMV<float> op(h, R, x.data(), yc.data(), alg);
    const Timed t = time_gpu(exec.stream(), [&] { op.run(); }, cfg.repeats);
    rows.push_back({"spmv", name, label, n, m, R.nnz(), t.ms, floor, t.peak_mib, 0,
                    "max rel diff to spmesh " + std::to_string(max_rel_diff(yc, y))});
  }
  const Eigen::SparseMatrix<float, Eigen::RowMajor, index_t> Re(linalg::eigen_view(R_host));
  const auto x_host = random_values<float>(m, 9);
  const Eigen::Map<const Eigen::VectorXf> xe(x_host.data(), m);
  Eigen::VectorXf ye(n);
  const double eigen = host_ms([&] { ye.noalias() = Re * xe; }, 5);
  rows.push_back({"spmv", name, "Eigen (host CPU)", n, m, R.nnz(), eigen, floor, 0, 0, ""});
}

// Every collision counts 1: with Circulant{1, -1} this is the edge matrix E of Eq. 8.
struct CountCollisions {
  SPMESH_HD float operator()(const linalg::Collision&) const { return 1.0f; }
};

// E = M M^T: spmesh's implicit mapped product vs cuSPARSE forming M (csr2csc of M^T's CSR,
// which is M's face table) and multiplying M * M^T with SpGEMM.
void mesh_mmt(cuda::Executor& exec, cusparseHandle_t h, const linalg::ReducedMeshMatrix<>& M_host,
              const char* name, const Config& cfg, std::vector<Row>& rows) {
  const auto M = cuda::to_device(M_host);
  const index_t F = M.faces, V = M.vertices, c = M.order;
  // M^T in CSR = M in CSC: offsets c*f, the face table, values 1.
  linalg::Array<index_t> offs(F + 1);
  for (index_t f = 0; f <= F; ++f) offs[f] = c * f;
  const DCsr<float> Mt(F, V, cuda::to_device(offs), cuda::to_device(M_host.indices.clone()),
                       cuda::to_device(linalg::Array<float>(F * c, 1.0f)));
  index_t nnz_ours = 0, nnz_cusparse = 0;
  const Timed ours = time_gpu(exec.stream(), [&] {
    nnz_ours = linalg::mmt(exec, M, linalg::Circulant{1, -1}, CountCollisions{}).nnz();
  }, cfg.slow_repeats());
  const Timed full = time_gpu(exec.stream(), [&] {
    linalg::mmt(exec, M, linalg::Circulant{0, 1, 2, 3}, CountCollisions{});
  }, cfg.slow_repeats());
  const Timed theirs = time_gpu(exec.stream(), [&] {
    const auto Mcsr = cusparse::transpose(h, Mt);
    nnz_cusparse = cusparse::spgemm(h, Mcsr, Mt).nnz();
  }, cfg.slow_repeats());
  const double floor = 4.0 * F * c + 4.0 * (V + 1) + 8.0 * nnz_ours;
  rows.push_back({"M M^T", name, "spmesh mmt {Q+Q^(c-1)} (edges E, Eq. 8)", V, F, F * c, ours.ms, floor, ours.peak_mib, 0,
                  "nnz " + std::to_string(nnz_ours)});
  rows.push_back({"M M^T", name, "spmesh mmt {Q^0..Q^3} (full product)", V, F, F * c, full.ms, floor, full.peak_mib, 0, ""});
  rows.push_back({"M M^T", name, "cuSPARSE csr2csc + SpGEMM M*M^T", V, F, F * c, theirs.ms, floor, theirs.peak_mib, 0,
                  "nnz " + std::to_string(nnz_cusparse) + " (full product)"});
  // Eigen on the host: M (V x F, ones) times its transpose, one thread.
  std::vector<Eigen::Triplet<float, index_t>> ones;
  for (index_t f = 0; f < F; ++f)
    for (index_t s = 0; s < c; ++s) ones.emplace_back(M_host.indices[f * c + s], f, 1.0f);
  Eigen::SparseMatrix<float, Eigen::ColMajor, index_t> Me(V, F);
  Me.setFromTriplets(ones.begin(), ones.end());
  const double eigen = host_ms([&] {
    const Eigen::SparseMatrix<float, Eigen::ColMajor, index_t> P = Me * Me.transpose();
  }, 2);
  rows.push_back({"M M^T", name, "Eigen M*M^T (host CPU)", V, F, F * c, eigen, floor, 0, 0, "full product"});
}

// C = A A for the Loop vertex stencil: spmesh spgemm vs cuSPARSE SpGEMM, all phases.
void general_spgemm(cuda::Executor& exec, cusparseHandle_t h, const linalg::Csr<float>& A_host,
                    const char* name, const Config& cfg, std::vector<Row>& rows) {
  const auto A = cuda::to_device(A_host);
  index_t nnz_ours = 0, nnz_theirs = 0;
  const int reps = cfg.slow_repeats();
  const Timed ours = time_gpu(exec.stream(), [&] { nnz_ours = linalg::spgemm(exec, A, A).nnz(); }, reps);
  const Timed theirs = time_gpu(exec.stream(), [&] { nnz_theirs = cusparse::spgemm(h, A, A).nnz(); }, reps);
  auto C = linalg::spgemm(exec, A, A);
  auto C2 = cusparse::spgemm(h, A, A);
  const double floor = 4.0 * (A.rows + 1) + 8.0 * A.nnz() + 4.0 * (A.rows + 1) + 8.0 * nnz_ours;
  const std::string check = nnz_ours == nnz_theirs ? "values max rel diff " + std::to_string(max_rel_diff(C.values, C2.values))
                                                   : "NNZ DIFFERS";
  rows.push_back({"spgemm A*A", name, "spmesh spgemm", A.rows, A.cols, A.nnz(), ours.ms, floor, ours.peak_mib, 0, check});
  rows.push_back({"spgemm A*A", name, "cuSPARSE SpGEMM ALG default", A.rows, A.cols, A.nnz(), theirs.ms, floor, theirs.peak_mib, 0,
                  "nnz " + std::to_string(nnz_theirs)});
  const Eigen::SparseMatrix<float, Eigen::RowMajor, index_t> Ae(linalg::eigen_view(A_host));
  const double eigen = host_ms([&] {
    const Eigen::SparseMatrix<float, Eigen::RowMajor, index_t> P = Ae * Ae;
  }, 2);
  rows.push_back({"spgemm A*A", name, "Eigen A*A (host CPU)", A.rows, A.cols, A.nnz(), eigen, floor, 0, 0, ""});
}

int run(int argc, char** argv) {
  Config cfg;
  for (int a = 1; a + 1 < argc; a += 2) {
    const std::string flag = argv[a], v = argv[a + 1];
    if (flag == "--grid") cfg.grid = std::stoi(v);
    else if (flag == "--quad-grid") cfg.quad_grid = std::stoi(v);
    else if (flag == "--spgemm-grid") cfg.spgemm_grid = std::stoi(v);
    else if (flag == "--repeats") cfg.repeats = std::stoi(v);
    else if (flag == "--ops") cfg.ops = v;
    else if (flag == "--json") cfg.json = v;
    else throw Error("unknown option " + flag + " (options: --grid --quad-grid --spgemm-grid --repeats --ops --json)");
  }
  if (!cuda::device_available()) {
    std::puts("spmesh_bench_cuda: no CUDA device, nothing to measure");
    return 0;
  }
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  cuda::Executor exec;
  cpu::Executor host;
  cusparse::Handle h(exec.stream());
  const double copy = copy_gbs(exec.stream());
  std::printf("GPU %s, device-to-device copy %.0f GB/s (read + write)\n", prop.name, copy);

  std::vector<Row> rows;
  {
    const auto mesh = make_torus(cfg.grid, 0.02, 1);
    if (cfg.runs("xyz") || cfg.runs("spmv")) {
      const auto R = cast_values<float>(loop_refinement(host, mesh));
      const auto Rp = cast_values<float>(random_permuted(host, loop_refinement(host, mesh), 2));
      if (cfg.runs("xyz")) xyz_product(exec, h, R, "Loop-like R (mesh order)", cfg, copy, rows);
      if (cfg.runs("xyz")) xyz_product(exec, h, Rp, "Loop-like R (random order)", cfg, copy, rows);
      if (cfg.runs("spmv")) single_spmv(exec, h, R, "Loop-like R (mesh order)", cfg, rows);
    }
    if (cfg.runs("mmt")) mesh_mmt(exec, h, mesh_matrix(mesh), "triangle torus M", cfg, rows);
  }
  {
    if (cfg.runs("xyz")) xyz_product(exec, h, catmull_clark_like(host, cfg.quad_grid), "Catmull-Clark-like R", cfg, copy, rows);
    if (cfg.runs("mmt")) mesh_mmt(exec, h, quad_torus(cfg.quad_grid), "quad torus M", cfg, rows);
  }
  {
    const auto mesh = make_torus(cfg.spgemm_grid, 0.02, 1);
    if (cfg.runs("spgemm")) general_spgemm(exec, h, cast_values<float>(loop_smoothing(host, mesh)), "Loop stencil S", cfg, rows);
  }

  // Ratios to the best cuSPARSE route of the same op and matrix.
  for (Row& r : rows) {
    double best = 0;
    for (const Row& o : rows)
      if (o.op == r.op && o.matrix == r.matrix && o.impl.rfind("cuSPARSE", 0) == 0 && o.ms > 0)
        best = best == 0 ? o.ms : std::min(best, o.ms);
    r.vs_cusparse = r.ms > 0 && best > 0 ? best / r.ms : 0;
  }
  std::printf("\n%-10s %-28s %-42s %10s %8s %8s %7s %8s %9s  %s\n", "op", "matrix", "implementation", "rows",
              "ms", "GB/s", "%copy", "xcuSP", "peak MiB", "note");
  for (const Row& r : rows) {
    const double gbs = r.ms > 0 ? r.floor_bytes / (r.ms * 1e6) : 0;
    std::printf("%-10s %-28s %-42s %10lld %8.3f %8.0f %6.1f%% %8.2f %9.1f  %s\n", r.op.c_str(), r.matrix.c_str(),
                r.impl.c_str(), (long long)r.rows, r.ms, gbs, 100 * gbs / copy, r.vs_cusparse, r.peak_mib, r.note.c_str());
  }
  if (!cfg.json.empty()) {
    std::ofstream out(cfg.json);
    out << "{\n  \"gpu\": \"" << prop.name << "\",\n  \"copy_gbs\": " << copy << ",\n  \"results\": [\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      out << "    {\"op\": \"" << r.op << "\", \"matrix\": \"" << r.matrix << "\", \"impl\": \"" << r.impl
          << "\", \"rows\": " << r.rows << ", \"cols\": " << r.cols << ", \"nnz\": " << r.nnz << ", \"ms\": " << r.ms
          << ", \"floor_bytes\": " << r.floor_bytes << ", \"vs_cusparse\": " << r.vs_cusparse
          << ", \"peak_mib\": " << r.peak_mib << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
  }
  return 0;
}

}  // namespace spmesh::bench

int main(int argc, char** argv) {
  try {
    return spmesh::bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spmesh_bench_cuda: %s\n", e.what());
    return 1;
  }
}
