// Where a Catmull-Clark, Loop or sqrt(3) GPU build and eval spend their time: the steps of the
// build on half-edges (catmull_clark/quad_build.hpp, loop/ and sqrt3/triangle_build.hpp; sqrt(3)
// on the mesh without its crease tags) run one by one, each followed by a wait, timed on the
// host (median of --reps runs), with the time the host took to hand the step over (its calls
// returned; a step whose host time is close to its time is bound by the host's calls, not by
// the GPU), and the kernel launches, host waits (cuda::Executor::counts) and device
// allocations each step asks for; Catmull-Clark's eval also by patches ("patches k+d": levels k
// to k + d, after the levels before k). "rec": the same recorded (Executor::record), one graph
// per step: its GPU time without the host's launches.
// The wait after each step adds a few microseconds per step, so the sum exceeds the last line,
// the same work unbroken; what it shows is which step costs what, and how much of it is fixed
// cost.
//   spmesh_build_phases MESH LEVELS [--reps N] [--scheme catmark|loop|sqrt3]
#include "linalg/cuda/executor.cuh"
#include "meshops/io.hpp"
#include "schemes/schemes.hpp"
#include "schemes/tags.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace spmesh::bench {

struct Step {
  std::vector<double> ms, host_ms;
  cuda::Executor::Counts counts;
  std::int64_t allocations = 0;
};

double median(std::vector<double>& v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The half-edge build of one scheme, step by step: Catmull-Clark's quad (or polygon, then quad)
// levels, Loop's triangle levels, or sqrt(3)'s.
template <class Timed, class S = linalg::Device>
schemes::Plan<schemes::CatmullClark, S> catmark_steps(cuda::Executor& exec, linalg::MeshMatrix<S> M,
                                              const schemes::Sharpness<S>& C, int levels,
                                              const schemes::Options& options, Timed& timed) {
  namespace cc = schemes::catmull_clark;
  cc::Plan<S> plan;
  plan.options = options;
  cc::FirstQuadLevel<S> first;
  timed("first_level 0", [&] { first = cc::first_level(exec, std::move(M), C); });
  cc::QuadLevel<S> Q;
  schemes::SharpTable<S> table;
  int l = 0;
  if (auto* L = std::get_if<cc::PolygonLevel<S>>(&first)) {  // a polygon base level, then quads
    timed("sharp_table", [&] { table = schemes::sharp_table(exec, *L); });
    timed("quad_rules 0", [&] {
      L->rules = schemes::half_edge_rules<cc::detail::SmoothMask>(exec, *L, options, table.at(0));
    });
    timed("refine_quads 0", [&] { Q = cc::refine_quads(exec, *L, levels > 1); });
    plan.levels.emplace_back(std::move(*L));
    l = 1;
  } else {
    Q = std::move(std::get<cc::QuadLevel<S>>(first));
    timed("sharp_table", [&] { table = schemes::sharp_table(exec, Q); });
  }
  for (; l < levels; ++l) {
    const std::string at = " " + std::to_string(l);
    timed("quad_rules" + at, [&] {
      Q.rules = schemes::half_edge_rules<cc::detail::SmoothMask>(exec, Q, options, table.at(l));
    });
    timed("refine_quads" + at, [&] {
      cc::QuadLevel<S> child = cc::refine_quads(exec, Q, l + 1 < levels);
      plan.levels.emplace_back(std::move(Q));
      Q = std::move(child);
    });
  }
  plan.refined = std::move(Q.M);
  return plan;
}

template <class Timed, class S = linalg::Device>
schemes::Plan<schemes::Loop, S> loop_steps(cuda::Executor& exec, linalg::MeshMatrix<S> M,
                                  const schemes::Sharpness<S>& C, int levels,
                                  const schemes::Options& options, Timed& timed) {
  namespace lp = schemes::loop;
  schemes::Plan<schemes::Loop, S> plan;
  plan.options = options;
  lp::TriangleLevel<S> L;
  timed("triangle_level 0", [&] { L = lp::triangle_level(exec, std::move(M), C); });
  schemes::SharpTable<S> table;
  timed("sharp_table", [&] { table = schemes::sharp_table(exec, L); });
  for (int l = 0; l < levels; ++l) {
    const std::string at = " " + std::to_string(l);
    timed("rules" + at,
          [&] { L.rules = schemes::half_edge_rules<lp::detail::SmoothMask>(exec, L, options, table.at(l)); });
    timed("refine_triangles" + at, [&] {
      lp::TriangleLevel<S> child = lp::refine_triangles(exec, L, l + 1 < levels);
      plan.levels.emplace_back(std::move(L));
      L = std::move(child);
    });
  }
  plan.refined = std::move(L.M);
  return plan;
}

template <class Timed, class S = linalg::Device>
schemes::Plan<schemes::Sqrt3, S> sqrt3_steps(cuda::Executor& exec, linalg::MeshMatrix<S> M,
                                    const schemes::Sharpness<S>& C, int levels,
                                    const schemes::Options& options, Timed& timed) {
  namespace s3 = schemes::sqrt3;
  schemes::Plan<schemes::Sqrt3, S> plan;
  plan.options = options;
  s3::TriangleLevel<S> L;
  timed("triangle_level 0", [&] { L = s3::triangle_level(exec, std::move(M), C); });
  for (int l = 0; l < levels; ++l) {
    const std::string at = " " + std::to_string(l);
    L.splits_boundary = l % 2 == 1;
    timed("new_points" + at, [&] { s3::place_new_points(exec, L); });
    timed("refine_triangles" + at, [&] {
      s3::TriangleLevel<S> child = s3::refine_triangles(exec, L, l + 1 < levels);
      plan.levels.emplace_back(std::move(L));
      L = std::move(child);
    });
  }
  plan.refined = std::move(L.M);
  return plan;
}

template <class Scheme>
int run(const std::string& path, int levels, int reps) {
  using S = linalg::Device;
  cuda::Executor exec;
  const auto mesh = meshops::read_mesh(path);
  auto tags = schemes::read_tags(mesh);  // sqrt(3) has no crease rules: the mesh without them
  if (!Scheme::crease_rules) tags.sharpness = schemes::smooth_sharpness(mesh.vertex_count());
  const auto options = schemes::options_from(tags);
  linalg::Dense<float> P0(mesh.vertex_count(), 3);
  for (index_t p = 0; p < P0.data.size(); ++p) P0.data[p] = float(mesh.positions.data[p]);
  const auto P0d = cuda::to_device(P0);

  std::vector<std::string> order;
  std::map<std::string, Step> steps;
  std::set<std::string> extra;  // steps of another way, not in the sum
  auto timed = [&](const std::string& name, auto&& f) {
    const auto before = exec.counts();
    const auto allocations = linalg::Device::allocations();
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    f();
    const auto t1 = clock::now();
    exec.synchronize();
    const auto t2 = clock::now();
    if (!steps.count(name)) order.push_back(name);
    auto& s = steps[name];
    s.ms.push_back(std::chrono::duration<double, std::milli>(t2 - t0).count());
    s.host_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    s.counts = {exec.counts().launches - before.launches, exec.counts().waits - before.waits - 1};
    s.allocations = linalg::Device::allocations() - allocations;
  };
  for (int rep = 0; rep <= reps; ++rep) {  // rep 0 warms up
    linalg::MeshMatrix<S> M;
    schemes::Sharpness<S> C;
    timed("upload", [&] {
      M = cuda::to_device(mesh.M);
      C = schemes::Sharpness<S>{cuda::to_device(tags.sharpness.edges),
                                cuda::to_device(tags.sharpness.vertices)};
    });
    auto plan = [&] {
      if constexpr (std::is_same_v<Scheme, schemes::Loop>)
        return loop_steps(exec, std::move(M), C, levels, options, timed);
      else if constexpr (std::is_same_v<Scheme, schemes::Sqrt3>)
        return sqrt3_steps(exec, std::move(M), C, levels, options, timed);
      else
        return catmark_steps(exec, std::move(M), C, levels, options, timed);
    }();
    linalg::Dense<float, S> P;
    for (std::size_t k = 0; k < plan.levels.size(); ++k)
      timed("eval " + std::to_string(k),
            [&] { P = schemes::subdivide(exec, plan, k, k == 0 ? P0d : P); });
    if constexpr (std::is_same_v<Scheme, schemes::CatmullClark>) {  // the last levels by patches
      namespace cc = schemes::catmull_clark;
      timed("choose_patches", [&] { plan.patches = cc::choose_patches(exec, plan); });
      extra.insert("choose_patches");
      if (const auto& patches = plan.patches) {
        const cc::QuadLevel<S>* at[cc::max_patch_depth];
        for (int j = 0; j < patches.depth; ++j)
          at[j] = &std::get<cc::QuadLevel<S>>(plan.levels[patches.level + j]);
        const auto levels_before = [&] {  // the levels before k, level by level
          linalg::Dense<float, S> Q;
          for (int k = 0; k < patches.level; ++k)
            Q = schemes::subdivide(exec, plan, k, k == 0 ? P0d : Q);
          return Q;
        };
        P = linalg::Dense<float, S>();
        const linalg::Dense<float, S> Pk = levels_before();
        const auto& in = patches.level == 0 ? P0d : Pk;
        const std::string name =
            "patches " + std::to_string(patches.level) + "+" + std::to_string(patches.depth);
        timed(name, [&] { P = cc::eval_patches(exec, at, patches, in); });
        extra.insert(name);
        // The same recorded (one graph), and the levels before them recorded: what the GPU
        // takes without the host's launches.
        auto by_patches = exec.record([&] { return cc::eval_patches(exec, at, patches, in); });
        timed(name + " rec", [&] { by_patches.replay(); });
        auto before = exec.record(levels_before);
        timed("before patches rec", [&] { before.replay(); });
        extra.insert(name + " rec"), extra.insert("before patches rec");
      }
    }
    {
      auto recorded = exec.record([&] { return schemes::eval(exec, plan, P0d); });
      timed("eval rec", [&] { recorded.replay(); });
      extra.insert("eval rec");
    }
    timed("free", [&] { plan = {}, P = {}; });  // the arrays go back to the pool
    // All of it again without the steps' waits: upload, build, eval, free (the benchmark's
    // "dynamic" plus the free).
    timed("unbroken", [&] {
      auto p = schemes::build<Scheme>(exec, cuda::to_device(mesh.M),
                             schemes::Sharpness<S>{cuda::to_device(tags.sharpness.edges),
                                                   cuda::to_device(tags.sharpness.vertices)},
                             levels, options);
      P = schemes::eval(exec, p, P0d);
      exec.synchronize();
    });
    P = {};
    if (rep == 0)
      for (auto& [name, s] : steps) s.ms.clear(), s.host_ms.clear();
  }
  std::printf("%s, %d levels: step, median ms, host ms, launches, waits, allocations (%d runs)\n",
              path.c_str(), levels, reps);
  double total = 0;
  for (const auto& name : order) {
    auto& s = steps[name];
    const double ms = median(s.ms);
    if (name == "unbroken") std::printf("  %-18s %8.3f\n", "sum of steps", total);
    else if (!extra.count(name)) total += ms;
    std::printf("  %-18s %8.3f %8.3f %6lld %5lld %5lld\n", name.c_str(), ms, median(s.host_ms),
                (long long)s.counts.launches, (long long)s.counts.waits, (long long)s.allocations);
  }
  return 0;
}

}  // namespace spmesh::bench

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s MESH LEVELS [--reps N] [--scheme catmark|loop|sqrt3]\n", argv[0]);
    return 2;
  }
  int reps = 20;
  std::string scheme = "catmark";
  for (int i = 3; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--reps") reps = std::stoi(argv[i + 1]);
    if (std::string(argv[i]) == "--scheme") scheme = argv[i + 1];
  }
  try {
    if (scheme == "loop") return spmesh::bench::run<spmesh::schemes::Loop>(argv[1], std::stoi(argv[2]), reps);
    if (scheme == "sqrt3") return spmesh::bench::run<spmesh::schemes::Sqrt3>(argv[1], std::stoi(argv[2]), reps);
    if (scheme != "catmark") throw spmesh::InputError("unknown scheme " + scheme + " (catmark, loop or sqrt3)");
    return spmesh::bench::run<spmesh::schemes::CatmullClark>(argv[1], std::stoi(argv[2]), reps);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
