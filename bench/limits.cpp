// spmesh_bench_limits: the limit surface at the vertices of level L (schemes/limit.hpp) on the
// CPU and, compiled by nvcc (cuda/limits.cu), the GPU, against OpenSubdiv on the same host. For
// each mesh and level, positions in float:
//   limit     limit_at_vertices from the base mesh in the executor's memory (build, eval, the
//             masks): positions and both tangents, topology that changes every frame;
//   W build   limit_matrices: the positions' and tangents' masks composed with R;
//   W replay  W_position P0, one SpMV a pose, against its bytes floor (W's row offsets, columns
//             and values read once, P0 read, the limit points written, at the memory rate);
//   osd       OpenSubdiv 3.5 on the host (Far, double: uniform refinement with full topology,
//             PrimvarRefiner::Interpolate level by level, then Limit with both tangents), and
//             its Limit alone; single-threaded, as Far is.
// The largest difference of a limit point from OpenSubdiv's is printed beside (the vertex
// correspondence of tests/schemes/osd_parity.cpp is not made here: OpenSubdiv's level-L vertex
// order differs in its edge points, so the difference is taken over the vertex points, which
// both number alike).
// With --samples N (Catmull-Clark), the limit at N random (face, u, v) of each mesh's quads (a
// polygon mesh's level 1), by limit_at_samples at depth 0, positions and both derivatives in float,
// in two sets: faces whose four corners are regular (a bicubic patch each) and faces with one
// smooth extraordinary corner (Stam's evaluation, stam.hpp); per point, Stam's over the patches'.
// With --tessellate N,..., each mesh's limit surface tessellated at rate N (Catmull-Clark; the
// fewest levels down, 1 to 3, that hold every point in a patch or Stam's quad, else three with
// the points none holds approximated, both reported), positions and both derivatives in float:
//   layout    tessellation_samples on the executor: the points as samples and the facets;
//   tessellate  tessellate from the base mesh in the executor's memory: the layout, its points
//             (limit_at_samples) and their normals, topology that changes every frame;
//   W build   limit_at_samples_matrices (positions' and derivatives' W) ...
//   W replay  ... and the three SpMVs a pose, against their bytes floor;
//   bfr       OpenSubdiv's Bfr tessellation of every face at rate N (bench/peers/opensubdiv_bfr.hpp:
//             each point once, positions, derivatives and normals, double) on all of the host's
//             cores, from its Far refiner (made untimed); xbfr its time over tessellate's;
//   bfr re    the same with each face's surface, pattern and owned points kept (BfrTessellator),
//             only the points evaluated, as a Bfr user re-tessellating an animated mesh would;
//             xre its time over W replay's;
//   far W, far re  Far's LimitStencilTable of the same points (isolation 6, double): made, once
//             (FarLimitStencils), and applied (UpdateValues and UpdateDerivs, one thread, as Far
//             runs them); xfar the latter over W replay;
//   |d| L2, L6  the largest difference of spmesh's points from Bfr's at approximation levels 2
//             and 6 (its smooth irregular regions are patches of that level), over the diagonal.
//   spmesh_bench_limits [--json FILE] [--scheme catmark|loop] [--cpu-max-level L]
//                       [--samples N] [--samples-json FILE] [--tessellate N,...]
//                       [--tessellate-json FILE] MESH.obj:L ...
// (levels 0 to L of each mesh; spmesh's CPU rows up to --cpu-max-level, default 4).
#include "bench/peers/opensubdiv.hpp"
#include "bench/peers/opensubdiv_bfr.hpp"
#include "bench/rates.hpp"
#include "linalg/cpu/executor.hpp"
#include "linalg/spmv.hpp"
#include "meshops/obj.hpp"
#include "meshops/triangulate.hpp"
#include "schemes/catmull_clark/limit_at.hpp"
#include "schemes/catmull_clark/tessellation.hpp"
#include "schemes/limit.hpp"
#include "schemes/schemes.hpp"
#if defined(__CUDACC__)
#include "linalg/cuda/executor.cuh"
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace spmesh::bench {

namespace {

struct Row {
  std::string mesh, device;
  int level = 0;
  index_t vertices = 0;
  std::int64_t w_entries = 0;
  double limit = 0, w_build = 0, w_replay = 0, w_floor = 0, osd = 0, osd_limit = 0;
  double difference = 0;  // the largest |spmesh - OpenSubdiv| of a vertex point's coordinate, over the diagonal
};

template <class Scheme, class Exec, class Up, class Down>
Row measure(Exec& exec, Up up, Down down, const meshops::PolyMesh& mesh, const schemes::TagSettings& tags,
            const schemes::Options& options, int level, double gbs) {
  using S = typename Exec::space;
  linalg::Dense<float> host_points(mesh.vertex_count(), 3);
  for (index_t p = 0; p < host_points.data.size(); ++p) host_points.data[p] = float(mesh.positions.data[p]);
  const auto P0 = up(host_points);
  auto sharpness = [&] { return schemes::Sharpness<S>{up(tags.sharpness.edges), up(tags.sharpness.vertices)}; };
  Row r;
  r.level = level;
  r.limit = time_ms([&] {
    schemes::limit_at_vertices<Scheme>(exec, up(mesh.M), sharpness(), level, P0, options);
    exec.synchronize();
  });
  r.w_build = time_ms([&] {
    schemes::limit_matrices<float, Scheme>(exec, up(mesh.M), sharpness(), level, options);
    exec.synchronize();
  });
  const auto W = schemes::limit_matrices<float, Scheme>(exec, up(mesh.M), sharpness(), level, options);
  linalg::Dense<float, S> out(W.position.rows, 3);
  r.w_replay = time_ms([&] {
    linalg::spmm(exec, W.position, P0, out);
    exec.synchronize();
  });
  r.vertices = W.position.rows, r.w_entries = W.position.nnz();
  const double bytes = 4.0 * (W.position.rows + 1) + 8.0 * double(W.position.nnz()) + 12.0 * (P0.rows + out.rows);
  r.w_floor = gbs > 0 ? bytes / (gbs * 1e6) : 0;
  // Against OpenSubdiv at the vertex points (ids below the base's vertex count, in both orders).
  const auto limit = down(schemes::limit_at_vertices<Scheme>(exec, up(mesh.M), sharpness(), level, P0, options).position);
  const bool loop = Scheme::triangles_only;
  const auto scheme = loop ? OpenSubdiv::Sdc::SCHEME_LOOP : OpenSubdiv::Sdc::SCHEME_CATMARK;
  linalg::cpu::Executor host;
  const int osd_level = level == 0 && !loop && linalg::has_faces_other_than(host, mesh.M, 4) ? 1 : level;
  const auto refined = test::osd_refine(mesh, tags.sharpness, options, osd_level, false, scheme);
  const auto expected = test::osd_limit(refined);
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (index_t v = 0; v < mesh.vertex_count(); ++v)
    for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], mesh.positions(v, c)), hi[c] = std::max(hi[c], mesh.positions(v, c));
  const double diagonal = std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  for (index_t v = 0; v < mesh.vertex_count(); ++v)
    for (int c = 0; c < 3; ++c)
      r.difference = std::max(r.difference, std::abs(double(limit(v, c)) - expected.position[3 * v + c]) / diagonal);
  return r;
}

void print(const Row& r) {
  std::printf("%-14s %2d %-4s %10lld %11lld %9.3f %9.3f %9.4f %8.4f %6.2f %9.1f %9.1f %9.2g\n", r.mesh.c_str(),
              r.level, r.device.c_str(), static_cast<long long>(r.vertices), static_cast<long long>(r.w_entries),
              r.limit, r.w_build, r.w_replay, r.w_floor, r.w_floor > 0 ? r.w_replay / r.w_floor : 0.0, r.osd,
              r.osd_limit, r.difference);
  std::fflush(stdout);
}

void write_row(std::FILE* f, const Row& r) {
  std::fprintf(f,
                 "\"mesh\": \"%s\", \"level\": %d, \"device\": \"%s\", \"vertices\": %lld, \"w_entries\": %lld, "
                 "\"limit_ms\": %.4f, \"w_build_ms\": %.4f, \"w_replay_ms\": %.5f, \"w_floor_ms\": %.5f, "
                 "\"osd_ms\": %.3f, \"osd_limit_ms\": %.3f, \"max_difference\": %.3g",
                 r.mesh.c_str(), r.level, r.device.c_str(), static_cast<long long>(r.vertices),
                 static_cast<long long>(r.w_entries), r.limit, r.w_build, r.w_replay, r.w_floor, r.osd, r.osd_limit,
                 r.difference);
}

// The limit at random samples of two sets of faces of a quad mesh (above).
struct SampleRow {
  std::string mesh, device, set;
  std::int64_t samples = 0;
  double ms = 0;
};

// The faces of quad mesh M whose corners are all regular (set 0) or all but one smooth inner
// extraordinary corner of 3 to max_stam_valence edges (set 1).
std::vector<index_t> sample_faces(const linalg::MeshMatrix<>& M, int set) {
  std::map<std::pair<index_t, index_t>, int> edges;  // faces at each edge
  for (index_t f = 0; f < M.faces; ++f)
    for (int a = 0; a < 4; ++a) {
      const index_t p = M.indices[4 * f + a], q = M.indices[4 * f + (a + 1) % 4];
      ++edges[{std::min(p, q), std::max(p, q)}];
    }
  std::vector<int> valence(std::size_t(M.vertices), 0);
  std::vector<bool> boundary(std::size_t(M.vertices), false);
  for (const auto& [edge, faces] : edges)
    for (index_t v : {edge.first, edge.second}) {
      ++valence[std::size_t(v)];
      if (faces != 2) boundary[std::size_t(v)] = true;
    }
  std::vector<index_t> out;
  for (index_t f = 0; f < M.faces; ++f) {
    int extraordinary = 0, other = 0;
    for (int a = 0; a < 4; ++a) {
      const auto v = std::size_t(M.indices[4 * f + a]);
      if (boundary[v]) ++other;
      else if (valence[v] != 4) ++(valence[v] <= schemes::catmull_clark::max_stam_valence ? extraordinary : other);
    }
    if (other == 0 && extraordinary == set) out.push_back(f);
  }
  return out;
}

template <class Exec, class Up>
std::vector<SampleRow> measure_samples(Exec& exec, Up up, const linalg::MeshMatrix<>& M, const linalg::Dense<float>& P0,
                                       std::int64_t count) {
  using S = typename Exec::space;
  std::vector<SampleRow> rows;
  const index_t V = M.vertices;
  for (int set = 0; set < 2; ++set) {
    const auto candidates = sample_faces(M, set);
    if (candidates.empty()) continue;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const auto n = static_cast<index_t>(count);
    linalg::Array<index_t> faces(n);
    linalg::Array<double> u(n), v(n);
    index_t* face = faces.data();
    double *at_u = u.data(), *at_v = v.data();
    for (std::int64_t s = 0; s < count; ++s)
      face[s] = candidates[rng() % candidates.size()], at_u[s] = unit(rng), at_v[s] = unit(rng);
    const auto faces_up = up(faces);
    const auto u_up = up(u), v_up = up(v);
    const auto points = up(P0);
    SampleRow r;
    r.set = set == 0 ? "regular" : "stam", r.samples = count;
    r.ms = time_ms([&] {
      schemes::catmull_clark::limit_at_samples(
          exec, up(M), schemes::Sharpness<S>{up(linalg::Coo<float>{V, V, {}, {}, {}}), up(linalg::Array<float>(V, 0.0f))},
          faces_up, u_up, v_up, points, 0);
      exec.synchronize();
    });
    rows.push_back(r);
  }
  return rows;
}

void print(const SampleRow& r, double regular_ms) {
  std::printf("%-14s %-4s %-8s %10lld %9.3f %9.1f %7.2f\n", r.mesh.c_str(), r.device.c_str(), r.set.c_str(),
              static_cast<long long>(r.samples), r.ms, double(r.samples) / (r.ms * 1e3), r.ms / regular_ms);
  std::fflush(stdout);
}

void write_sample_row(std::FILE* f, const SampleRow& r) {
  std::fprintf(f, "\"mesh\": \"%s\", \"device\": \"%s\", \"set\": \"%s\", \"samples\": %lld, \"ms\": %.4f",
               r.mesh.c_str(), r.device.c_str(), r.set.c_str(), static_cast<long long>(r.samples), r.ms);
}

// The tessellation of a quad mesh at one rate (above).
struct TessellationRow {
  std::string mesh, device;
  int rate = 0;
  std::int64_t points = 0, facets = 0;
  double layout = 0, tessellate = 0, w_build = 0, w_replay = 0, w_floor = 0, bfr = 0, bfr_replay = 0;
  double far_build = 0, far_replay = 0;  // Far's LimitStencilTable at the same points: made, applied
  double difference[2] = {0, 0};
  int depth = 1;              // the levels spmesh went down
  std::int64_t approximated = 0;  // points no patch held within them (approximate)
};

template <class Exec, class Up, class Down>
TessellationRow measure_tessellation(Exec& exec, Up up, Down down, const meshops::PolyMesh& mesh, int rate,
                                     double gbs) {
  using S = typename Exec::space;
  namespace cc = schemes::catmull_clark;
  const index_t V = mesh.vertex_count();
  linalg::Dense<float> host_points(V, 3);
  for (index_t p = 0; p < host_points.data.size(); ++p) host_points.data[p] = float(mesh.positions.data[p]);
  const auto P0 = up(host_points);
  auto smooth = [&] { return schemes::Sharpness<S>{up(linalg::Coo<float>{V, V, {}, {}, {}}), up(linalg::Array<float>(V, 0.0f))}; };
  TessellationRow r;
  r.rate = rate;
  // The fewest levels down (1 to 3) that hold every point in a patch or Stam's quad; else
  // (boundaries, corners) three, approximating what none holds.
  bool approximate = true;
  for (r.depth = 1; r.depth <= 3 && approximate; ++r.depth) try {
      cc::tessellate(exec, up(mesh.M), smooth(), P0, rate, r.depth);
      approximate = false;
    } catch (const cc::SampleError&) {
    }
  --r.depth;
  r.layout = time_ms([&] {
    cc::tessellation_samples(exec, up(mesh.M), rate);
    exec.synchronize();
  });
  r.tessellate = time_ms([&] {
    cc::tessellate(exec, up(mesh.M), smooth(), P0, rate, r.depth, {}, approximate);
    exec.synchronize();
  });
  const auto layout = cc::tessellation_samples(exec, up(mesh.M), rate);
  r.points = layout.faces.size(), r.facets = layout.facets.faces;
  const auto& faces = layout.faces;
  const auto &u = layout.u, &v = layout.v;
  r.w_build = time_ms([&] {
    cc::limit_at_samples_matrices<float>(exec, up(mesh.M), smooth(), faces, u, v, r.depth, {}, approximate);
    exec.synchronize();
  });
  const auto W = cc::limit_at_samples_matrices<float>(exec, up(mesh.M), smooth(), faces, u, v, r.depth, {}, approximate);
  r.approximated = W.approximated;
  linalg::Dense<float, S> out[3] = {{W.position.rows, 3}, {W.position.rows, 3}, {W.position.rows, 3}};
  r.w_replay = time_ms([&] {
    linalg::spmm(exec, W.position, P0, out[0]);
    linalg::spmm(exec, W.du, P0, out[1]);
    linalg::spmm(exec, W.dv, P0, out[2]);
    exec.synchronize();
  });
  double bytes = 0;
  for (const auto* A : {&W.position, &W.du, &W.dv})
    bytes += 4.0 * (A->rows + 1) + 8.0 * double(A->nnz()) + 12.0 * (P0.rows + A->rows);
  r.w_floor = gbs > 0 ? bytes / (gbs * 1e6) : 0;
  // Against Bfr at the same samples, approximation levels 2 and 6, in double.
  const auto position =
      down(cc::limit_at_samples(exec, up(mesh.M), smooth(), faces, u, v, up(mesh.positions), r.depth, {}, approximate)
               .position);
  const auto refiner = test::osd_refiner(mesh, schemes::Sharpness<>{linalg::Coo<float>{V, V, {}, {}, {}},
                                                                     linalg::Array<float>(V, 0.0f)}, schemes::Options{});
  const std::vector<double> points(mesh.positions.data.begin(), mesh.positions.data.end());
  const auto host_faces = down(faces).to_vector();
  const auto host_u = down(u).to_vector(), host_v = down(v).to_vector();
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (index_t p = 0; p < V; ++p)
    for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], mesh.positions(p, c)), hi[c] = std::max(hi[c], mesh.positions(p, c));
  const double diagonal = std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  for (int level : {2, 6}) {
    const auto bfr = test::bfr_at_samples(*refiner, points, host_faces, host_u, host_v, level);
    double& d = r.difference[level == 2 ? 0 : 1];
    for (index_t p = 0; p < position.rows; ++p)
      for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(double(position(p, c)) - bfr.position[3 * std::size_t(p) + c]) / diagonal);
  }
  return r;
}

void print(const TessellationRow& r) {
  std::printf("%-14s %4d %-4s %10lld %10lld %8.3f %9.3f %8.3f %9.4f %8.4f %6.2f %9.2f %7.1f %9.2f %8.0f %9.2g %9.2g "
              "%9.1f %8.2f %8.0f %5d %8lld\n",
              r.mesh.c_str(), r.rate, r.device.c_str(), static_cast<long long>(r.points),
              static_cast<long long>(r.facets), r.layout, r.tessellate, r.w_build, r.w_replay, r.w_floor,
              r.w_floor > 0 ? r.w_replay / r.w_floor : 0.0, r.bfr, r.bfr / r.tessellate, r.bfr_replay,
              r.bfr_replay / r.w_replay, r.difference[0], r.difference[1], r.far_build, r.far_replay,
              r.far_replay / r.w_replay, r.depth, static_cast<long long>(r.approximated));
  std::fflush(stdout);
}

void write_tessellation_row(std::FILE* f, const TessellationRow& r) {
  std::fprintf(f,
               "\"mesh\": \"%s\", \"rate\": %d, \"device\": \"%s\", \"points\": %lld, \"facets\": %lld, "
               "\"layout_ms\": %.4f, \"tessellate_ms\": %.4f, \"w_build_ms\": %.4f, \"w_replay_ms\": %.5f, "
               "\"w_floor_ms\": %.5f, \"bfr_ms\": %.3f, \"bfr_replay_ms\": %.3f, \"difference_l2\": %.3g, "
               "\"difference_l6\": %.3g, \"far_build_ms\": %.1f, \"far_replay_ms\": %.3f, \"depth\": %d, "
               "\"approximated\": %lld",
               r.mesh.c_str(), r.rate, r.device.c_str(), static_cast<long long>(r.points),
               static_cast<long long>(r.facets), r.layout, r.tessellate, r.w_build, r.w_replay, r.w_floor, r.bfr,
               r.bfr_replay, r.difference[0], r.difference[1], r.far_build, r.far_replay, r.depth,
               static_cast<long long>(r.approximated));
}

int run(int argc, char** argv) {
  std::string json, samples_json, tessellate_json, scheme_name = "catmark";
  std::vector<int> rates_asked;
  int cpu_max = 4;
  std::int64_t samples = 0;
  std::vector<std::pair<std::string, int>> meshes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json" && i + 1 < argc) json = argv[++i];
    else if (a == "--scheme" && i + 1 < argc) scheme_name = argv[++i];
    else if (a == "--cpu-max-level" && i + 1 < argc) cpu_max = std::stoi(argv[++i]);
    else if (a == "--samples" && i + 1 < argc) samples = std::stoll(argv[++i]);
    else if (a == "--samples-json" && i + 1 < argc) samples_json = argv[++i];
    else if (a == "--tessellate" && i + 1 < argc) {
      std::stringstream list(argv[++i]);
      for (std::string rate; std::getline(list, rate, ',');) rates_asked.push_back(std::stoi(rate));
    } else if (a == "--tessellate-json" && i + 1 < argc)
      tessellate_json = argv[++i];
    else if (const auto colon = a.rfind(':'); colon != std::string::npos && a[0] != '-')
      meshes.emplace_back(a.substr(0, colon), std::stoi(a.substr(colon + 1)));
    else
      throw Error("usage: spmesh_bench_limits [--json FILE] [--scheme catmark|loop] [--cpu-max-level L] [--samples N] "
                  "[--samples-json FILE] [--tessellate N,...] [--tessellate-json FILE] MESH.obj:L ...");
  }
  if (scheme_name != "catmark" && scheme_name != "loop") throw Error("--scheme: catmark or loop");
  linalg::cpu::Executor cpu;
  std::vector<Row> rows;
  std::vector<double> rates{memory_gbs(cpu)};
#if defined(__CUDACC__)
  linalg::cuda::Executor gpu;
  rates.push_back(memory_gbs(gpu));
  std::printf("memory rate: CPU %.0f GB/s, GPU %.0f GB/s; CPU threads %d\n", rates[0], rates[1], cpu.threads());
#else
  std::printf("memory rate: CPU %.0f GB/s; CPU threads %d\n", rates[0], cpu.threads());
#endif
  std::printf("%-14s %2s %-4s %10s %11s %9s %9s %9s %8s %6s %9s %9s %9s  (ms; xfloor: W replay over its bytes "
              "floor; osd: OpenSubdiv's refine + interpolate + Limit, then Limit alone, on one core; |lim-osd|: the "
              "largest difference at the vertex points, over the diagonal)\n",
              "mesh", "L", "dev", "vertices", "W entries", "limit", "W build", "W replay", "floor", "xfloor", "osd",
              "osd lim", "|lim-osd|");
  for (const auto& [path, levels] : meshes) {
    auto mesh = meshops::read_obj(path);
    if (scheme_name == "loop" && mesh.M.nnz() != 3 * std::int64_t(mesh.M.faces))
      mesh = meshops::triangulate(mesh, meshops::Triangulation::shortest_diagonal);
    const auto tags = schemes::read_tags(mesh);
    const auto options = schemes::options_from(tags, tags.boundary.value_or(schemes::Boundary::edge_only));
    const std::string name = path.substr(path.find_last_of('/') + 1);
    for (int level = 0; level <= levels; ++level) {
      // OpenSubdiv on the host, once a level.
      const auto scheme = scheme_name == "loop" ? OpenSubdiv::Sdc::SCHEME_LOOP : OpenSubdiv::Sdc::SCHEME_CATMARK;
      const double osd = time_ms([&] { test::osd_limit(test::osd_refine(mesh, tags.sharpness, options, level, false, scheme)); });
      const auto refined = test::osd_refine(mesh, tags.sharpness, options, level, false, scheme);
      const double osd_limit = time_ms([&] { test::osd_limit(refined); });
      auto run_on = [&](auto& exec, auto up, auto down, const char* device, double gbs) {
        Row r = scheme_name == "loop" ? measure<schemes::Loop>(exec, up, down, mesh, tags, options, level, gbs)
                                      : measure<schemes::CatmullClark>(exec, up, down, mesh, tags, options, level, gbs);
        r.mesh = name, r.device = device, r.osd = osd, r.osd_limit = osd_limit;
        rows.push_back(r);
        print(r);
      };
#if defined(__CUDACC__)
      run_on(gpu, [](const auto& x) { return linalg::cuda::to_device(x); },
             [](const auto& x) { return linalg::cuda::to_host(x); }, "gpu", rates[1]);
#endif
      auto same = [](const auto& x) { return x.clone(); };
      if (level <= cpu_max) run_on(cpu, same, same, "cpu", rates[0]);
    }
  }
  if (!json.empty()) write_json(json, rates, rows, write_row);
  if (scheme_name != "catmark") return 0;
  if (samples > 0) std::printf("\n%-14s %-4s %-8s %10s %9s %9s %7s  (ms; Mpts/s; xregular: per point, over the regular set's on the "
              "same device)\n", "mesh (quads)", "dev", "set", "samples", "ms", "Mpts/s", "xreg");
  std::vector<SampleRow> sample_rows;
  for (const auto& [path, levels] : meshes) {
    if (samples <= 0) break;
    auto mesh = meshops::read_obj(path);
    const std::string name = path.substr(path.find_last_of('/') + 1);
    linalg::Dense<float> P0(mesh.vertex_count(), 3);
    for (index_t p = 0; p < P0.data.size(); ++p) P0.data[p] = float(mesh.positions.data[p]);
    linalg::MeshMatrix<> M = mesh.M.clone();
    if (linalg::has_faces_other_than(cpu, M, 4)) {  // a polygon mesh: its level 1
      const index_t V = M.vertices;
      auto refined = schemes::build_and_eval<schemes::CatmullClark>(
          cpu, std::move(M), schemes::Sharpness<>{linalg::Coo<float>{V, V, {}, {}, {}}, linalg::Array<float>(V, 0.0f)}, 1, P0);
      M = refined.mesh.mesh(), P0 = std::move(refined.data);
    }
    auto run_samples = [&](auto& exec, auto up, const char* device) {
      auto measured = measure_samples(exec, up, M, P0, samples);
      for (auto& r : measured) {
        r.mesh = name, r.device = device;
        print(r, measured[0].ms);
        sample_rows.push_back(r);
      }
    };
#if defined(__CUDACC__)
    run_samples(gpu, [](const auto& x) { return linalg::cuda::to_device(x); }, "gpu");
#endif
    run_samples(cpu, [](const auto& x) { return x.clone(); }, "cpu");
  }
  if (!samples_json.empty()) write_json(samples_json, rates, sample_rows, write_sample_row);
  if (rates_asked.empty()) return 0;
  std::printf("\n%-14s %4s %-4s %10s %10s %8s %9s %8s %9s %8s %6s %9s %7s %9s %8s %9s %9s %9s %8s %8s %5s %8s  (ms; bfr: "
              "OpenSubdiv's Bfr on %d threads, from its refiner; bfr re: its surfaces kept, points only; xbfr: bfr over "
              "tessellate, xre: bfr re over W replay; |d| L2, L6: the largest difference from Bfr at its approximation "
              "levels 2 and 6, over the diagonal; far W, far re: Far's LimitStencilTable of the points made (once) and "
              "applied on one thread, xfar: far re over W replay; depth: spmesh's levels down, approx: points "
              "approximated there)\n",
              "mesh", "N", "dev", "points", "facets", "layout", "tessellate", "W build", "W replay", "floor", "xfloor",
              "bfr", "xbfr", "bfr re", "xre", "|d| L2", "|d| L6", "far W", "far re", "xfar", "depth", "approx",
              cpu.threads());
  std::vector<TessellationRow> tessellation_rows;
  for (const auto& [path, levels] : meshes) {
    const auto mesh = meshops::read_obj(path);
    const std::string name = path.substr(path.find_last_of('/') + 1);
    const auto refiner = test::osd_refiner(mesh, schemes::read_tags(mesh).sharpness, schemes::Options{});
    const std::vector<double> points(mesh.positions.data.begin(), mesh.positions.data.end());
    for (const int rate : rates_asked) {
      const double bfr = time_ms([&] { test::bfr_tessellate(*refiner, points, rate); });
      const test::BfrTessellator kept(*refiner, rate);
      const double bfr_replay = time_ms([&] { kept.evaluate(points); });
      // Far's LimitStencilTable of the same points (isolation 6; made once, it takes seconds).
      double far_build = 0, far_replay = 0;
      try {
        const auto layout = schemes::catmull_clark::tessellation_samples(cpu, mesh.M, rate);
        const index_t V = mesh.vertex_count();
        const auto far_start = std::chrono::steady_clock::now();
        const test::FarLimitStencils far(
            mesh, schemes::Sharpness<>{linalg::Coo<float>{V, V, {}, {}, {}}, linalg::Array<float>(V, 0.0f)},
            schemes::Options{}, layout.faces.to_vector(), layout.u.to_vector(), layout.v.to_vector(), 6);
        far_build = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - far_start).count();
        far_replay = time_ms([&] { far.evaluate(points); });
      } catch (const InputError&) {  // not tessellated: said below
      }
      auto run_tessellation = [&](auto& exec, auto up, auto down, const char* device, double gbs) {
        try {
          auto r = measure_tessellation(exec, up, down, mesh, rate, gbs);
          r.mesh = name, r.device = device, r.bfr = bfr, r.bfr_replay = bfr_replay;
          r.far_build = far_build, r.far_replay = far_replay;
          print(r);
          tessellation_rows.push_back(r);
        } catch (const InputError& e) {
          std::printf("%-14s %4d %-4s not tessellated: %s\n", name.c_str(), rate, device, e.what());
        }
      };
#if defined(__CUDACC__)
      run_tessellation(gpu, [](const auto& x) { return linalg::cuda::to_device(x); },
                       [](const auto& x) { return linalg::cuda::to_host(x); }, "gpu", rates[1]);
#endif
      auto same = [](const auto& x) { return x.clone(); };
      run_tessellation(cpu, same, same, "cpu", rates[0]);
    }
  }
  if (!tessellate_json.empty()) write_json(tessellate_json, rates, tessellation_rows, write_tessellation_row);
  return 0;
}

}  // namespace

}  // namespace spmesh::bench

int main(int argc, char** argv) {
  try {
    return spmesh::bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spmesh_bench_limits: %s\n", e.what());
    return 1;
  }
}
