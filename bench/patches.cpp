// spmesh_bench_patches: tensor-product Bezier surfaces in seed 001's setting (400 x 400 points a
// surface; bicubic to degree 15, 4 x 4 to 16 x 16 control points; float and double) on the CPU
// and, compiled by nvcc (cuda/patches.cu), the GPU. For one surface (seed 001's case) and a
// batch of surfaces:
//   level 1   evaluate with levels 2 and 3 kept (GridEvaluator: seed 001's case A, control
//             points that move);
//   levels 2+1  the basis remade, then evaluate (case B, a new resolution);
//   direct    every point sums its whole control net with its basis computed on the spot
//             (seed 001's "BRF", the reference its speedups are measured against);
//   floor     the points written and the control nets read once, at the memory's rate.
// With the GPU, then seed 001's CPU-GPU cooperation (split.hpp), the points wanted in host memory:
// the GPU alone (its evaluation read back), fixed shares of the groups on the host's cores, and
// the dynamic distribution, with the share it gave the host.
// Times are medians (at least 3 runs, more up to 2 s), the executor synchronised in each.
//   spmesh_bench_patches [--json FILE] [--samples N] [--batch B] [--cpu-batch B]
#include "bench/rates.hpp"
#include "linalg/cpu/executor.hpp"
#include "schemes/patches/split.hpp"
#if defined(__CUDACC__)
#include "linalg/cuda/executor.cuh"
#endif

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace spmesh::bench {

namespace {

using schemes::patches::Basis;
using schemes::patches::Grid;

// Seed 001's BRF: each point's basis made on the spot, its whole net summed.
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> direct(Exec& exec, int degree, const linalg::Array<double, S>& binomials, index_t samples,
                           index_t patches, const linalg::Dense<T, S>& X) {
  const index_t per_patch = samples * samples, width = degree + 1;
  linalg::Dense<T, S> out(patches * per_patch, X.cols);
  const T* x = X.data.data();
  T* y = out.data.data();
  const double* table = binomials.data();
  exec.for_each(out.rows, [=] SPMESH_HD(index_t row) {
    const index_t patch = row / per_patch, s = row % per_patch / samples, t = row % samples;
    T u[schemes::patches::max_degree + 1], v[schemes::patches::max_degree + 1];
    schemes::patches::basis_functions(Basis::bernstein, degree, table, T(double(s) / double(samples - 1)), u);
    schemes::patches::basis_functions(Basis::bernstein, degree, table, T(double(t) / double(samples - 1)), v);
    T sum[3] = {};
    const T* net = x + patch * width * width * 3;
    for (index_t a = 0; a < width; ++a)
      for (index_t b = 0; b < width; ++b)
        for (int c = 0; c < 3; ++c) sum[c] += u[a] * v[b] * net[(a * width + b) * 3 + c];
    for (int c = 0; c < 3; ++c) y[row * 3 + c] = sum[c];
  });
  return out;
}

struct Row {
  std::string device, type;
  int degree = 0;
  index_t surfaces = 0, points = 0;
  double level1 = 0, levels21 = 0, brute = 0, floor = 0;
  double difference = 0;  // the largest |level 1 - direct| of a coordinate
};

template <class T, class Exec, class Up, class Down>
Row measure(Exec& exec, Up up, Down down, const char* device, int degree, index_t samples, index_t surfaces,
            double gbs) {
  using S = typename Exec::space;
  const index_t width = degree + 1;
  linalg::Dense<T> host(surfaces * width * width, 3);
  std::mt19937 rng{unsigned(degree)};
  std::uniform_real_distribution<double> coordinate(-1, 1);
  for (T& x : host.data) x = T(coordinate(rng));
  const auto X = up(host);
  const Grid grid{Basis::bernstein, degree, samples};
  schemes::patches::GridEvaluator<T, S> kept;
  Row r{device, sizeof(T) == 4 ? "float" : "double", degree, surfaces, surfaces * samples * samples};
  r.level1 = time_ms([&] {
    kept.evaluate(exec, {grid, grid}, surfaces, X);
    exec.synchronize();
  });
  const auto binomials = schemes::patches::binomials(exec, degree);
  r.levels21 = time_ms([&] {
    const auto at = schemes::patches::uniform_samples<Exec, T>(exec, samples);
    const auto basis = schemes::patches::sample_basis(exec, Basis::bernstein, degree, binomials, at);
    schemes::patches::evaluate(exec, {&basis, &basis}, surfaces, X);
    exec.synchronize();
  });
  r.brute = time_ms([&] {
    direct(exec, degree, binomials, samples, surfaces, X);
    exec.synchronize();
  });
  const auto a = down(kept.evaluate(exec, {grid, grid}, surfaces, X)),
             b = down(direct(exec, degree, binomials, samples, surfaces, X));
  for (index_t i = 0; i < a.data.size(); ++i)
    r.difference = std::max(r.difference, double(std::abs(a.data[i] - b.data[i])));
  r.floor = gbs > 0 ? double(sizeof(T)) * 3 * double(r.points + host.rows) / (gbs * 1e6) : 0;
  return r;
}

#if defined(__CUDACC__)
// Seed 001's CPU-GPU cooperation for one setting: the GPU alone with its points read back, fixed
// host shares, dynamic.
template <class T>
void measure_split(linalg::cpu::Executor& cpu, linalg::cuda::Executor& gpu, int degree, index_t samples,
                   index_t surfaces) {
  using schemes::patches::Distribution;
  const index_t width = degree + 1;
  linalg::Dense<T> X(surfaces * width * width, 3);
  std::mt19937 rng{unsigned(degree)};
  std::uniform_real_distribution<double> coordinate(-1, 1);
  for (T& x : X.data) x = T(coordinate(rng));
  const auto X_device = linalg::cuda::to_device(X);
  const Grid grid{Basis::bernstein, degree, samples};
  schemes::patches::GridEvaluator<T, linalg::Device> alone;
  const double gpu_alone = time_ms([&] { linalg::cuda::to_host(alone.evaluate(gpu, {grid, grid}, surfaces, X_device)); });
  schemes::patches::SplitEvaluator<T, linalg::Device> split;
  std::printf("split  %-6s %2d %5lld  gpu+read %8.4f |", sizeof(T) == 4 ? "float" : "double", degree,
              static_cast<long long>(surfaces), gpu_alone);
  for (double share : {0.01, 0.02, 0.05, 0.1, 0.2})
    std::printf(" %4.2f: %8.4f", share, time_ms([&] {
                  split.evaluate(cpu, gpu, {grid, grid}, surfaces, X, X_device, {Distribution::fixed, share});
                }));
  const double dynamic = time_ms([&] {
    split.evaluate(cpu, gpu, {grid, grid}, surfaces, X, X_device, {Distribution::dynamic});
  });
  const auto taken = split.taken();
  std::printf(" | dynamic %8.4f (host %.3f of the groups)\n", dynamic,
              double(taken.host) / double(std::max<index_t>(1, taken.host + taken.device)));
  std::fflush(stdout);
}
#endif

void print(const Row& r) {
  std::printf("%-4s %-6s %2d %5lld %11lld %9.4f %9.4f %9.4f %8.4f %6.2f %7.1f %8.0f %9.2g\n", r.device.c_str(),
              r.type.c_str(), r.degree, static_cast<long long>(r.surfaces), static_cast<long long>(r.points), r.level1,
              r.levels21, r.brute, r.floor, r.floor > 0 ? r.level1 / r.floor : 0.0, r.brute / r.level1,
              double(r.points) / (r.level1 * 1e3), r.difference);
  std::fflush(stdout);
}

void write_row(std::FILE* f, const Row& r) {
  std::fprintf(f,
                 "\"device\": \"%s\", \"type\": \"%s\", \"degree\": %d, \"surfaces\": %lld, \"points\": %lld, "
                 "\"level1_ms\": %.5f, \"levels21_ms\": %.5f, \"direct_ms\": %.5f, \"floor_ms\": %.5f, "
                 "\"max_difference\": %.3g",
                 r.device.c_str(), r.type.c_str(), r.degree, static_cast<long long>(r.surfaces),
                 static_cast<long long>(r.points), r.level1, r.levels21, r.brute, r.floor, r.difference);
}

int run(int argc, char** argv) {
  std::string json;
  index_t samples = 400, batch = 256, cpu_batch = 16;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json" && i + 1 < argc) json = argv[++i];
    else if (a == "--samples" && i + 1 < argc) samples = std::stoi(argv[++i]);
    else if (a == "--batch" && i + 1 < argc) batch = std::stoi(argv[++i]);
    else if (a == "--cpu-batch" && i + 1 < argc) cpu_batch = std::stoi(argv[++i]);
    else throw Error("usage: spmesh_bench_patches [--json FILE] [--samples N] [--batch B] [--cpu-batch B]");
  }
  if (samples < 2) throw Error("--samples: at least 2");
  linalg::cpu::Executor cpu;
  std::vector<Row> rows;
  std::vector<double> rates;
  std::printf("%d x %d points a surface, Bezier, xyz\n", int(samples), int(samples));
  std::printf("%-4s %-6s %2s %5s %11s %9s %9s %9s %8s %6s %7s %8s %9s  (ms; xfloor: level 1 over the floor; "
              "direct/L1: seed 001's BRF over level 1; Mpts/s: level 1's; |L1-direct|: the largest difference)\n",
              "dev", "type", "n", "surf", "points", "level1", "levels21", "direct", "floor", "xfloor", "dir/L1",
              "Mpts/s", "|L1-dir|");
  auto sweep = [&](auto& exec, auto up, auto down, const char* device, index_t many) {
    const double gbs = memory_gbs(exec);
    rates.push_back(gbs);
    std::printf("%s: memory rate %.0f GB/s\n", device, gbs);
    for (index_t surfaces : {index_t(1), many})
      for (int degree : {3, 5, 7, 9, 11, 13, 15}) {
        rows.push_back(measure<float>(exec, up, down, device, degree, samples, surfaces, gbs));
        print(rows.back());
        rows.push_back(measure<double>(exec, up, down, device, degree, samples, surfaces, gbs));
        print(rows.back());
      }
  };
#if defined(__CUDACC__)
  linalg::cuda::Executor gpu;
  sweep(gpu, [](const auto& x) { return linalg::cuda::to_device(x); },
        [](const auto& x) { return linalg::cuda::to_host(x); }, "gpu", batch);
  std::printf("CPU-GPU split (ms; the points wanted in host memory; fixed: the host's share of the groups)\n");
  for (index_t surfaces : {index_t(1), batch / 4})
    for (int degree : {3, 15}) {
      measure_split<float>(cpu, gpu, degree, samples, surfaces);
      measure_split<double>(cpu, gpu, degree, samples, surfaces);
    }
#else
  (void)batch;  // GPU rows only
#endif
  std::printf("CPU threads %d\n", cpu.threads());
  auto same = [](const auto& x) { return x.clone(); };
  sweep(cpu, same, same, "cpu", cpu_batch);
  if (!json.empty()) write_json(json, rates, rows, write_row);
  return 0;
}

}  // namespace

}  // namespace spmesh::bench

int main(int argc, char** argv) {
  try {
    return spmesh::bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spmesh_bench_patches: %s\n", e.what());
    return 1;
  }
}
