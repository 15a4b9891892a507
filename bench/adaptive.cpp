// spmesh_bench_adaptive: feature-adaptive Catmull-Clark (issue 28; schemes/catmull_clark/adaptive.hpp)
// against its own uniform path and OpenSubdiv's adaptive one, at the same samples: each mesh's
// tessellation layout at rate N (tessellation_samples: N x N quads a face), positions and both
// derivatives in double. Per mesh and isolation level L:
//   build     build_adaptive: the levels, each refining only what no patch holds, and two rings;
//   eval      limit_at_samples on that plan (its levels' points, the patches at the samples);
//   uniform   limit_at_samples of the base mesh down L levels, every face refined (its build and
//             eval, which the uniform path does not split);
//   points    the vertex data rows of every level (adaptive, uniform), and on the GPU the peak of
//             the executor's pool during build + eval (adaptive) and the uniform call;
//   far       OpenSubdiv 3.5 on the host: RefineAdaptive + PatchTableFactory + PatchMap (build),
//             then the refined vertices, local points and each sample's patch (eval), one thread,
//             double (bench/peers/opensubdiv.hpp's FarAdaptive); its points and patches;
//   |d|       the largest difference of spmesh's adaptive points from its uniform ones, and from
//             Far's (Gregory patches at the isolation level: close, not equal, near extraordinary
//             vertices), over the diagonal;
//   patches   adaptive_patches on the plan: how many, and its time (what subdivide --adaptive writes);
//   replay    R_adaptive P0 (refinement_matrix, made once): every level's points, one SpMV.
//   spmesh_bench_adaptive [--json FILE] [--rate N] [--cpu-max-level L] [--uniform-max-level L]
//                         MESH.obj:L0-L1 ...
// (isolation levels L0 to L1 of each mesh; the CPU's rows to --cpu-max-level, default 4; the
// uniform path's to --uniform-max-level, default 5).
#include "bench/peers/opensubdiv.hpp"
#include "bench/rates.hpp"
#include "linalg/cpu/executor.hpp"
#include "meshops/obj.hpp"
#include "schemes/catmull_clark/adaptive.hpp"
#include "schemes/catmull_clark/adaptive_patches.hpp"
#include "schemes/catmull_clark/tessellation.hpp"
#if defined(__CUDACC__)
#include "linalg/cuda/executor.cuh"
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace spmesh::bench {

namespace {

namespace cc = schemes::catmull_clark;

struct Row {
  std::string mesh, device;
  int isolation = 0;
  index_t samples = 0, approximated = 0;
  double build = 0, eval = 0, uniform = 0, far_build = 0, far_eval = 0;
  double patch_ms = 0, replay = 0;  // adaptive_patches on the plan; R_adaptive P0 (R made once)
  std::int64_t points = 0, uniform_points = 0, far_points = 0, far_patches = 0, patches = 0, replay_nnz = 0;
  double peak_mb = 0, uniform_peak_mb = 0;
  double from_uniform = 0, from_far = 0;
};

// The uniform plan's vertex data rows to level L: V' = V + F + E, and on quads F' = 4 F,
// E' = 2 E + 4 F (level 1 of a polygon mesh: F' = corners, E' = 2 E + corners).
std::int64_t uniform_points(const meshops::PolyMesh& mesh, int levels) {
  std::set<std::pair<index_t, index_t>> edges;
  for (index_t f = 0; f < mesh.face_count(); ++f) {
    const index_t begin = mesh.M.offsets[f], end = mesh.M.offsets[f + 1];
    for (index_t h = begin; h < end; ++h) {
      const index_t a = mesh.M.indices[h], b = mesh.M.indices[h + 1 == end ? begin : h + 1];
      edges.insert({std::min(a, b), std::max(a, b)});
    }
  }
  std::int64_t V = mesh.vertex_count(), F = mesh.face_count(), E = std::int64_t(edges.size()), corners = mesh.M.nnz();
  std::int64_t total = V;
  for (int l = 0; l < levels; ++l) {
    const std::int64_t children = l == 0 ? corners : 4 * F;
    V += F + E, E = 2 * E + children, F = children;
    total += V;
  }
  return total;
}

double diagonal(const linalg::Dense<double>& P) {
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (index_t i = 0; i < P.rows; ++i)
    for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], P(i, c)), hi[c] = std::max(hi[c], P(i, c));
  return std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
}

// One device's row: adaptive build and eval, the uniform path where asked, and their points; the
// adaptive limits (on the host) in `ours`.
template <class Exec, class Up, class Down, class Peak>
Row measure(linalg::Dense<double>& ours, Exec& exec, Up up, Down down, Peak peak, const meshops::PolyMesh& mesh, const schemes::TagSettings& tags,
            const schemes::Options& options, const std::vector<index_t>& faces, const std::vector<double>& u,
            const std::vector<double>& v, int isolation, bool with_uniform) {
  using S = typename Exec::space;
  const auto P0 = up(mesh.positions);
  const auto faces_up = up(linalg::Array<index_t>(faces));
  const auto u_up = up(linalg::Array<double>(u)), v_up = up(linalg::Array<double>(v));
  auto sharpness = [&] { return schemes::Sharpness<S>{up(tags.sharpness.edges), up(tags.sharpness.vertices)}; };
  Row r;
  r.isolation = isolation, r.samples = index_t(faces.size());
  r.build = time_ms([&] {
    cc::build_adaptive(exec, up(mesh.M), sharpness(), isolation, options);
    exec.synchronize();
  });
  peak(true);
  const auto plan = cc::build_adaptive(exec, up(mesh.M), sharpness(), isolation, options);
  r.eval = time_ms([&] {
    cc::limit_at_samples(exec, plan, faces_up, u_up, v_up, P0, true);
    exec.synchronize();
  });
  const auto adaptive = cc::limit_at_samples(exec, plan, faces_up, u_up, v_up, P0, true);
  exec.synchronize();
  r.peak_mb = peak(false);
  r.points = plan.points(), r.approximated = adaptive.approximated;
  ours = down(adaptive.position);
  r.patch_ms = time_ms([&] {
    cc::adaptive_patches(exec, plan);
    exec.synchronize();
  });
  r.patches = cc::adaptive_patches(exec, plan).size();
  const auto R = cc::refinement_matrix<double>(exec, plan);
  r.replay_nnz = R.nnz();
  r.replay = time_ms([&] {
    linalg::spmm(exec, R, P0);
    exec.synchronize();
  });
  if (with_uniform) {
    r.uniform = time_ms([&] {
      cc::limit_at_samples(exec, up(mesh.M), sharpness(), faces_up, u_up, v_up, P0, isolation, options, true);
      exec.synchronize();
    });
    peak(true);
    const auto uniform = down(
        cc::limit_at_samples(exec, up(mesh.M), sharpness(), faces_up, u_up, v_up, P0, isolation, options, true).position);
    exec.synchronize();
    r.uniform_peak_mb = peak(false);
    const double diag = diagonal(mesh.positions);
    for (index_t i = 0; i < ours.data.size(); ++i)
      r.from_uniform = std::max(r.from_uniform, std::abs(ours.data[i] - uniform.data[i]) / diag);
  }
  r.uniform_points = uniform_points(mesh, isolation);
  return r;
}

void print(const Row& r) {
  std::printf("%-14s %2d %-4s %9lld %8.2f %8.2f %9.2f %9lld %10lld %8.0f %8.0f %9.1f %9.1f %6.1f %6.1f %9lld %7.2g "
              "%7.2g %9lld %8.2f %8.3f\n",
              r.mesh.c_str(), r.isolation, r.device.c_str(), static_cast<long long>(r.samples), r.build, r.eval,
              r.uniform, static_cast<long long>(r.points), static_cast<long long>(r.uniform_points), r.peak_mb,
              r.uniform_peak_mb, r.far_build, r.far_eval, r.far_build / r.build, r.far_eval / r.eval,
              static_cast<long long>(r.far_points), r.from_uniform, r.from_far, static_cast<long long>(r.patches),
              r.patch_ms, r.replay);
  std::fflush(stdout);
}

void write_row(std::FILE* f, const Row& r) {
  std::fprintf(f,
               "\"mesh\": \"%s\", \"isolation\": %d, \"device\": \"%s\", \"samples\": %lld, \"approximated\": %lld, "
               "\"build_ms\": %.4f, \"eval_ms\": %.4f, \"uniform_ms\": %.4f, \"points\": %lld, \"uniform_points\": %lld, "
               "\"peak_mb\": %.1f, \"uniform_peak_mb\": %.1f, \"far_build_ms\": %.3f, \"far_eval_ms\": %.3f, "
               "\"far_points\": %lld, \"far_patches\": %lld, \"from_uniform\": %.3g, \"from_far\": %.3g, "
               "\"patches\": %lld, \"patches_ms\": %.4f, \"replay_ms\": %.4f, \"replay_nnz\": %lld",
               r.mesh.c_str(), r.isolation, r.device.c_str(), static_cast<long long>(r.samples),
               static_cast<long long>(r.approximated), r.build, r.eval, r.uniform, static_cast<long long>(r.points),
               static_cast<long long>(r.uniform_points), r.peak_mb, r.uniform_peak_mb, r.far_build, r.far_eval,
               static_cast<long long>(r.far_points), static_cast<long long>(r.far_patches), r.from_uniform, r.from_far,
               static_cast<long long>(r.patches), r.patch_ms, r.replay, static_cast<long long>(r.replay_nnz));
}

int run(int argc, char** argv) {
  std::string json;
  int rate = 8, cpu_max = 4, uniform_max = 5;
  struct Case {
    std::string path;
    int first, last;
  };
  std::vector<Case> cases;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&] {
      if (i + 1 >= argc) throw Error(a + " needs a value");
      return std::string(argv[++i]);
    };
    if (a == "--json") json = value();
    else if (a == "--rate") rate = std::stoi(value());
    else if (a == "--cpu-max-level") cpu_max = std::stoi(value());
    else if (a == "--uniform-max-level") uniform_max = std::stoi(value());
    else {
      const auto colon = a.rfind(':'), dash = a.rfind('-');
      if (colon == std::string::npos || dash == std::string::npos || dash < colon)
        throw Error("expected MESH.obj:L0-L1, got " + a);
      cases.push_back({a.substr(0, colon), std::stoi(a.substr(colon + 1, dash - colon - 1)), std::stoi(a.substr(dash + 1))});
    }
  }
  if (cases.empty())
    throw Error("usage: spmesh_bench_adaptive [--json FILE] [--rate N] [--cpu-max-level L] [--uniform-max-level L] "
                "MESH.obj:L0-L1 ...");
  linalg::cpu::Executor cpu;
  std::vector<Row> rows;
  std::vector<double> rates{memory_gbs(cpu)};
#if defined(__CUDACC__)
  linalg::cuda::Executor gpu;
  rates.push_back(memory_gbs(gpu));
#endif
  std::printf("rate %d; CPU threads %d\n%-14s %2s %-4s %9s %8s %8s %9s %9s %10s %8s %8s %9s %9s %6s %6s %9s %7s %7s "
              "%9s %8s %8s  (ms; points: vertex data rows, adaptive and uniform; peak: the GPU pool's MB, adaptive "
              "build + eval and uniform; far: OpenSubdiv's adaptive build and eval on one core, xb/xe over spmesh's; "
              "|d|: over the diagonal; patches: adaptive_patches' count and time; replay: R_adaptive P0)\n",
              rate, cpu.threads(), "mesh", "L", "dev", "samples", "build", "eval", "uniform", "points", "uniform pts",
              "peak", "u peak", "far build", "far eval", "xb", "xe", "far pts", "|d|unif", "|d|far", "patches",
              "patch ms", "replay");
  for (const auto& c : cases) {
    const auto mesh = meshops::read_obj(c.path);
    const auto tags = schemes::read_tags(mesh);
    const auto options = schemes::options_from(tags);
    const std::string name = c.path.substr(c.path.find_last_of('/') + 1);
    const auto layout = cc::tessellation_samples(cpu, mesh.M, rate);
    const std::vector<index_t> faces(layout.faces.data(), layout.faces.data() + layout.faces.size());
    const std::vector<double> u(layout.u.data(), layout.u.data() + layout.u.size()),
        v(layout.v.data(), layout.v.data() + layout.v.size());
    const std::vector<double> points(mesh.positions.data.begin(), mesh.positions.data.end());
    for (int L = c.first; L <= c.last; ++L) {
      // OpenSubdiv on the host, once a level.
      const double far_build = time_ms([&] { test::FarAdaptive(mesh, tags.sharpness, options, L); });
      const test::FarAdaptive far(mesh, tags.sharpness, options, L);
      const double far_eval = time_ms([&] { far.evaluate(points, faces, u, v); });
      const auto by_far = far.evaluate(points, faces, u, v);
      auto finish = [&](Row r, const linalg::Dense<double>& ours, const char* device) {
        r.mesh = name, r.device = device, r.far_build = far_build, r.far_eval = far_eval;
        r.far_points = std::int64_t(far.points()), r.far_patches = std::int64_t(far.patches());
        const double diag = diagonal(mesh.positions);
        for (std::size_t i = 0; i < by_far.position.size(); ++i)
          r.from_far = std::max(r.from_far, std::abs(ours.data[index_t(i)] - by_far.position[i]) / diag);
        rows.push_back(r);
        print(r);
      };
      auto run_on = [&](auto& exec, auto up, auto down, auto peak, const char* device) {
        linalg::Dense<double> ours;
        const Row r = measure(ours, exec, up, down, peak, mesh, tags, options, faces, u, v, L, L <= uniform_max);
        finish(r, ours, device);
      };
#if defined(__CUDACC__)
      run_on(gpu, [](const auto& x) { return linalg::cuda::to_device(x); },
             [](const auto& x) { return linalg::cuda::to_host(x); },
             [](bool reset) {
               if (reset) linalg::Device::reset_peak();
               return double(linalg::Device::peak_bytes()) / 1e6;
             },
             "gpu");
#endif
      auto same = [](const auto& x) { return x.clone(); };
      if (L <= cpu_max) run_on(cpu, same, same, [](bool) { return 0.0; }, "cpu");
    }
  }
  if (!json.empty()) write_json(json, rates, rows, write_row);
  return 0;
}

}  // namespace

}  // namespace spmesh::bench

int main(int argc, char** argv) {
  try {
    return spmesh::bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spmesh_bench_adaptive: %s\n", e.what());
    return 1;
  }
}
