// What spmesh_bench_subdivision's two translation units share: bench/subdivision.cpp (the
// command line, the peers and the CPU's rows, compiled by the host compiler as a CPU user's
// program is; compiled by nvcc the library's CPU loops run slower, through its __host__ __device__
// lambdas' wrappers: bench/RESULTS.md, "Machines and commands") and cuda/subdivision.cu (the
// GPU's rows and cuSPARSE, nvcc, in a CUDA build with SPMESH_BENCH_GPU defined).
// spmesh's measurements are run_spmesh, written once for any executor.
#pragma once

#include "linalg/spmv.hpp"
#include "linalg/stencil_csr.hpp"
#include "meshops/info.hpp"
#include "meshops/mesh.hpp"
#include "schemes/schemes.hpp"
#include "schemes/tags.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

namespace spmesh::bench {

// Median of runs of f (at least 3 unless one run takes more than --budget-ms's third).
double time_ms(const std::function<void()>& f);

// Order-free sums of a point set: sum of coordinates and of squared coordinates.
struct Sums {
  double sum = 0, squares = 0;
  template <class T>
  static Sums of(const T* p, std::size_t n) {
    Sums s;
    for (std::size_t i = 0; i < n; ++i) s.sum += p[i], s.squares += double(p[i]) * p[i];
    return s;
  }
  double rel_diff(const Sums& o) const {
    return std::max(std::abs(sum - o.sum) / std::max(1.0, std::abs(o.sum)),
                    std::abs(squares - o.squares) / std::max(1.0, o.squares));
  }
};

struct Row {
  std::string mesh, device;
  int level = 0;
  long long faces = 0, vertices = 0, r_nnz = 0;
  double dynamic = 0, build = 0, eval = 0, compose = 0, replay = 0;  // ms; < 0: not run
  double osd_build = -1, osd_eval_serial = -1, osd_eval_omp = -1;   // same level; < 0: not run
  double cgal = -1, openmesh = -1;  // sqrt3 peers, whole refinement of the level; < 0: not run
  double peak_mib = 0, replay_vs_eval = 0, vs_peer = 0;              // checks
  double estimate_mib = 0;  // Scheme::estimate_size's one_pass bytes: the peak must not exceed it
  double replay_bytes = 0, replay_of_copy = 0;  // replay's bytes floor; its rate over copy's
  // The stencil table (linalg/stencil_csr.hpp): encoding time, replay on it, its bytes floor,
  // its rate over copy's, its distinct weight lists, and its difference to the plain replay.
  double encode = -1, replay_stencils = -1, stencil_bytes = 0, stencil_of_copy = 0;
  double stencils = 0, stencils_vs_replay = 0;
  double cusparse_replay = -1;  // cuSPARSE's fastest route on the same R (GPU)
  // Catmull-Clark: eval level by level (no patches); the patches' depth and the share of the
  // patch level's faces refined level by level; eval with patches 1 .. 4 levels deep (the
  // deepest level of a mesh only).
  double eval_levels = -1, region_share = -1;
  int patch_depth = 0;
  double eval_depth[5] = {-1, -1, -1, -1, -1};
  // The eval recorded once (Executor::record; on the GPU one graph) and replayed; whether the
  // replay gives the eval's bits.
  double eval_recorded = -1;
  bool recorded_same = false;
};

struct Case {
  std::string name;
  meshops::PolyMesh mesh;
  meshops::MeshInfo info;
  schemes::TagSettings tags;
  schemes::Options options;
  linalg::Dense<float> P0;
};

// The composed R and the input on an executor's memory, for more measurements on them.
template <class S>
using WithR = std::function<void(const linalg::Csr<float, S>& R, const linalg::Dense<float, S>& P0, Row& row)>;

// spmesh on one executor (up/down move host data to its memory and back); returns the eval.
// with_R, where given, measures more on the composed R (the GPU's cuSPARSE replay).
template <class Scheme, class Exec, class Up, class Down>
linalg::Dense<float> run_spmesh(Exec& exec, const Case& c, int level, bool compose, bool deepest,
                                Row& row, Up up, Down down, const WithR<typename Exec::space>& with_R = {}) {
  using S = typename Exec::space;
  const auto P0 = up(c.P0);
  auto inputs = [&] {  // fresh copies: build consumes its mesh and sharpness
    return std::make_pair(up(c.mesh.M), schemes::Sharpness<S>{up(c.tags.sharpness.edges),
                                                              up(c.tags.sharpness.vertices)});
  };
  S::reset_peak();
  linalg::Dense<float, S> P;
  row.dynamic = time_ms([&] {
    P = {};  // the last run's result is not part of this run's peak
    auto [m, C] = inputs();
    P = schemes::build_and_eval<Scheme>(exec, std::move(m), std::move(C), level, P0, c.options)
            .data;
    exec.synchronize();
  });
  row.peak_mib = S::peak_bytes() / 1048576.0;
  schemes::Plan<Scheme, S> plan;
  row.build = time_ms([&] {
    auto [m, C] = inputs();
    plan = schemes::build<Scheme>(exec, std::move(m), std::move(C), level, c.options);
    exec.synchronize();
  });
  row.eval = time_ms([&] {
    P = schemes::eval(exec, plan, P0);
    exec.synchronize();
  });
  if constexpr (std::is_same_v<Scheme, schemes::CatmullClark>) {
    namespace cc = schemes::catmull_clark;
    row.eval_levels = time_ms([&] {
      P = schemes::eval_by_levels(exec, plan, P0);
      exec.synchronize();
    });
    const auto& p = plan.patches;
    row.patch_depth = p.depth;
    if (p) row.region_share = double(p.region_count) / std::get<cc::QuadLevel<S>>(plan.levels[p.level]).faces;
    for (int d = 1; deepest && d <= cc::max_patch_depth; ++d) {
      plan.patches = cc::find_patches(exec, plan, d);
      row.eval_depth[d] = time_ms([&] {
        P = schemes::eval(exec, plan, P0);
        exec.synchronize();
      });
    }
    plan.patches = cc::choose_patches(exec, plan);
    P = schemes::eval(exec, plan, P0);
  }
  linalg::Dense<float> eval_host = down(P);
  {
    auto recording = exec.record([&] { return schemes::eval(exec, plan, P0); });
    row.eval_recorded = time_ms([&] {
      recording.replay();
      exec.synchronize();
    });
    const linalg::Dense<float> replayed = down(recording.replay());
    row.recorded_same = replayed.data.size() == eval_host.data.size() &&
                        std::equal(replayed.data.data(), replayed.data.data() + replayed.data.size(),
                                   eval_host.data.data(), [](float a, float b) {
                                     return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
                                   });
  }
  row.vertices = eval_host.rows;
  row.faces = plan.refined.faces;
  row.compose = row.replay = -1;
  if (!compose) return eval_host;
  linalg::Csr<float, S> R;
  row.compose = time_ms([&] {
    R = schemes::refinement_matrix<float>(exec, plan);
    exec.synchronize();
  });
  row.r_nnz = R.nnz();
  linalg::Dense<float, S> Q(R.rows, 3);
  row.replay = time_ms([&] {
    linalg::spmm(exec, R, P0, Q);
    exec.synchronize();
  });
  const linalg::Dense<float> replay_host = down(Q);
  double diff = 0, scale = 0;
  for (index_t p = 0; p < eval_host.data.size(); ++p) {
    diff = std::max(diff, double(std::abs(eval_host.data[p] - replay_host.data[p])));
    scale = std::max(scale, double(std::abs(eval_host.data[p])));
  }
  row.replay_vs_eval = diff / scale;
  // Fewest bytes P = R P0 moves (design.md "Performance model"), float weights and xyz data.
  row.replay_bytes = 8.0 * R.nnz() + 16.0 * R.rows + 12.0 * R.cols;

  // The same replay on R's stencil table: 16-bit columns where R has at most 65536.
  auto stencil_replay = [&]<class Column>() {
    linalg::StencilCsr<float, Column, S> table;
    row.encode = time_ms([&] {
      table = linalg::encode_stencils<Column>(exec, R);
      exec.synchronize();
    });
    row.stencils = table.stencils;
    row.replay_stencils = time_ms([&] {
      linalg::spmm(exec, table, P0, Q);
      exec.synchronize();
    });
    const linalg::Dense<float> coded = down(Q);
    double d = 0;
    for (index_t p = 0; p < coded.data.size(); ++p)
      d = std::max(d, double(std::abs(coded.data[p] - replay_host.data[p])));
    row.stencils_vs_replay = d / scale;
    row.stencil_bytes = double(sizeof(Column)) * R.nnz() + 20.0 * R.rows +
                        4.0 * table.table.size() + 12.0 * R.cols;
  };
  if (R.cols <= 65536) stencil_replay.template operator()<std::uint16_t>();
  else stencil_replay.template operator()<index_t>();
  if (with_R) with_R(R, P0, row);
  return eval_host;
}

// The GPU's rows (cuda/subdivision.cu): the GPU's name and its device-to-device copy rate
// (GB/s); run_spmesh on a fresh GPU executor (an executor keeps its largest temporary storage,
// which would count in the next level's peak memory), with cuSPARSE's fastest replay on the same
// R and the replays' rates over the copy's; the eval copied to the host into `eval`.
struct GpuInfo {
  std::string name;
  double copy_gbs = 0;
};
GpuInfo gpu_info();
template <class Scheme>
Row gpu_row(const Case& c, int level, bool compose, bool deepest, double copy_gbs, linalg::Dense<float>& eval);

}  // namespace spmesh::bench
