// spmesh_bench_algebra: the mesh algebra of docs/algebra.md on large meshes, side by side with a
// peer in one run (issue 27's benchmark):
//   - the cotangent Laplacian: spmesh's implicit M M^T on the CPU (OpenMP) and, in a CUDA build
//     (cuda/algebra.cu), the GPU; the peer is libigl's cotmatrix algorithm (12 triplets a triangle,
//     Eigen's setFromTriplets), written out here in C++;
//   - 100 iterations of conjugate gradients on implicit smoothing's (M - t L) X = M P, three
//     columns: spmesh's linalg::conjugate_gradient (Jacobi) against Eigen's ConjugateGradient
//     (its diagonal preconditioner, the columns one after another), both with the tolerance at 0
//     so that each takes exactly 100 iterations;
//   - replay: R P0, the refinement matrix of the LEVELS levels applied to the base positions by
//     one SpMM (the C++ side of bench/python_overhead.py's comparison).
// The GPU's CG is also given against a bytes floor: per iteration the SpMM's matrix (12 bytes an
// entry, 4 a row) and its dense input and output (48 bytes a row), at --bandwidth-gbs (default
// an H200's nominal 4,800 GB/s); the rest of an iteration (about 16 passes over n x 3 doubles)
// is above that floor. Times are medians of --repeats runs (default 5) after one warm-up.
//
//   spmesh_bench_algebra MESH:LEVELS... [--repeats N] [--bandwidth-gbs B] [--json FILE]
// This file, the CPU's rows and the peers, is compiled by the host compiler in every build, as a
// CPU user's program is: compiled by nvcc, the library's CPU loops run through its __host__
// __device__ lambdas' wrappers, and its CPU conjugate gradients take longer (bench/RESULTS.md,
// "Machines and commands"). cuda/algebra.cu holds the GPU's rows.
// Each mesh is refined LEVELS times by Catmull-Clark (LEVELS 0: as read) and cut into triangles
// (quads along a diagonal) first. Without arguments: ArmorGuy at levels 4 and 5 from the shared
// folder (4.4M and 17.7M triangles).
#include "bench/algebra.hpp"
#include "linalg/cg.hpp"
#include "linalg/cpu/executor.hpp"
#include "meshops/io.hpp"
#include "meshops/laplacian.hpp"
#include "meshops/triangulate.hpp"
#include "schemes/schemes.hpp"
#include "schemes/tags.hpp"

#include <Eigen/Geometry>
#include <Eigen/IterativeLinearSolvers>
#include <Eigen/Sparse>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace spmesh::bench {

// libigl's cotmatrix: for each triangle and each corner, half the cotangent of its angle on the
// opposite edge's two off-diagonal entries and minus it on the edge's two diagonal entries.
Eigen::SparseMatrix<double> eigen_cotmatrix(const meshops::PolyMesh& mesh) {
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(std::size_t(mesh.face_count()) * 12);
  const auto& P = mesh.positions;
  for (index_t f = 0; f < mesh.face_count(); ++f) {
    const index_t* v = mesh.M.indices.data() + 3 * f;
    for (int corner = 0; corner < 3; ++corner) {
      const index_t o = v[corner], a = v[(corner + 1) % 3], b = v[(corner + 2) % 3];
      Eigen::Vector3d e, g;
      for (int x = 0; x < 3; ++x) e[x] = P(a, x) - P(o, x), g[x] = P(b, x) - P(o, x);
      const double half_cot = e.dot(g) / e.cross(g).norm() / 2;
      triplets.emplace_back(a, b, half_cot);
      triplets.emplace_back(b, a, half_cot);
      triplets.emplace_back(a, a, -half_cot);
      triplets.emplace_back(b, b, -half_cot);
    }
  }
  Eigen::SparseMatrix<double> L(mesh.vertex_count(), mesh.vertex_count());
  L.setFromTriplets(triplets.begin(), triplets.end());
  return L;
}

struct Row {
  std::string mesh, what, target;
  double ms = 0;
  std::string note;
};

std::vector<Row> rows;  // every row printed, for --json

void print(const Row& r) {
  std::printf("%-14s %-26s %-22s %10.3f  %s\n", r.mesh.c_str(), r.what.c_str(), r.target.c_str(), r.ms, r.note.c_str());
  std::fflush(stdout);
  rows.push_back(r);
}

void write_json(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (!file) throw Error(path + ": cannot open for writing");
  std::fprintf(file, "[\n");
  for (std::size_t i = 0; i < rows.size(); ++i)
    std::fprintf(file, "  {\"mesh\": \"%s\", \"what\": \"%s\", \"target\": \"%s\", \"ms\": %.6f}%s\n", rows[i].mesh.c_str(),
                 rows[i].what.c_str(), rows[i].target.c_str(), rows[i].ms, i + 1 < rows.size() ? "," : "");
  std::fprintf(file, "]\n");
  if (std::fclose(file) != 0) throw Error(path + ": write failed");
}

// R P0 by one SpMM into a new block, R of `levels` Catmull-Clark levels of the base mesh (as
// Plan.replay does).
void run_replay(const std::string& name, const meshops::PolyMesh& base, int levels, int repeats) {
  linalg::cpu::Executor cpu;
  auto tags = schemes::read_tags(base);
  const auto plan = schemes::build<schemes::CatmullClark>(cpu, base.M.clone(), std::move(tags.sharpness), levels,
                                                          schemes::options_from(tags));
  const auto R = schemes::refinement_matrix<double>(cpu, plan);
  // The returning form, as Plan.replay: a new output each call.
  const double cpu_ms = median_ms(repeats, [&] { linalg::spmm(cpu, R, base.positions); });
  char note[96];
  std::snprintf(note, sizeof note, "R %d x %d, %lld entries", R.rows, R.cols, static_cast<long long>(R.nnz()));
  print({name, "replay R P0", "spmesh CPU", cpu_ms, note});
#if defined(SPMESH_BENCH_GPU)
  const double gpu_ms = gpu_replay_ms(R, base.positions, repeats);
  std::snprintf(note, sizeof note, "%.1fx spmesh CPU", cpu_ms / gpu_ms);
  print({name, "replay R P0", "spmesh GPU", gpu_ms, note});
#endif
}

void run(const std::string& name, const meshops::PolyMesh& mesh, int repeats, double bandwidth_gbs) {
  const index_t n = mesh.vertex_count();
  std::printf("%s: %d vertices, %d triangles\n", name.c_str(), n, mesh.face_count());
  linalg::cpu::Executor cpu;
  const auto& M = mesh.M;
  const auto& P = mesh.positions;
  char note[160];

  // The cotangent Laplacian.
  const double cpu_L = median_ms(repeats, [&] { meshops::cotangent_laplacian(cpu, M, P); });
  const double eigen_L = median_ms(repeats, [&] { eigen_cotmatrix(mesh); });
  const auto L = meshops::cotangent_laplacian(cpu, M, P);
  std::snprintf(note, sizeof note, "%.2fx Eigen", eigen_L / cpu_L);
  print({name, "cotangent Laplacian", "spmesh CPU", cpu_L, note});
  print({name, "cotangent Laplacian", "Eigen triplets (libigl)", eigen_L, ""});

  // 100 CG iterations on (M - t L) X = M P, t = h^2 as the heat method takes it.
  const double t = 1e-3;
  const auto A = meshops::heat_operator(cpu, M, P, t);
  const auto mass = meshops::mass_matrix(cpu, M, P);
  linalg::Dense<double> B(n, 3);
  linalg::spmm(cpu, mass, P, B);
  linalg::CgOptions options;
  options.tolerance = 0, options.max_iterations = 100, options.check_every = 100;
  linalg::Dense<double> X(n, 3);
  const double cpu_cg = median_ms(repeats, [&] {
    std::copy(P.data.data(), P.data.data() + P.data.size(), X.data.data());
    linalg::conjugate_gradient(cpu, A, B, X, options);
  });
  Eigen::SparseMatrix<double> eigen_A = Eigen::SparseMatrix<double>(
      Eigen::Map<const Eigen::SparseMatrix<double, Eigen::RowMajor>>(n, n, A.nnz(), A.offsets.data(), A.indices.data(),
                                                                     A.values.data()));
  Eigen::ConjugateGradient<Eigen::SparseMatrix<double>, Eigen::Lower | Eigen::Upper> eigen_cg;
  eigen_cg.setMaxIterations(100);
  eigen_cg.setTolerance(0);
  eigen_cg.compute(eigen_A);
  Eigen::MatrixXd eigen_B(n, 3), eigen_X(n, 3);
  for (index_t i = 0; i < n; ++i)
    for (int x = 0; x < 3; ++x) eigen_B(i, x) = B(i, x);
  const double eigen_time = median_ms(repeats, [&] {
    for (int x = 0; x < 3; ++x) eigen_X.col(x) = eigen_cg.solve(eigen_B.col(x));
  });
  std::snprintf(note, sizeof note, "%.2fx Eigen", eigen_time / cpu_cg);
  print({name, "CG 100 iterations x 3", "spmesh CPU", cpu_cg, note});
  print({name, "CG 100 iterations x 3", "Eigen CG", eigen_time, ""});

#if defined(SPMESH_BENCH_GPU)
  const double gpu_L = gpu_laplacian_ms(M, P, repeats);
  std::snprintf(note, sizeof note, "%.1fx spmesh CPU, %.1fx Eigen", cpu_L / gpu_L, eigen_L / gpu_L);
  print({name, "cotangent Laplacian", "spmesh GPU", gpu_L, note});
  const auto gpu_cg = gpu_conjugate_gradient(A, B, P, options, repeats);
  const double floor_ms = 100 * (12.0 * A.nnz() + 4.0 * n + 48.0 * n) / (bandwidth_gbs * 1e6);
  std::snprintf(note, sizeof note, "%.1fx spmesh CPU, %.1fx Eigen, %.1fx the SpMM bytes floor (%.3f ms)",
                cpu_cg / gpu_cg.ms, eigen_time / gpu_cg.ms, gpu_cg.ms / floor_ms, floor_ms);
  print({name, "CG 100 iterations x 3", "spmesh GPU", gpu_cg.ms, note});
  // The GPU's and the CPU's results agree (fixed-order sums; the GPU's SpMM sums long rows in
  // several lanes, so to rounding).
  std::copy(P.data.data(), P.data.data() + P.data.size(), X.data.data());
  linalg::conjugate_gradient(cpu, A, B, X, options);
  double worst = 0;
  for (index_t p = 0; p < X.data.size(); ++p) worst = std::max(worst, std::abs(gpu_cg.X.data[p] - X.data[p]));
  std::printf("%s: GPU and CPU CG results differ by at most %.2e\n", name.c_str(), worst);
#else
  (void)bandwidth_gbs;
#endif
}

}  // namespace spmesh::bench

int main(int argc, char** argv) {
  using namespace spmesh;
  std::vector<std::string> meshes;
  int repeats = 5;
  double bandwidth_gbs = 4800;
  std::string json;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--repeats" && a + 1 < argc) repeats = std::atoi(argv[++a]);
    else if (arg == "--json" && a + 1 < argc) json = argv[++a];
    else if (arg == "--bandwidth-gbs" && a + 1 < argc) bandwidth_gbs = std::atof(argv[++a]);
    else meshes.push_back(arg);
  }
  if (meshes.empty())
    for (const char* level : {":4", ":5"}) meshes.push_back(std::string(SPMESH_SHARED_DIR) + "/meshes/characters/ArmorGuy.obj" + level);
  try {
    for (const auto& spec : meshes) {
      const auto colon = spec.rfind(':');
      const std::string path = colon == std::string::npos ? spec : spec.substr(0, colon);
      const int levels = colon == std::string::npos ? 0 : std::atoi(spec.c_str() + colon + 1);
      auto mesh = meshops::read_mesh(path);
      const std::string name = path.substr(path.rfind('/') + 1) + " L" + std::to_string(levels);
      if (levels > 0) {
        bench::run_replay(name, mesh, levels, repeats);
        linalg::cpu::Executor exec;
        auto tags = schemes::read_tags(mesh);
        auto refined = schemes::build_and_eval<schemes::CatmullClark>(exec, mesh.M.clone(), std::move(tags.sharpness),
                                                                      levels, mesh.positions, schemes::options_from(tags));
        mesh.M = std::move(refined.mesh).mesh();
        mesh.positions = std::move(refined.data);
        mesh.tags.clear();
      }
      bench::run(name, meshops::triangulate(mesh, meshops::Triangulation::shortest_diagonal), repeats, bandwidth_gbs);
    }
    if (!json.empty()) bench::write_json(json);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spmesh_bench_algebra: %s\n", e.what());
    return 1;
  }
  return 0;
}
