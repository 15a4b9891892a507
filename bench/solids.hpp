// What spmesh_bench_solids' two translation units share: bench/solids.cpp (the command line and
// the CPU's rows, compiled by the host compiler as a CPU user's program is; compiled by nvcc the
// library's CPU loops run slower, through its __host__ __device__ lambdas' wrappers:
// bench/RESULTS.md, "Machines and commands") and cuda/solids.cu (the GPU's rows, nvcc, in a CUDA
// build with SPMESH_BENCH_GPU defined). The measurements are written once, for any
// executor.
#pragma once

#include "schemes/refinement_file.hpp"
#include "solids/medit.hpp"
#include "solids/plan.hpp"
#include "solids/refinement.hpp"
#include "solids/size_estimate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

namespace spmesh::bench {

using solids::CellMesh;

inline double time_ms(const std::function<void()>& f) {
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
inline linalg::Dense<float> float_points(const solids::VolumeMesh& mesh) {
  linalg::Dense<float> points(mesh.positions.rows, 3);
  for (index_t i = 0; i < points.data.size(); ++i) points.data[i] = float(mesh.positions.data[i]);
  return points;
}

// The bytes of the level's operators, ternary (offsets and signed columns) and as a CSR with values.
inline std::pair<std::int64_t, std::int64_t> incidence_bytes(const solids::SolidCounts& c) {
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

// The GPU's rows (cuda/solids.cu), on one executor kept for the run: its device-to-device copy
// rate (GB/s); measure() of one mesh and level, the free device memory bounding R; phases() and
// profile().
double gpu_copy_gbs();
Row measure_on_gpu(const solids::VolumeMesh& mesh, const std::vector<solids::SolidCounts>& counts, int level,
                   double copy_gbs);
void phases_on_gpu(const solids::VolumeMesh& mesh, int level);
void profile_on_gpu(const solids::VolumeMesh& mesh, int level);

}  // namespace spmesh::bench
