// spmesh_bench_solids: Catmull-Clark solids (solids/plan.hpp) level by level on the CPU and,
// compiled by nvcc (cuda/solids.cu), on the GPU. For each mesh and level: dynamic
// (build_and_eval), build, eval, the deepest level's eval alone against its bytes floor (the
// parent's points read, the child's written, the parent's operators and transposes read once, at
// the device's copy rate), the peak GPU memory of dynamic, and the bytes per output hexahedron of
// the level's operators stored ternary against a plain CSR of the same incidences (a 4-byte
// column and a 4-byte value an entry); then composing R (solids/refinement.hpp, encoded as a
// stencil table, where solids::refinement_bytes fits the device's free memory) and replaying it
// (P_L = R P_0) against its bytes floor (R's columns, row offsets and shifts, the input read and
// the output written), with R's entries per row and replay's largest difference from eval.
// Positions in float.
//   spmesh_bench_solids [--json FILE] [--cpu-max-level L] [--cpu-compose-max-level L] MESH.mesh:LEVELS ...
// (R is composed on the CPU up to --cpu-compose-max-level, default 3.)
//   spmesh_bench_solids --profile MESH.mesh:LEVEL ...
// runs one build and one eval of each mesh to its level (on the GPU where compiled for it),
// untimed: for a profiler such as Nsight Compute, which tells the kernels apart by their names
// (build's, then eval's four a level).
//   spmesh_bench_solids --phases MESH.mesh:LEVEL ...
// times each step of build_and_eval alone (waiting after each) with the GPU launches and host
// waits it makes, then the whole unbroken: where the dynamic path's time goes at small levels.
// Times are medians of at least 3 runs (one run past a third of 3 s).
#include "linalg/cpu/executor.hpp"
#include "solids/medit.hpp"
#include "schemes/refinement_file.hpp"
#include "solids/plan.hpp"
#include "solids/refinement.hpp"
#include "solids/size_estimate.hpp"
#if defined(__CUDACC__)
#include "linalg/cuda/executor.cuh"
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <tuple>
#include <variant>
#include <string>
#include <vector>

namespace spmesh::bench {

namespace {

using solids::CellMesh;

double time_ms(const std::function<void()>& f) {
  std::vector<double> ms;
  double total = 0;
  while (ms.size() < 3 || (total < 3000 && ms.size() < 20)) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    total += ms.back();
    if (ms.size() == 1 && ms[0] > 1000) break;
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

struct Row {
  std::string mesh, device;
  int level = 0;
  std::int64_t cells = 0, vertices = 0;
  double upload = 0, dynamic = 0, build = 0, eval = 0, last_eval = 0, floor = 0, peak_mib = 0;
  double ternary_per_hex = 0, csr_per_hex = 0;
  double compose = 0, replay = 0, replay_floor = 0, r_per_row = 0;  // 0: R not composed (does not fit)
  double replay_difference = 0;  // the largest |R P_0 - eval| of a coordinate
  std::int64_t launches = 0, waits = 0;  // of one dynamic run on the GPU
};

// The GPU launches and host waits f makes on `exec` (none counted on the CPU).
template <class Exec, class F>
std::pair<std::int64_t, std::int64_t> launches_and_waits(Exec& exec, F&& f) {
  if constexpr (requires { exec.counts(); }) {
    const auto before = exec.counts();
    f();
    return {exec.counts().launches - before.launches, exec.counts().waits - before.waits};
  } else {
    f();
    return {0, 0};
  }
}

// A copy of `mesh` in its own memory space: the input as the timed runs take it (moved in).
template <class Exec, class S>
CellMesh<S> copy_of(Exec& exec, const CellMesh<S>& mesh) {
  CellMesh<S> copy{mesh.vertices, linalg::Array<index_t, S>(mesh.offsets.size()),
                   linalg::Array<index_t, S>(mesh.indices.size())};
  exec.copy(mesh.offsets.data(), mesh.offsets.size(), copy.offsets.data());
  exec.copy(mesh.indices.data(), mesh.indices.size(), copy.indices.data());
  return copy;
}

// The mesh's cells moved to a memory space by `up`, and its points in float on the host.
template <class Up>
auto cells_by(const Up& up, const solids::VolumeMesh& mesh) {
  using S = typename decltype(up(mesh.cells.offsets))::space;
  return CellMesh<S>{mesh.cells.vertices, up(mesh.cells.offsets), up(mesh.cells.indices)};
}
linalg::Dense<float> float_points(const solids::VolumeMesh& mesh) {
  linalg::Dense<float> points(mesh.positions.rows, 3);
  for (index_t i = 0; i < points.data.size(); ++i) points.data[i] = float(mesh.positions.data[i]);
  return points;
}

// The bytes of the level's operators, ternary (offsets and signed columns) and as a CSR with values.
std::pair<std::int64_t, std::int64_t> incidence_bytes(const solids::SolidCounts& c) {
  const std::int64_t rows = c.edges + c.faces + c.cells + 3, nnz = 2 * c.edges + c.face_sides + c.cell_faces;
  return {4 * rows + 4 * nnz, 4 * rows + 8 * nnz};
}

template <class Exec, class T, class S>
linalg::Dense<T, S> copy_of(Exec& exec, const linalg::Dense<T, S>& X) {
  linalg::Dense<T, S> copy(X.rows, X.cols);
  exec.copy(X.data.data(), X.data.size(), copy.data.data());
  return copy;
}

// One mesh and level on `exec`: `up` moves host arrays to its memory and `down` back, `peak_mib`
// reads (and resets, given true) the most it held.
template <class Exec, class Up, class Down, class Peak>
Row measure(Exec& exec, const Up& up, const Down& down, const Peak& peak_mib, const solids::VolumeMesh& mesh,
            const std::vector<solids::SolidCounts>& counts, int level, double copy_gbs, std::int64_t free_bytes) {
  using S = typename Exec::space;
  const auto host_points = float_points(mesh);
  const auto X = up(host_points);
  auto sync = [&] { exec.synchronize(); };
  Row r;
  r.level = level;
  r.upload = time_ms([&] {
    const auto uploaded = cells_by(up, mesh);
    const auto points = up(host_points);
    sync();
  });
  // The timed runs start from the input in the executor's memory (copied there, as they move it in).
  const auto input = cells_by(up, mesh);
  auto dynamic = [&] { solids::build_and_eval(exec, copy_of(exec, input), copy_of(exec, X), level); sync(); };
  peak_mib(true);
  std::tie(r.launches, r.waits) = launches_and_waits(exec, dynamic);
  r.peak_mib = peak_mib(false);
  r.dynamic = time_ms(dynamic);
  r.build = time_ms([&] { solids::build(exec, copy_of(exec, input), level); sync(); });
  const auto plan = solids::build(exec, copy_of(exec, input), level);
  r.eval = time_ms([&] { solids::eval(exec, plan, X); sync(); });
  // The deepest level alone, from its parent's points.
  const auto& last = plan.parents.back();
  const auto parent_points = solids::eval(exec, solids::build(exec, copy_of(exec, input), level - 1), X);
  r.last_eval = time_ms([&] {
    solids::refine_points(exec, last.cells, last.ops, last.transposed, last.weights, parent_points);
    sync();
  });
  const auto &parent = counts[std::size_t(level) - 1], &child = counts[std::size_t(level)];
  r.cells = child.cells, r.vertices = child.vertices;
  const double operators = 4.0 * (2 * (2 * parent.edges + parent.face_sides + parent.cell_faces) +
                                  2 * (parent.edges + parent.faces + parent.cells) + parent.vertices);
  r.floor = copy_gbs > 0 ? (12.0 * (parent.vertices + child.vertices) + operators) / (copy_gbs * 1e6) : 0;
  const auto [ternary, csr] = incidence_bytes(child);
  r.ternary_per_hex = double(ternary) / double(child.cells), r.csr_per_hex = double(csr) / double(child.cells);

  const std::vector<solids::SolidCounts> composed(counts.begin(), counts.begin() + level + 1);
  if (solids::refinement_bytes(composed, sizeof(float)) > free_bytes) return r;
  std::optional<schemes::RefinementMatrix<float, S>> composed_R;
  try {
    r.compose = time_ms([&] {
      composed_R.reset();
      composed_R = schemes::encode_refinement(exec, solids::refinement_matrix<float>(exec, plan));
      sync();
    });
  } catch (const CapacityError& e) {  // past a 32-bit size: reported as not composed
    std::printf("level %d: R not composed: %s\n", level, e.what());
    r.compose = 0;
    return r;
  }
  const auto& R = *composed_R;
  std::visit(
      [&](const auto& A) {
        linalg::Dense<float, S> P(A.rows, 3);
        r.replay = time_ms([&] {
          linalg::spmm(exec, A, X, P);
          sync();
        });
        r.r_per_row = double(A.nnz()) / double(A.rows);
        const auto replayed = down(P), evaluated = down(solids::eval(exec, plan, X));
        for (index_t i = 0; i < replayed.data.size(); ++i)
          r.replay_difference = std::max(r.replay_difference, double(std::abs(replayed.data[i] - evaluated.data[i])));
        const double bytes = double(sizeof(*A.columns.data())) * A.nnz() + 8.0 * A.rows + 4.0 * A.table.size() +
                             12.0 * (A.cols + A.rows);
        r.replay_floor = copy_gbs > 0 ? bytes / (copy_gbs * 1e6) : 0;
      },
      R);
  return r;
}

void print(const Row& r) {
  std::printf("%-18s %2d %-4s %11lld %8.3f %9.3f %9.3f %9.3f %9.3f %7.1fx %9.1f %6.1f %6.1f %9.3f %9.3f %7.1fx %6.1f "
              "%8.1e %5lld/%lld\n",
              r.mesh.c_str(), r.level, r.device.c_str(), static_cast<long long>(r.cells), r.upload, r.dynamic, r.build,
              r.eval, r.last_eval, r.floor > 0 ? r.last_eval / r.floor : 0.0, r.peak_mib, r.ternary_per_hex,
              r.csr_per_hex, r.compose, r.replay, r.replay_floor > 0 ? r.replay / r.replay_floor : 0.0, r.r_per_row,
              r.replay_difference, static_cast<long long>(r.launches), static_cast<long long>(r.waits));
}

void write_json(const std::string& path, const std::vector<Row>& rows, double copy_gbs) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw Error("cannot write " + path);
  std::fprintf(f, "{\"copy_gbs\": %.1f, \"rows\": [\n", copy_gbs);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    std::fprintf(f,
                 "  {\"mesh\": \"%s\", \"level\": %d, \"device\": \"%s\", \"cells\": %lld, \"vertices\": %lld, "
                 "\"dynamic_ms\": %.4f, \"build_ms\": %.4f, \"eval_ms\": %.4f, \"last_eval_ms\": %.4f, "
                 "\"floor_ms\": %.4f, \"peak_mib\": %.2f, \"ternary_bytes_per_hex\": %.2f, "
                 "\"csr_bytes_per_hex\": %.2f, \"compose_ms\": %.4f, \"replay_ms\": %.4f, "
                 "\"replay_floor_ms\": %.4f, \"r_entries_per_row\": %.2f, \"replay_max_difference\": %.3g, "
                 "\"upload_ms\": %.4f, \"dynamic_launches\": %lld, \"dynamic_waits\": %lld}%s\n",
                 r.mesh.c_str(), r.level, r.device.c_str(), static_cast<long long>(r.cells),
                 static_cast<long long>(r.vertices), r.dynamic, r.build, r.eval, r.last_eval, r.floor, r.peak_mib,
                 r.ternary_per_hex, r.csr_per_hex, r.compose, r.replay, r.replay_floor, r.r_per_row,
                 r.replay_difference, r.upload, static_cast<long long>(r.launches), static_cast<long long>(r.waits),
                 i + 1 < rows.size() ? "," : "");
  }
  std::fprintf(f, "]}\n");
  std::fclose(f);
}

// One build and one eval of `mesh` to `level` on `exec`, for a profiler.
template <class Exec, class Up>
void profile(Exec& exec, const Up& up, const solids::VolumeMesh& mesh, int level) {
  const auto P = solids::eval(exec, solids::build(exec, cells_by(up, mesh), level), up(float_points(mesh)));
  exec.synchronize();
  std::printf("profiled: %lld refined vertices\n", static_cast<long long>(P.rows));
}

// Each step of build_and_eval of `mesh` to `level` on `exec` alone (waiting after it), with its
// launches and waits, then the whole run unbroken.
template <class Exec, class Up>
void phases(Exec& exec, const Up& up, const solids::VolumeMesh& mesh, int level) {
  using S = typename Exec::space;
  const auto input = cells_by(up, mesh);
  const auto X = up(float_points(mesh));
  double total = 0;
  std::int64_t total_launches = 0, total_waits = 0;
  std::printf("%-30s %9s %8s %6s\n", "step", "ms", "launches", "waits");
  // Times f, then runs it once more, counted, for the result the next steps read.
  auto step = [&](const std::string& name, auto&& f) {
    const double ms = time_ms([&] {
      f();
      exec.synchronize();
    });
    std::optional<decltype(f())> kept;
    const auto [launches, waits] = launches_and_waits(exec, [&] { kept.emplace(f()); });
    exec.synchronize();
    std::printf("%-30s %9.3f %8lld %6lld\n", name.c_str(), ms, static_cast<long long>(launches),
                static_cast<long long>(waits));
    total += ms, total_launches += launches, total_waits += waits;
    return std::move(*kept);
  };
  auto cells = step("input: copy", [&] { return copy_of(exec, input); });
  auto input_topology = step("input: boundary_operators", [&] {
    solids::Transposes<S> transposed;
    auto ops = solids::boundary_operators(exec, cells, &transposed);
    return std::make_pair(std::move(ops), std::move(transposed));
  });
  auto ops = std::move(input_topology.first);
  auto transposed = std::move(input_topology.second);
  auto points = step("input: points copy", [&] { return copy_of(exec, X); });
  for (int l = 1; l <= level; ++l) {
    const std::string at = "L" + std::to_string(l) + ": ";
    auto children = step(at + "refined_cells", [&] { return solids::refined_cells(exec, cells, ops); });
    auto weights = step(at + "level_weights", [&] { return solids::level_weights(exec, ops, transposed, {}); });
    points = step(at + "refine_points",
                  [&] { return solids::refine_points(exec, cells, ops, transposed, weights, points); });
    if (l == level) break;
    auto next = step(at + "refined_operators", [&] { return solids::refined_operators(exec, cells, ops, transposed); });
    transposed = step(at + "refined_transposes",
                      [&] { return solids::refined_transposes(exec, cells, ops, transposed); });
    ops = std::move(next), cells = std::move(children);
  }
  std::printf("%-30s %9.3f %8lld %6lld\n", "sum of the steps", total, static_cast<long long>(total_launches),
              static_cast<long long>(total_waits));
  auto dynamic = [&] {
    solids::build_and_eval(exec, copy_of(exec, input), copy_of(exec, X), level);
    exec.synchronize();
  };
  const auto [launches, waits] = launches_and_waits(exec, dynamic);
  std::printf("%-30s %9.3f %8lld %6lld\n", "build_and_eval, unbroken", time_ms(dynamic),
              static_cast<long long>(launches), static_cast<long long>(waits));
}

int run(int argc, char** argv) {
  std::string json;
  int cpu_max = 3, cpu_compose_max = 3;
  bool profile_only = false, phases_only = false;
  std::vector<std::pair<std::string, int>> meshes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json" && i + 1 < argc) json = argv[++i];
    else if (a == "--cpu-max-level" && i + 1 < argc) cpu_max = std::stoi(argv[++i]);
    else if (a == "--cpu-compose-max-level" && i + 1 < argc) cpu_compose_max = std::stoi(argv[++i]);
    else if (a == "--profile") profile_only = true;
    else if (a == "--phases") phases_only = true;
    else if (const auto colon = a.rfind(':'); colon != std::string::npos)
      meshes.emplace_back(a.substr(0, colon), std::stoi(a.substr(colon + 1)));
    else throw Error("usage: spmesh_bench_solids [--json FILE] [--cpu-max-level L] [--cpu-compose-max-level L] "
                     "MESH.mesh:LEVELS ... | --profile MESH.mesh:LEVEL ... |\n  [--cpu-max-level L] --phases MESH.mesh:LEVEL ...");
  }
  linalg::cpu::Executor cpu;
  if (profile_only || phases_only) {
    for (const auto& [path, level] : meshes) {
      const auto mesh = solids::read_medit(path);
#if defined(__CUDACC__)
      linalg::cuda::Executor gpu;
      auto up = [](const auto& x) { return linalg::cuda::to_device(x); };
      if (phases_only) std::printf("%s to level %d, GPU\n", path.c_str(), level), phases(gpu, up, mesh, level);
      else profile(gpu, up, mesh, level);
#endif
      auto copy = [](const auto& x) { return x.clone(); };
      if (phases_only && level <= cpu_max)
        std::printf("%s to level %d, CPU\n", path.c_str(), level), phases(cpu, copy, mesh, level);
#if !defined(__CUDACC__)
      else profile(cpu, copy, mesh, level);
#endif
    }
    return 0;
  }
  double copy_gbs = 0;
#if defined(__CUDACC__)
  linalg::cuda::Executor gpu;
  {
    const index_t n = 1 << 28;
    linalg::DeviceArray<float> a(n), b(n);
    linalg::cuda::check(cudaMemset(a.data(), 0, sizeof(float) * n), "cudaMemset");
    const double ms = time_ms([&] {
      linalg::cuda::check(cudaMemcpy(b.data(), a.data(), sizeof(float) * n, cudaMemcpyDeviceToDevice), "cudaMemcpy");
      linalg::cuda::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    });
    copy_gbs = 2.0 * sizeof(float) * n / (ms * 1e6);
  }
  std::printf("device-to-device copy %.0f GB/s; ", copy_gbs);
#endif
  std::printf("CPU threads %d\n", cpu.threads());
  std::printf("%-18s %2s %-4s %11s %8s %9s %9s %9s %9s %8s %9s %6s %6s %9s %9s %8s %6s %8s %s  (ms; upload: the "
              "input to the executor, outside the other times; xfloor: the last level's eval, then replay, over its "
              "bytes floor; B/hex: operators, ternary and CSR; R/row: R's entries a row; |R-eval|: replay's largest "
              "difference from eval; launch/wait: dynamic's GPU launches and host waits)\n",
              "mesh", "L", "dev", "cells", "upload", "dynamic", "build", "eval", "last", "xfloor", "peakMiB", "tern",
              "csr", "compose", "replay", "xfloor", "R/row", "|R-eval|", "launch/wait");
  std::vector<Row> rows;
  for (const auto& [path, levels] : meshes) {
    const auto mesh = solids::read_medit(path);
    const std::string name = path.substr(path.find_last_of('/') + 1);
    const auto counts = solids::solid_levels(solids::boundary_operators(cpu, mesh.cells), mesh.cells.indices.size(), levels);
    for (int level = 1; level <= levels; ++level) {
#if defined(__CUDACC__)
      auto up = [](const auto& x) { return linalg::cuda::to_device(x); };
      auto peak = [](bool reset) {
        if (reset) linalg::Device::reset_peak();
        return double(linalg::Device::peak_bytes()) / 1048576.0;
      };
      std::size_t free_bytes = 0, total_bytes = 0;
      linalg::cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
      auto down = [](const auto& x) { return linalg::cuda::to_host(x); };
      rows.push_back(measure(gpu, up, down, peak, mesh, counts, level, copy_gbs, std::int64_t(free_bytes)));
      rows.back().mesh = name, rows.back().device = "cuda";
      print(rows.back());
#endif
      if (level > cpu_max) continue;
      auto copy = [](const auto& x) { return x.clone(); };
      auto none = [](bool) { return 0.0; };
      rows.push_back(measure(cpu, copy, copy, none, mesh, counts, level, 0,
                             level <= cpu_compose_max ? std::numeric_limits<std::int64_t>::max() : 0));
      rows.back().mesh = name, rows.back().device = "cpu";
      print(rows.back());
    }
  }
  if (!json.empty()) write_json(json, rows, copy_gbs);
  return 0;
}

}  // namespace

}  // namespace spmesh::bench

int main(int argc, char** argv) {
  try {
    return spmesh::bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spmesh_bench_solids: %s\n", e.what());
    return 1;
  }
}
