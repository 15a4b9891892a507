// spmesh_bench_solids: Catmull-Clark solids (solids/plan.hpp) level by level on the CPU (this
// file, compiled by the host compiler) and, in a CUDA build (cuda/solids.cu), on the GPU; the
// measurements are bench/solids.hpp's. For each mesh and level: dynamic (build_and_eval), build,
// eval, the deepest level's eval alone against its bytes floor (the
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
// (build's, then eval's five a level).
//   spmesh_bench_solids --phases MESH.mesh:LEVEL ...
// times each step of build_and_eval alone (waiting after each) with the GPU launches and host
// waits it makes, then the whole unbroken: where the dynamic path's time goes at small levels.
// Times are medians of at least 3 runs (one run past a third of 3 s).
#include "bench/solids.hpp"
#include "linalg/cpu/executor.hpp"

#include <limits>

namespace spmesh::bench {

namespace {

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
#if defined(SPMESH_BENCH_GPU)
      if (phases_only) std::printf("%s to level %d, GPU\n", path.c_str(), level), phases_on_gpu(mesh, level);
      else profile_on_gpu(mesh, level);
#endif
      auto copy = [](const auto& x) { return x.clone(); };
      if (phases_only && level <= cpu_max)
        std::printf("%s to level %d, CPU\n", path.c_str(), level), phases(cpu, copy, mesh, level);
#if !defined(SPMESH_BENCH_GPU)
      else profile(cpu, copy, mesh, level);
#endif
    }
    return 0;
  }
  double copy_gbs = 0;
#if defined(SPMESH_BENCH_GPU)
  copy_gbs = gpu_copy_gbs();
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
#if defined(SPMESH_BENCH_GPU)
      rows.push_back(measure_on_gpu(mesh, counts, level, copy_gbs));
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
