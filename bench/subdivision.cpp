// Subdivision benchmark: spmesh beside its peers on the same machine, in the same run: OpenSubdiv
// 3.5 for Catmull-Clark and Loop, CGAL 5.5 and OpenMesh 9 for sqrt(3). --scheme catmark
// (default): ArmorGuy (levels 1-6) and Bigguy (1-7); --scheme loop: ArmorGuyT and bigguyT
// (1-5); --scheme sqrt3: ArmorGuyT and bigguyT (1-6, without their crease tags: sqrt(3) has no
// crease rules), all from ../shared/meshes/characters. For each level:
//   spmesh, on the CPU (this file, compiled by the host compiler) and, in a CUDA build, the GPU
//   (cuda/subdivision.cu; bench/subdivision.hpp has the measurements both share):
//     dynamic = build_and_eval (topology changes every frame: build and eval in one pass, no plan
//     kept; its peak memory, GPU or host, is the one reported), build alone, eval alone (static
//     topology; Catmull-Clark's last levels by patches, and also level by level and, at a
//     mesh's deepest level, with patches 1 to 4 levels deep), eval recorded once and replayed
//     (Executor::record: on the GPU one graph, no launch per kernel), compose (R = S_L ... S_1)
//     and replay (P_L = R P_0, one SpMV);
//   OpenSubdiv: build = Far RefineUniform + StencilTableFactory::Create (last level only,
//     factorised), eval = StencilTable::UpdateValues (one thread) and OmpEvaluator (all threads);
//   CGAL (Sqrt3_subdivision) and OpenMesh (Sqrt3T): the whole refinement of the level (topology
//     and positions together, one thread, double), without converting the mesh in and out;
//   --peer-max-level L stops the peers (all of them) after level L; --min-level L skips the
//   levels before L; --order random|rcm|random-rcm renumbers each mesh's vertices first (the
//   mesh name gets the order as a suffix), to measure locality (paper 4.5).
// Times are medians of repeated runs (one run when a run exceeds a third of --budget-ms). Checks
// in the same run: spmesh replay == spmesh eval, and spmesh eval == the peer's compared by
// order-free sums (the vertex orders differ; tests/schemes compares vertex by vertex). Prints a
// table and writes JSON (--json FILE). Vertex data: xyz floats, as OpenSubdiv's evaluators use.
#include "bench/peers/opensubdiv.hpp"
#include "bench/peers/sqrt3.hpp"
#include "bench/subdivision.hpp"
#include "linalg/cpu/executor.hpp"
#include "meshops/io.hpp"
#include "meshops/reorder.hpp"

#include <opensubdiv/far/stencilTable.h>
#include <opensubdiv/far/stencilTableFactory.h>
#include <opensubdiv/osd/bufferDescriptor.h>
#include <opensubdiv/osd/ompEvaluator.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>

namespace spmesh::bench {

using Clock = std::chrono::steady_clock;

double budget_ms = 3000;
int peer_max_level = 99;
int min_level = 1;  // --min-level: the first level measured (e.g. to profile the deepest alone)
std::string vertex_order = "given";  // --order: given, random, rcm or random-rcm

// The mesh in the vertex order --order asks for (paper 4.5): as given, randomly permuted (a fixed
// seed), reverse Cuthill-McKee (meshops/reorder.hpp), or RCM of the random permutation.
meshops::PolyMesh in_order(meshops::PolyMesh mesh) {
  if (vertex_order.starts_with("random")) {
    std::vector<index_t> order(mesh.vertex_count());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937(12345));
    mesh = meshops::reorder(mesh, order);
  }
  if (vertex_order.ends_with("rcm")) mesh = meshops::reorder(mesh, meshops::rcm_order(mesh.M));
  return mesh;
}

// Median of runs of f (at least 3 unless one run takes more than a third of the budget).
double time_ms(const std::function<void()>& f) {
  std::vector<double> ms;
  double total = 0;
  while (ms.size() < 3 || (total < budget_ms && ms.size() < 20)) {
    const auto t0 = Clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    total += ms.back();
    if (ms.size() == 1 && ms[0] > budget_ms / 3) break;
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// OpenSubdiv's name for a scheme.
template <class Scheme>
constexpr auto osd_scheme =
    Scheme::triangles_only ? OpenSubdiv::Sdc::SCHEME_LOOP : OpenSubdiv::Sdc::SCHEME_CATMARK;

// OpenSubdiv: refine + stencil table, then its evaluators; fills the osd_* fields.
template <class Scheme>
Sums run_opensubdiv(const Case& c, int level, Row& row) {
  using namespace OpenSubdiv;
  Far::StencilTableFactory::Options opt;
  opt.generateIntermediateLevels = false;
  opt.generateOffsets = true;
  std::unique_ptr<const Far::StencilTable> table;
  row.osd_build = time_ms([&] {
    auto refiner = test::osd_refiner(c.mesh, c.tags.sharpness, c.options, false, osd_scheme<Scheme>);
    refiner->RefineUniform(Far::TopologyRefiner::UniformOptions(level));
    table.reset(Far::StencilTableFactory::Create(*refiner, opt));
  });
  const int n = table->GetNumStencils();
  std::vector<float> out(3 * std::size_t(n));
  struct Xyz {
    float p[3];
    void Clear() { p[0] = p[1] = p[2] = 0; }
    void AddWithWeight(const Xyz& s, float w) {
      for (int k = 0; k < 3; ++k) p[k] += w * s.p[k];
    }
  };
  const auto* src = reinterpret_cast<const Xyz*>(c.P0.data.data());
  auto* dst = reinterpret_cast<Xyz*>(out.data());
  row.osd_eval_serial = time_ms([&] { table->UpdateValues(src, dst); });
  const Osd::BufferDescriptor desc(0, 3, 3);
  row.osd_eval_omp = time_ms([&] {
    Osd::OmpEvaluator::EvalStencils(c.P0.data.data(), desc, out.data(), desc,
                                    &table->GetSizes()[0], &table->GetOffsets()[0],
                                    &table->GetControlIndices()[0], &table->GetWeights()[0], 0, n);
  });
  return Sums::of(out.data(), out.size());
}

// CGAL and OpenMesh sqrt(3) (where built, up to --peer-max-level): median of their own timings
// of the refinement; fills cgal and openmesh, and returns the sums of the first one that ran.
Sums run_sqrt3_peers(const Case& c, int level, Row& row) {
  using Peer = test::PeerMesh (*)(const meshops::PolyMesh&, int);
  std::vector<std::pair<Peer, double*>> peers;
#if defined(SPMESH_HAVE_CGAL)
  peers.emplace_back(test::cgal_sqrt3, &row.cgal);
#endif
#if defined(SPMESH_HAVE_OPENMESH)
  peers.emplace_back(test::openmesh_sqrt3, &row.openmesh);
#endif
  Sums sums{std::nan(""), std::nan("")};
  if (level > peer_max_level) return sums;  // the peers' times stay at -1
  for (const auto& [refine, ms] : peers) {
    std::vector<double> times;
    test::PeerMesh result;
    do {
      result = refine(c.mesh, level);
      times.push_back(result.ms);
    } while (times.size() < 3 && result.ms < budget_ms / 3);
    std::sort(times.begin(), times.end());
    *ms = times[times.size() / 2];
    if (std::isnan(sums.sum)) sums = Sums::of(result.positions.data(), result.positions.size());
  }
  return sums;
}

// The peers of a scheme on one level; returns their result's order-free sums.
template <class Scheme>
Sums run_peers(const Case& c, int level, Row& row) {
  if constexpr (std::is_same_v<Scheme, schemes::Sqrt3>) return run_sqrt3_peers(c, level, row);
  else if (level > peer_max_level) return {std::nan(""), std::nan("")};
  else return run_opensubdiv<Scheme>(c, level, row);
}

template <class X>
X host_copy(const X& x) {
  if constexpr (requires { x.clone(); }) return x.clone();
  else return X{x.rows, x.cols, x.row_indices.clone(), x.col_indices.clone(), x.values.clone()};
}

template <class Scheme>
int run(std::vector<std::pair<std::string, int>> meshes, const std::string& json, int cpu_max,
        int compose_max);

int main(int argc, char** argv) {
  std::vector<std::pair<std::string, int>> meshes;
  std::string scheme = "catmark";
  std::string json;
  int cpu_max = 99, compose_max = 99;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&] {
      if (i + 1 >= argc) throw Error(a + " needs a value");
      return std::string(argv[++i]);
    };
    if (a == "--mesh") {
      const std::string v = value();
      const auto colon = v.rfind(':');
      meshes.emplace_back(v.substr(0, colon), std::stoi(v.substr(colon + 1)));
    } else if (a == "--json") json = value();
    else if (a == "--cpu-max-level") cpu_max = std::stoi(value());
    else if (a == "--compose-max-level") compose_max = std::stoi(value());
    else if (a == "--budget-ms") budget_ms = std::stod(value());
    else if (a == "--peer-max-level") peer_max_level = std::stoi(value());
    else if (a == "--min-level") min_level = std::stoi(value());
    else if (a == "--order") {
      vertex_order = value();
      if (vertex_order != "given" && vertex_order != "random" && vertex_order != "rcm" &&
          vertex_order != "random-rcm")
        throw Error("--order takes given, random, rcm or random-rcm, not " + vertex_order);
    }
    else if (a == "--scheme") scheme = value();
    else throw Error("unknown argument " + a);
  }
  const std::string dir = SPMESH_SHARED_DIR "/meshes/characters/";
  if (scheme == "loop") {
    if (meshes.empty()) meshes = {{dir + "ArmorGuyT.obj", 5}, {dir + "bigguyT.obj", 5}};
    return run<schemes::Loop>(meshes, json, cpu_max, compose_max);
  }
  if (scheme == "sqrt3") {
    if (meshes.empty()) meshes = {{dir + "ArmorGuyT.obj", 6}, {dir + "bigguyT.obj", 6}};
    return run<schemes::Sqrt3>(meshes, json, cpu_max, compose_max);
  }
  if (scheme != "catmark") throw Error("--scheme " + scheme + " (catmark, loop or sqrt3)");
  if (meshes.empty()) meshes = {{dir + "ArmorGuy.obj", 6}, {dir + "Bigguy.obj", 7}};
  return run<schemes::CatmullClark>(meshes, json, cpu_max, compose_max);
}

template <class Scheme>
int run(std::vector<std::pair<std::string, int>> meshes, const std::string& json, int cpu_max,
        int compose_max) {
  std::vector<Row> rows;
  linalg::cpu::Executor host;
#if defined(SPMESH_BENCH_GPU)
  const GpuInfo gpu = gpu_info();
  const double copy_gbs = gpu.copy_gbs;
  std::printf("GPU %s, device-to-device copy %.0f GB/s; CPU threads %d\n", gpu.name.c_str(), copy_gbs,
              host.threads());
#else
  std::printf("CPU threads %d (no GPU in this build)\n", host.threads());
#endif
  constexpr bool sqrt3 = std::is_same_v<Scheme, schemes::Sqrt3>;
  if (sqrt3)
    std::printf("%-9s %2s %-4s %10s %9s %9s %9s %9s %9s %9s %9s %8s %9s %9s  (ms; x: peer/spmesh dynamic)\n",
                "mesh", "L", "dev", "faces", "dynamic", "build", "eval", "compose", "replay", "cgal",
                "openmesh", "peakMiB", "xCGAL", "xOpenMesh");
  else
    std::printf("%-9s %2s %-4s %10s %9s %9s %9s %9s %9s %9s %9s %9s %8s %9s %9s  (ms; x: OSD/spmesh)\n",
                "mesh", "L", "dev", "faces", "dynamic", "build", "eval", "compose", "replay",
                "osdBuild", "osdEval1", "osdEvalN", "peakMiB", "xOSDbld", "xOSDeval1");
  for (const auto& [path, levels] : meshes) {
    Case c;
    c.mesh = in_order(meshops::read_mesh(path));
    c.name = std::filesystem::path(path).stem().string() +
             (vertex_order == "given" ? "" : "-" + vertex_order);
    c.info = meshops::mesh_info(host, c.mesh);
    c.tags = schemes::read_tags(c.mesh);
    if (!Scheme::crease_rules) c.tags.sharpness = schemes::smooth_sharpness(c.mesh.vertex_count());
    c.options = schemes::options_from(c.tags);
    c.P0 = linalg::Dense<float>(c.mesh.vertex_count(), 3);
    for (index_t p = 0; p < c.P0.data.size(); ++p) c.P0.data[p] = float(c.mesh.positions.data[p]);
    for (int l = min_level; l <= levels; ++l) {
      Row peer;
      const Sums reference = run_peers<Scheme>(c, l, peer);
      std::vector<Row> level_rows;
      auto add = [&](Row r, const char* device, const Sums& got) {
        r.mesh = c.name, r.device = device, r.level = l;
        r.osd_build = peer.osd_build, r.osd_eval_serial = peer.osd_eval_serial;
        r.osd_eval_omp = peer.osd_eval_omp, r.cgal = peer.cgal, r.openmesh = peer.openmesh;
        r.vs_peer = got.rel_diff(reference);
        r.estimate_mib = schemes::estimate_size<Scheme>({c.info.vertices, c.info.faces,
                                                         c.mesh.M.nnz(), c.info.edges,
                                                         c.info.boundary_edges},
                                                        l, 3, sizeof(float))
                             .one_pass()
                             .bytes /
                         1048576.0;
        level_rows.push_back(r);
      };
#if defined(SPMESH_BENCH_GPU)
      {
        linalg::Dense<float> P;
        const Row r = gpu_row<Scheme>(c, l, l <= compose_max, l == levels, copy_gbs, P);
        add(r, "gpu", Sums::of(P.data.data(), P.data.size()));
      }
#endif
      if (l <= cpu_max) {
        Row r;
        const auto P = run_spmesh<Scheme>(
            host, c, l, l <= compose_max, l == levels, r, [](const auto& x) { return host_copy(x); },
            [](const auto& x) { return host_copy(x); });
        add(r, "cpu", Sums::of(P.data.data(), P.data.size()));
      }
      for (const Row& r : level_rows) {
        const std::string of_copy =
            r.replay_of_copy > 0 ? std::to_string(int(100 * r.replay_of_copy + 0.5)) + "%" : "-";
        std::printf("%-9s %2d %-4s %10lld %9.2f %9.2f %9.3f %9.2f %9.3f ", r.mesh.c_str(), r.level,
                    r.device.c_str(), r.faces, r.dynamic, r.build, r.eval, r.compose, r.replay);
        if (sqrt3)
          std::printf("%9.1f %9.1f %8.0f %9.1f %9.1f", r.cgal, r.openmesh, r.peak_mib,
                      r.cgal / r.dynamic, r.openmesh / r.dynamic);
        else
          std::printf("%9.1f %9.2f %9.2f %8.0f %9.1f %9.2f", r.osd_build, r.osd_eval_serial,
                      r.osd_eval_omp, r.peak_mib, r.osd_build / r.build,
                      r.osd_eval_serial / r.eval);
        std::printf("   replay %s of copy, replay-eval %.1e, vs %s %.1e", of_copy.c_str(),
                    r.replay_vs_eval, sqrt3 ? "peer" : "OSD", r.vs_peer);
        if (r.replay_stencils > 0)
          std::printf(", stencils %.0f (encode %.1f ms): replay %.3f ms%s, vs replay %.1e",
                      r.stencils, r.encode, r.replay_stencils,
                      r.stencil_of_copy > 0
                          ? (" (" + std::to_string(int(100 * r.stencil_of_copy + 0.5)) + "% of copy)").c_str()
                          : "",
                      r.stencils_vs_replay);
        if (r.cusparse_replay > 0)
          std::printf(", cuSPARSE %.3f ms (%.2fx plain, %.2fx stencils)", r.cusparse_replay,
                      r.cusparse_replay / r.replay, r.cusparse_replay / r.replay_stencils);
        if (r.eval_recorded > 0)
          std::printf(", eval recorded %.3f ms (%s)", r.eval_recorded,
                      r.recorded_same ? "same bits" : "DIFFERS FROM EVAL");
        if (r.eval_levels > 0) {
          std::printf(", eval by levels %.3f ms", r.eval_levels);
          if (r.patch_depth > 0)
            std::printf(" (patches %d deep, %.1f%% of faces by levels)", r.patch_depth, 100 * r.region_share);
          else
            std::printf(" (no patches)");
          for (int d = 1; d < 5; ++d)
            if (r.eval_depth[d] > 0) std::printf("%s%d: %.3f", d == 1 ? ", eval at depth " : ", ", d, r.eval_depth[d]);
        }
        if (r.peak_mib > 0)
          std::printf(", peak/estimate %.2f%s", r.peak_mib / r.estimate_mib,
                      r.peak_mib > r.estimate_mib ? " (OVER THE ESTIMATE)" : "");
        std::printf("\n");
        std::fflush(stdout);
        rows.push_back(r);
      }
    }
  }
  if (!json.empty()) {
    std::ofstream out(json);
    out << "{\n  \"results\": [\n";
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const Row& r = rows[k];
      out << "    {\"mesh\": \"" << r.mesh << "\", \"level\": " << r.level << ", \"device\": \""
          << r.device << "\", \"faces\": " << r.faces << ", \"vertices\": " << r.vertices
          << ", \"r_nnz\": " << r.r_nnz << ", \"dynamic_ms\": " << r.dynamic
          << ", \"build_ms\": " << r.build << ", \"eval_ms\": " << r.eval
          << ", \"eval_recorded_ms\": " << r.eval_recorded
          << ", \"recorded_same_bits\": " << (r.recorded_same ? "true" : "false")
          << ", \"compose_ms\": " << r.compose << ", \"replay_ms\": " << r.replay
          << ", \"osd_build_ms\": " << r.osd_build << ", \"osd_eval_serial_ms\": "
          << r.osd_eval_serial << ", \"osd_eval_omp_ms\": " << r.osd_eval_omp
          << ", \"cgal_ms\": " << r.cgal << ", \"openmesh_ms\": " << r.openmesh
          << ", \"peak_mib\": " << r.peak_mib << ", \"estimate_mib\": " << r.estimate_mib
          << ", \"replay_bytes\": " << r.replay_bytes << ", \"encode_ms\": " << r.encode
          << ", \"replay_stencils_ms\": " << r.replay_stencils << ", \"stencils\": " << r.stencils
          << ", \"stencil_bytes\": " << r.stencil_bytes << ", \"stencil_of_copy\": "
          << r.stencil_of_copy << ", \"stencils_vs_replay\": " << r.stencils_vs_replay
          << ", \"cusparse_replay_ms\": " << r.cusparse_replay
          << ", \"replay_of_copy\": " << r.replay_of_copy
          << ", \"replay_vs_eval\": " << r.replay_vs_eval << ", \"eval_levels_ms\": " << r.eval_levels
          << ", \"patch_depth\": " << r.patch_depth << ", \"region_share\": " << r.region_share
          << ", \"eval_depth_ms\": [" << r.eval_depth[1] << ", " << r.eval_depth[2] << ", "
          << r.eval_depth[3] << ", " << r.eval_depth[4] << "]"
          << ", \"vs_peer\": " << (std::isfinite(r.vs_peer) ? r.vs_peer : -1.0) << "}" << (k + 1 < rows.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
  }
  return 0;
}

}  // namespace spmesh::bench

int main(int argc, char** argv) {
  try {
    return spmesh::bench::main(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spmesh_bench_subdivision: %s\n", e.what());
    return 1;
  }
}
