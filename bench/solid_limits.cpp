// spmesh_bench_solid_limits: the limit of Catmull-Clark solids at samples (solids/limit_at.hpp,
// issue 26) on the CPU and, compiled by nvcc (cuda/solid_limits.cu), the GPU. Models: volume
// meshes and their refinements (MESH.mesh:L, levels 0 to L, refined by solids::refine in double
// on the host) and a generated grid of N^3 hexahedra with perturbed points. For each model:
//   ops, nets  boundary_operators and cell_nets from the cells in the executor's memory (the
//              build a new topology pays), and how many cells are evaluable (have a net: tricubic
//              inside, tricubic at the boundary, layered, irregular: their tables made on the
//              host, within tuning::irregular_table_bytes); the others are not built yet;
// then for each K, K^3 samples a cell at ((i + 0.5) / K, (j + 0.5) / K, (k + 0.5) / K), in the
// cells of each class and in all evaluable cells ("all": the whole model, classes mixed):
//   limit      limit_at_cells: positions and the u, v, w derivatives, on the GPU in float and
//              double, on the CPU (all cores) in double; xcpu: the CPU's time over this row's;
//              kernel: the one the library picks (auto) and, on the GPU in float, each of its
//              kernels forced (solids::LimitKernel: sample, a thread a sample through the nets'
//              indices; gather, the nets made first; pairs, the same, two samples a thread); grid:
//              the same samples as K^3 grids by limit_on_grids (solids/limit_on_grids.hpp: the
//              tricubic cells summed a direction at a time over a cell's grid), in float and
//              double on the GPU and double on the CPU, its bytes floor reading no sample;
//   W build    limit_matrices_at_cells (the four matrices, position, du, dv, dw), where W fits
//              (--w-max-entries, and the GPU's free memory);
//   W replay   the four SpMMs W P (3 columns each) into outputs made once;
//   floors     bytes: the cells' nets (4 bytes an entry, offsets and kind) and the control points
//              they reach read once, each sample's (cell, u, v, w) read and its 4 x 3 values
//              written (replay: each matrix's offsets, columns and values and the points read, its
//              output written); FLOP: 2 x a sample's net entries x 4 outputs x 3 columns (16 fewer
//              a boundary face: the reflected layers have no weight), at the precision's rate (the
//              kernels sum in T, the tricubic ones factorised: 3/4 of these FLOP). The GPU's
//              rates are the user's (--bandwidth-gbs, --fp32-tflops, --fp64-tflops), by default an H200's nominal
//              figures; the CPU's bandwidth is its measured memory rate (rates.hpp), its FLOP
//              rate unknown (no FLOP floor). xB, xF: the time over the floor;
//   |f-d|      float against double at the positions, on the GPU (the CPU without one): the
//              largest coordinate difference and the mean distance (seed 000, 5.4), both over the
//              diagonal of the control points' bounding box.
// Times are medians of at least --repeats runs (more while under --budget-ms in all, at most 50),
// after one warm-up run, the executor synchronised in each.
//   spmesh_bench_solid_limits [--json FILE] [--samples-per-axis K,...] [--grid N] [--repeats R]
//       [--budget-ms B] [--cpu-max-samples N] [--w-max-entries N] [--bandwidth-gbs B]
//       [--fp32-tflops F] [--fp64-tflops F] [MESH.mesh[:L] ...]
// Without meshes: SPMESH_SHARED_DIR's meshes/hex/sphere_allhex.mesh:1 and disc_extrude.mesh:1; a
// mesh file that is not there is skipped, saying so. --grid 0 leaves the grid out (default 47,
// 103,823 hexahedra).
#include "bench/rates.hpp"
#include "linalg/cpu/executor.hpp"
#include "linalg/spmv.hpp"
#include "solids/limit_at.hpp"
#include "solids/limit_on_grids.hpp"
#include "solids/refine.hpp"
#include "solids/volume_io.hpp"
#if defined(__CUDACC__)
#include "linalg/cuda/executor.cuh"
#endif

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#ifndef SPMESH_SHARED_DIR
#define SPMESH_SHARED_DIR "../shared"
#endif

namespace spmesh::bench {

namespace {

struct Options {
  std::string json;
  std::vector<int> per_axis{4, 8};
  int grid = 47, repeats = 3;
  double budget_ms = 2000;
  std::int64_t cpu_max_samples = std::numeric_limits<std::int64_t>::max();
  std::int64_t w_max_entries = std::int64_t(1) << 29;
  double gpu_gbs = 4800, fp32_tflops = 67, fp64_tflops = 34;  // H200 SXM, nominal
  bool gpu_rates_given = false;
};

// A model: a solid's cells and control points at one level.
struct Model {
  std::string name;
  int level = 0;
  solids::CellMesh<> cells;
  linalg::Dense<double> points;
};

double diagonal(const linalg::Dense<double>& P) {
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (index_t v = 0; v < P.rows; ++v)
    for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], P(v, c)), hi[c] = std::max(hi[c], P(v, c));
  return std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
}

// n^3 hexahedra of a unit grid, vertex (i, j, k) = i + (n + 1) (j + (n + 1) k) (as
// tests/solids/generated.hpp numbers them), each point moved by up to 0.2 along each axis.
Model perturbed_grid(int n) {
  const index_t side = n + 1;
  Model m{"grid" + std::to_string(n), 0, {}, linalg::Dense<double>(side * side * side, 3)};
  std::vector<index_t> indices;
  constexpr int corner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  for (index_t k = 0; k < n; ++k)
    for (index_t j = 0; j < n; ++j)
      for (index_t i = 0; i < n; ++i)
        for (const auto& [a, b, c] : corner) indices.push_back(i + a + side * (j + b + side * (k + c)));
  m.cells.vertices = side * side * side;
  m.cells.offsets = linalg::Array<index_t>(index_t(n) * n * n + 1);
  for (index_t c = 0; c < m.cells.offsets.size(); ++c) m.cells.offsets[c] = 8 * c;
  m.cells.indices = linalg::Array<index_t>(indices);
  std::mt19937 random(1);
  std::uniform_real_distribution<double> jitter(-0.2, 0.2);
  for (index_t v = 0; v < m.points.rows; ++v)
    for (index_t x = 0, at = v; x < 3; ++x, at /= side) m.points(v, x) = double(at % side) + jitter(random);
  return m;
}

// The evaluable cells of a class (or "all"), with what the floors count.
struct Group {
  std::string name;
  std::vector<index_t> cells;
  std::int64_t net_entries = 0;  // the cells' net entries, as the kernel reads them (64 in every tricubic cell)
  std::int64_t row_entries = 0;  // a sample's weighted entries summed over the cells (16 fewer a boundary face)
  std::int64_t vertices = 0;     // the distinct control points the nets reach
};

std::vector<Group> groups_of(const solids::CellNets<>& nets, index_t vertices) {
  std::vector<Group> groups(5);
  const std::array names{"inside", "boundary", "layered", "irregular", "all"};
  for (std::size_t g = 0; g < groups.size(); ++g) groups[g].name = names[g];
  std::vector<std::vector<char>> reached(groups.size(), std::vector<char>(std::size_t(vertices), 0));
  for (index_t c = 0; c < nets.kinds.size(); ++c) {
    const std::uint8_t kind = nets.kinds[c];
    if (kind == solids::no_net) continue;
    const std::size_t of_class = kind == solids::inside_net       ? 0
                                 : solids::is_boundary_net(kind)  ? 1
                                 : solids::is_irregular_net(kind) ? 3
                                                                  : 2;
    for (const std::size_t g : {of_class, std::size_t(4)}) {
      const index_t begin = nets.offsets[c], end = nets.offsets[c + 1];
      groups[g].cells.push_back(c);
      groups[g].net_entries += end - begin;
      groups[g].row_entries += solids::is_tricubic_net(kind) ? solids::tricubic_net_entries(kind) : end - begin;
      for (index_t p = begin; p < end; ++p)
        if (const index_t v = nets.points[p]; v >= 0 && !reached[g][std::size_t(v)])
          reached[g][std::size_t(v)] = 1, ++groups[g].vertices;
    }
  }
  std::erase_if(groups, [](const Group& g) { return g.cells.empty(); });
  return groups;
}

// Samples (cells[s], u[s], v[s], w[s]) in a memory space.
template <class S = linalg::Host>
struct Samples {
  linalg::Array<index_t, S> cells;
  linalg::Array<double, S> u, v, w;
};

// K^3 samples in each of the group's cells, cell by cell, u fastest.
Samples<> samples_in(const Group& g, int K) {
  const index_t n = index_t(g.cells.size()) * K * K * K;
  Samples<> s{linalg::Array<index_t>(n), linalg::Array<double>(n), linalg::Array<double>(n), linalg::Array<double>(n)};
  index_t at = 0;
  for (const index_t c : g.cells)
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < K; ++j)
        for (int i = 0; i < K; ++i, ++at)
          s.cells[at] = c, s.u[at] = (i + 0.5) / K, s.v[at] = (j + 0.5) / K, s.w[at] = (k + 0.5) / K;
  return s;
}

// A group's cells and the K parameters (i + 0.5) / K of samples_in's grids, for limit_on_grids.
template <class S = linalg::Host>
struct Grids {
  linalg::Array<index_t, S> cells;
  linalg::Array<double, S> at;
};
Grids<> grids_in(const Group& g, int K) {
  Grids<> out{linalg::Array<index_t>(index_t(g.cells.size())), linalg::Array<double>(K)};
  std::copy(g.cells.begin(), g.cells.end(), out.cells.begin());
  for (int i = 0; i < K; ++i) out.at[i] = (i + 0.5) / K;
  return out;
}

struct Row {
  std::string model, group, device, precision, kernel = "auto";
  int level = 0, per_axis = 0;
  std::int64_t cells = 0, samples = 0, entries = 0;  // entries: W's non-zeros a matrix, the products' terms
  double ops_ms = 0, nets_ms = 0;                    // the model's operators and nets on this device
  double ms = 0, cpu_ms = 0, bytes_floor = 0, flop_floor = 0, floor_gbs = 0, floor_tflops = 0;
  double w_build = 0, w_replay = 0, w_bytes_floor = 0;  // 0: W not built
  double error_max = 0, error_mean = 0;                 // float against double, over the diagonal
};

// A model on one executor: `up` moves host arrays to its memory, `down` back; its rates (GB/s,
// TFLOP/s in float and double; 0: no floor).
template <class Exec, class Up, class Down>
struct Target {
  using S = typename Exec::space;
  Exec& exec;
  Up up;
  Down down;
  std::string name;
  double gbs, tflops[2];
  solids::CellNets<S> nets;
  linalg::Dense<float, S> points_float;
  linalg::Dense<double, S> points_double;
  double ops_ms = 0, nets_ms = 0;

  Target(Exec& e, Up u, Down d, std::string device, double bandwidth, double fp32, double fp64, const Model& m,
         const Options& o)
      : exec(e), up(u), down(d), name(std::move(device)), gbs(bandwidth), tflops{fp32, fp64} {
    const solids::CellMesh<S> cells{m.cells.vertices, up(m.cells.offsets), up(m.cells.indices)};
    ops_ms = time_ms([&] { sync(solids::boundary_operators(exec, cells)); }, o.repeats, o.budget_ms);
    const auto ops = solids::boundary_operators(exec, cells);
    nets_ms = time_ms([&] { sync(solids::cell_nets(exec, cells, ops)); }, o.repeats, o.budget_ms);
    nets = solids::cell_nets(exec, cells, ops);
    linalg::Dense<float> host(m.points.rows, 3);
    std::copy(m.points.data.begin(), m.points.data.end(), host.data.begin());
    points_float = up(host), points_double = up(m.points);
  }
  Samples<S> upload(const Samples<>& h) const { return {up(h.cells), up(h.u), up(h.v), up(h.w)}; }
  Grids<S> upload(const Grids<>& h) const { return {up(h.cells), up(h.at)}; }
  // Waits for the executor (the result, discarded, freed after).
  template <class Result>
  void sync(const Result&) const {
    exec.synchronize();
  }
  template <class T>
  const linalg::Dense<T, S>& points() const {
    if constexpr (sizeof(T) == 4) return points_float;
    else return points_double;
  }
};

std::int64_t free_bytes(linalg::cpu::Executor&) { return std::numeric_limits<std::int64_t>::max(); }
#if defined(__CUDACC__)
std::int64_t free_bytes(linalg::cuda::Executor&) {
  std::size_t free = 0, total = 0;
  linalg::cuda::check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return std::int64_t(free);
}
#endif

// The limit at the K^3 samples a cell `at` of group g in T on target d (`at` in its memory), its
// floors, and W where it fits; with `grids`, the same samples by limit_on_grids (no W; its bytes
// floor reads no sample's (cell, u, v, w)).
template <class T, class D>
Row measure(D& d, const Samples<typename D::S>& at, const Group& g, int K, const Options& o,
            solids::LimitKernel kernel = solids::LimitKernel::automatic, const Grids<typename D::S>* grids = nullptr) {
  auto& exec = d.exec;
  const auto& cells = at.cells;
  const auto &u = at.u, &v = at.v, &w = at.w;
  const auto& P = d.template points<T>();
  const double t = sizeof(T), per_cell = double(K) * K * K;
  Row r;
  r.device = d.name, r.precision = sizeof(T) == 4 ? "float" : "double";
  r.cells = std::int64_t(g.cells.size()), r.samples = cells.size();
  r.entries = std::int64_t(per_cell * g.row_entries);
  r.ops_ms = d.ops_ms, r.nets_ms = d.nets_ms;
  r.kernel = grids                                          ? "grid"
             : kernel == solids::LimitKernel::per_sample      ? "sample"
             : kernel == solids::LimitKernel::gathered_nets  ? "gather"
             : kernel == solids::LimitKernel::gathered_pairs ? "pairs"
                                                             : "auto";
  if (grids)
    r.ms = time_ms([&] { d.sync(solids::limit_on_grids(exec, d.nets, grids->cells, grids->at, P)); }, o.repeats,
                   o.budget_ms);
  else
    r.ms = time_ms([&] { d.sync(solids::limit_at_cells(exec, d.nets, cells, u, v, w, P, kernel)); }, o.repeats,
                   o.budget_ms);
  r.floor_gbs = d.gbs, r.floor_tflops = d.tflops[sizeof(T) == 4 ? 0 : 1];
  const double gbs = r.floor_gbs * 1e6, flops = r.floor_tflops * 1e9;  // per ms
  const double bytes =
      4.0 * g.net_entries + 9.0 * r.cells + 3 * t * g.vertices + r.samples * ((grids ? 0.0 : 28.0) + 12 * t);
  r.bytes_floor = gbs > 0 ? bytes / gbs : 0;
  r.flop_floor = flops > 0 ? 24.0 * r.entries / flops : 0;
  if (grids) return r;
  // W: the library builds the four matrices from one set of columns and values, then copies them.
  const double w_bytes = r.entries * (20.0 + 4 * t) + 12 * t * r.samples;
  if (kernel != solids::LimitKernel::automatic || r.entries > o.w_max_entries || w_bytes > 0.8 * double(free_bytes(exec))) return r;
  auto build = [&] { return solids::limit_matrices_at_cells<T>(exec, d.nets, cells, u, v, w, P.rows); };
  try {
    r.w_build = time_ms([&] { d.sync(build()); }, o.repeats, o.budget_ms);
    const auto W = build();
    const linalg::Csr<T, typename D::S>* matrices[4] = {&W.position, &W.du, &W.dv, &W.dw};
    const index_t n = cells.size();
    linalg::Dense<T, typename D::S> out[4] = {{n, 3}, {n, 3}, {n, 3}, {n, 3}};
    r.w_replay = time_ms([&] {
      for (int m = 0; m < 4; ++m) linalg::spmm(exec, *matrices[m], P, out[m]);
      exec.synchronize();
    }, o.repeats, o.budget_ms);
  } catch (const CapacityError& e) {  // past the memory after all: no W figures
    std::printf("W not built: %s\n", e.what());
    r.w_build = r.w_replay = 0;
    return r;
  }
  const double replay_bytes = 4 * (4.0 * (r.samples + 1) + (4 + t) * r.entries + 3 * t * (g.vertices + r.samples));
  r.w_bytes_floor = gbs > 0 ? replay_bytes / gbs : 0;
  return r;
}

// Float's positions against double's at samples `at` on target d: the largest coordinate
// difference and the mean distance, over the diagonal.
template <class D>
std::pair<double, double> float_error(D& d, const Samples<typename D::S>& at, double diagonal) {
  const auto& cells = at.cells;
  const auto &u = at.u, &v = at.v, &w = at.w;
  const auto single = d.down(solids::limit_at_cells(d.exec, d.nets, cells, u, v, w, d.points_float).position);
  const auto reference = d.down(solids::limit_at_cells(d.exec, d.nets, cells, u, v, w, d.points_double).position);
  double largest = 0, sum = 0;
  for (index_t s = 0; s < single.rows; ++s) {
    double squares = 0;
    for (int c = 0; c < 3; ++c) {
      const double e = std::abs(double(single(s, c)) - reference(s, c));
      largest = std::max(largest, e), squares += e * e;
    }
    sum += std::sqrt(squares);
  }
  return {largest / diagonal, sum / std::max<index_t>(single.rows, 1) / diagonal};
}

// A column of `width` with `digits` decimals, or "-" where there is no figure (0).
void column(int width, int digits, double value) {
  if (value > 0) std::printf(" %*.*f", width, digits, value);
  else std::printf(" %*s", width, "-");
}

void print(const Row& r, bool first_of_group) {
  auto ratio = [](double a, double b) { return b > 0 && a > 0 ? a / b : 0.0; };
  std::printf("%-16s %2d %2d %-8s %-4s %-6s %-6s %8lld %10lld %9.3f %9.1f", r.model.c_str(), r.level, r.per_axis,
              r.group.c_str(), r.device.c_str(), r.precision.c_str(), r.kernel.c_str(), static_cast<long long>(r.cells),
              static_cast<long long>(r.samples), r.ms, r.samples / (r.ms * 1e3));
  column(6, 1, r.device == "cpu" ? 0 : ratio(r.cpu_ms, r.ms));
  column(8, 4, r.bytes_floor), column(6, 2, ratio(r.ms, r.bytes_floor));
  column(8, 4, r.flop_floor), column(6, 2, ratio(r.ms, r.flop_floor));
  column(9, 3, r.w_build), column(9, 3, r.w_replay), column(6, 2, ratio(r.w_replay, r.w_bytes_floor));
  if (first_of_group) std::printf(" %9.2e %9.2e", r.error_max, r.error_mean);
  std::printf("\n");
  std::fflush(stdout);
}

void write_row(std::FILE* f, const Row& r) {
  std::fprintf(f,
               "\"model\": \"%s\", \"level\": %d, \"samples_per_axis\": %d, \"class\": \"%s\", \"device\": \"%s\", "
               "\"precision\": \"%s\", \"kernel\": \"%s\", \"cells\": %lld, \"samples\": %lld, \"entries\": %lld, \"ops_ms\": %.4f, "
               "\"nets_ms\": %.4f, \"ms\": %.5f, \"samples_per_s\": %.4g, \"cpu_ms\": %.5f, \"bytes_floor_ms\": %.5f, "
               "\"flop_floor_ms\": %.5f, \"floor_gbs\": %.1f, \"floor_tflops\": %.1f, \"w_build_ms\": %.4f, "
               "\"w_replay_ms\": %.5f, \"w_bytes_floor_ms\": %.5f, "
               "\"float_error_max\": %.3g, \"float_error_mean\": %.3g",
               r.model.c_str(), r.level, r.per_axis, r.group.c_str(), r.device.c_str(), r.precision.c_str(),
               r.kernel.c_str(), static_cast<long long>(r.cells), static_cast<long long>(r.samples), static_cast<long long>(r.entries),
               r.ops_ms, r.nets_ms, r.ms, r.samples / (r.ms * 1e-3), r.cpu_ms, r.bytes_floor, r.flop_floor, r.floor_gbs,
               r.floor_tflops, r.w_build, r.w_replay, r.w_bytes_floor, r.error_max, r.error_mean);
}

// The models: each mesh at levels 0 to L (a file that is not there skipped, said), then the grid.
std::vector<Model> models(const std::vector<std::pair<std::string, int>>& meshes, int grid) {
  linalg::cpu::Executor cpu;
  std::vector<Model> out;
  for (const auto& [path, levels] : meshes) {
    if (!std::filesystem::exists(path)) {
      std::printf("skipped %s: not found (SPMESH_SHARED_DIR is %s)\n", path.c_str(), SPMESH_SHARED_DIR);
      continue;
    }
    auto mesh = solids::read_volume(path);
    const std::string name = std::filesystem::path(path).stem().string();
    out.push_back({name, 0, std::move(mesh.cells), std::move(mesh.positions)});
    for (int level = 1; level <= levels; ++level) {
      const Model& parent = out.back();
      auto refined = solids::refine(cpu, parent.cells, solids::boundary_operators(cpu, parent.cells), parent.points);
      out.push_back({name, level, std::move(refined.cells), std::move(refined.positions)});
    }
  }
  if (grid > 0) out.push_back(perturbed_grid(grid));
  return out;
}

std::vector<int> integers(const std::string& list) {
  std::vector<int> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) out.push_back(std::stoi(item));
  return out;
}

int run(int argc, char** argv) {
  Options o;
  std::vector<std::pair<std::string, int>> meshes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool value = i + 1 < argc;
    if (a == "--json" && value) o.json = argv[++i];
    else if (a == "--samples-per-axis" && value) o.per_axis = integers(argv[++i]);
    else if (a == "--grid" && value) o.grid = std::stoi(argv[++i]);
    else if (a == "--repeats" && value) o.repeats = std::stoi(argv[++i]);
    else if (a == "--budget-ms" && value) o.budget_ms = std::stod(argv[++i]);
    else if (a == "--cpu-max-samples" && value) o.cpu_max_samples = std::int64_t(std::stod(argv[++i]));
    else if (a == "--w-max-entries" && value) o.w_max_entries = std::int64_t(std::stod(argv[++i]));
    else if (a == "--bandwidth-gbs" && value) o.gpu_gbs = std::stod(argv[++i]), o.gpu_rates_given = true;
    else if (a == "--fp32-tflops" && value) o.fp32_tflops = std::stod(argv[++i]), o.gpu_rates_given = true;
    else if (a == "--fp64-tflops" && value) o.fp64_tflops = std::stod(argv[++i]), o.gpu_rates_given = true;
    else if (a[0] != '-') {
      const auto colon = a.rfind(':');
      if (colon == std::string::npos) meshes.emplace_back(a, 1);
      else meshes.emplace_back(a.substr(0, colon), std::stoi(a.substr(colon + 1)));
    } else
      throw Error("usage: spmesh_bench_solid_limits [--json FILE] [--samples-per-axis K,...] [--grid N] [--repeats R] "
                  "[--budget-ms B] [--cpu-max-samples N] [--w-max-entries N] [--bandwidth-gbs B] [--fp32-tflops F] "
                  "[--fp64-tflops F] [MESH.mesh[:L] ...]");
  }
  if (meshes.empty())
    for (const char* file : {"sphere_allhex.mesh", "disc_extrude.mesh"})
      meshes.emplace_back(std::string(SPMESH_SHARED_DIR) + "/meshes/hex/" + file, 1);
  linalg::cpu::Executor cpu;
  auto same = [](const auto& x) { return x.clone(); };
  std::vector<double> rates{memory_gbs(cpu)};
  std::printf("CPU: %d threads, memory rate %.0f GB/s (its bytes floor; no FLOP floor)\n", cpu.threads(), rates[0]);
#if defined(__CUDACC__)
  linalg::cuda::Executor gpu;
  auto to_device = [](const auto& x) { return linalg::cuda::to_device(x); };
  auto to_host = [](const auto& x) { return linalg::cuda::to_host(x); };
  rates.push_back(memory_gbs(gpu));
  std::printf("GPU: memory rate %.0f GB/s measured; floors at %.0f GB/s, %.1f TFLOP/s float, %.1f double (%s)\n",
              rates[1], o.gpu_gbs, o.fp32_tflops, o.fp64_tflops,
              o.gpu_rates_given ? "as given"
                                : "an H200's nominal figures; --bandwidth-gbs, --fp32-tflops, --fp64-tflops to change");
#endif
  std::printf("Times in ms; Ms/s: million samples a second; xcpu: the CPU's time over the row's; B floor, F floor: the "
              "bytes and FLOP floors in ms, xB, xF: the time over them; W replay: the 4 SpMMs, xB over their bytes "
              "floor; |f-d| max, mean: float against double at the positions, over the diagonal\n");
  std::vector<Row> rows;
  for (const Model& m : models(meshes, o.grid)) {
    const auto host_nets = solids::cell_nets(cpu, m.cells, solids::boundary_operators(cpu, m.cells));
    const auto groups = groups_of(host_nets, m.cells.vertices);
    const double diag = diagonal(m.points);
    const index_t C = m.cells.cells();
    std::printf("\n%s level %d: %lld cells, %lld evaluable (%.1f%%):", m.name.c_str(), m.level,
                static_cast<long long>(C), static_cast<long long>(host_nets.cells), 100.0 * host_nets.cells / C);
    for (const Group& g : groups)
      if (g.name != "all") std::printf(" %zu %s,", g.cells.size(), g.name.c_str());
    std::printf(" the other %lld not built yet\n", static_cast<long long>(C - host_nets.cells));
    Target on_cpu(cpu, same, same, "cpu", rates[0], 0, 0, m, o);
#if defined(__CUDACC__)
    Target on_gpu(gpu, to_device, to_host, "gpu", o.gpu_gbs, o.fp32_tflops, o.fp64_tflops, m, o);
    std::printf("ops + nets: gpu %.3f + %.3f ms, cpu %.3f + %.3f ms\n", on_gpu.ops_ms, on_gpu.nets_ms, on_cpu.ops_ms,
                on_cpu.nets_ms);
#else
    std::printf("ops + nets: cpu %.3f + %.3f ms\n", on_cpu.ops_ms, on_cpu.nets_ms);
#endif
    if (groups.empty()) continue;
    std::printf("%-16s %2s %2s %-8s %-4s %-6s %-6s %8s %10s %9s %9s %6s %8s %6s %8s %6s %9s %9s %6s %9s %9s\n",
                "model", "L", "K", "class", "dev", "prec", "kernel", "cells", "samples", "limit", "Ms/s", "xcpu", "B floor", "xB",
                "F floor", "xF", "W build", "W replay", "xB", "|f-d| max", "mean");
    for (const int K : o.per_axis)
      for (const Group& g : groups) {
        const Samples<> h = samples_in(g, K);
        const bool on_host = h.cells.size() <= o.cpu_max_samples;
        std::vector<Row> measured;
        std::pair<double, double> error{0, 0};
#if defined(__CUDACC__)
        const auto at = on_gpu.upload(h);
        measured.push_back(measure<float>(on_gpu, at, g, K, o));
        for (const auto kernel : {solids::LimitKernel::per_sample, solids::LimitKernel::gathered_nets,
                                  solids::LimitKernel::gathered_pairs})
          measured.push_back(measure<float>(on_gpu, at, g, K, o, kernel));
        const auto grids = on_gpu.upload(grids_in(g, K));
        measured.push_back(measure<float>(on_gpu, at, g, K, o, solids::LimitKernel::automatic, &grids));
        measured.push_back(measure<double>(on_gpu, at, g, K, o));
        measured.push_back(measure<double>(on_gpu, at, g, K, o, solids::LimitKernel::automatic, &grids));
        error = float_error(on_gpu, at, diag);
#else
        if (on_host) error = float_error(on_cpu, h, diag);
#endif
        const Grids<> host_grids = grids_in(g, K);
        if (on_host) measured.push_back(measure<double>(on_cpu, h, g, K, o, solids::LimitKernel::automatic, &host_grids));
        if (on_host) measured.push_back(measure<double>(on_cpu, h, g, K, o));
        const double cpu_ms = on_host ? measured.back().ms : 0;
        for (std::size_t i = 0; i < measured.size(); ++i) {
          Row& r = measured[i];
          r.model = m.name, r.level = m.level, r.per_axis = K, r.group = g.name;
          r.cpu_ms = cpu_ms, r.error_max = error.first, r.error_mean = error.second;
          print(r, i == 0);
          rows.push_back(r);
        }
        if (!on_host)
          std::printf("%-16s %2d %2d %-8s cpu  not run: %lld samples, past --cpu-max-samples\n", m.name.c_str(),
                      m.level, K, g.name.c_str(), static_cast<long long>(h.cells.size()));
      }
  }
  if (!o.json.empty()) write_json(o.json, rates, rows, write_row);
  return 0;
}

}  // namespace

}  // namespace spmesh::bench

int main(int argc, char** argv) {
  try {
    return spmesh::bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spmesh_bench_solid_limits: %s\n", e.what());
    return 1;
  }
}
