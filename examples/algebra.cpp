// docs/algebra.md's tutorial as a program: three mesh algorithms built step by step from the mesh
// matrix M with spmesh's own operators (a mapped SpMM, an implicit mapped M M^T, conjugate
// gradients), each checked against the library's function of the same name; then the rest of the
// algebra called by name. The mesh (by default data/meshes/creased_cube.obj) is cut into
// triangles first.
#include "examples/expect.hpp"
#include "linalg/cg.hpp"
#include "linalg/cpu/executor.hpp"
#include "linalg/mmt.hpp"
#include "linalg/spmv.hpp"
#include "meshops/components.hpp"
#include "meshops/curvature.hpp"
#include "meshops/geodesics.hpp"
#include "meshops/io.hpp"
#include "meshops/normals.hpp"
#include "meshops/smoothing.hpp"
#include "meshops/triangulate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

using namespace spmesh;
using examples::expect;

// Face k's area vector: half the sum of its consecutive corners' cross products (Newell).
struct AreaVector {
  linalg::MeshView m;
  const double* P;  // vertices x 3
  double* A;        // faces x 3
  SPMESH_HD void operator()(index_t k) const {
    double sum[3] = {0, 0, 0};
    for (index_t p = m.begin(k); p < m.end(k); ++p) {
      const double* a = P + 3 * m.index(p);
      const double* b = P + 3 * m.index(p + 1 < m.end(k) ? p + 1 : m.begin(k));
      sum[0] += a[1] * b[2] - a[2] * b[1], sum[1] += a[2] * b[0] - a[0] * b[2], sum[2] += a[0] * b[1] - a[1] * b[0];
    }
    for (int x = 0; x < 3; ++x) A[3 * k + x] = sum[x] / 2;
  }
};

// What vertices i and j meet in triangle k: half the cotangent at its third corner; a vertex
// with itself, minus half the cotangents at the other two.
struct Cotangents {
  linalg::MeshView m;
  const double* P;
  SPMESH_HD double cot(index_t k, index_t at) const {  // the angle at corner `at` of triangle k
    const double* o = P + 3 * m.index(m.begin(k) + at);
    const double* a = P + 3 * m.index(m.begin(k) + (at + 1) % 3);
    const double* b = P + 3 * m.index(m.begin(k) + (at + 2) % 3);
    double e[3], f[3];
    for (int x = 0; x < 3; ++x) e[x] = a[x] - o[x], f[x] = b[x] - o[x];
    const double n[3] = {e[1] * f[2] - e[2] * f[1], e[2] * f[0] - e[0] * f[2], e[0] * f[1] - e[1] * f[0]};
    return (e[0] * f[0] + e[1] * f[1] + e[2] * f[2]) / std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  }
  SPMESH_HD double operator()(const linalg::Collision& c) const {
    if (c.slot_i == c.slot_j) return -(cot(c.k, (c.slot_i + 1) % 3) + cot(c.k, (c.slot_i + 2) % 3)) / 2;
    return cot(c.k, 3 - c.slot_i - c.slot_j) / 2;
  }
};

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "data/meshes/creased_cube.obj";
  cpu::Executor exec;
  const auto mesh = meshops::triangulate(meshops::read_mesh(path));
  const auto& M = mesh.M;
  const auto& P = mesh.positions;
  const index_t vertices = mesh.vertex_count(), faces = mesh.face_count();

  // 1. Vertex normals: N = M A with val -> 1, each row then made unit.
  linalg::Dense<double> A(faces, 3), N(vertices, 3);
  exec.for_each(faces, AreaVector{M.view(), P.data.data(), A.data.data()});
  linalg::spmm(exec, linalg::to_csr(exec, M), A, N, linalg::map::constant(1.0));
  for (index_t v = 0; v < vertices; ++v) {
    const double length = std::sqrt(N(v, 0) * N(v, 0) + N(v, 1) * N(v, 1) + N(v, 2) * N(v, 2));
    for (int x = 0; x < 3; ++x) N(v, x) /= length;
  }
  expect(examples::max_difference(N, meshops::vertex_normals(exec, M, P)) < 1e-15, "N = M A is vertex_normals");

  // 2. The cotangent Laplacian: L = M M^T {Q^0 + Q^1 + Q^-1}[cot], no M^T formed.
  const auto L = linalg::mmt(exec, M, linalg::Circulant{0, 1, -1}, Cotangents{M.view(), P.data.data()});
  const auto library_L = meshops::cotangent_laplacian(exec, M, P);
  expect(L.nnz() == library_L.nnz(), "L has the library's pattern");
  for (index_t p = 0; p < L.nnz(); ++p)
    expect(L.indices[p] == library_L.indices[p] && std::abs(L.values[p] - library_L.values[p]) < 1e-14,
           "L is cotangent_laplacian");

  // 3. One implicit smoothing step: (M - t L) X = M P, solved by CG from X = P.
  const double t = 1e-3;
  const auto system = meshops::heat_operator(exec, M, P, t);  // M - t L
  const auto mass = meshops::mass_matrix(exec, M, P);
  linalg::Dense<double> rhs(vertices, 3), X(vertices, 3);
  linalg::spmm(exec, mass, P, rhs);
  exec.copy(P.data.data(), P.data.size(), X.data.data());
  linalg::CgOptions options;
  options.tolerance = 1e-12;
  const auto solve = linalg::conjugate_gradient(exec, system, rhs, X, options);
  expect(solve.converged, "CG converged");
  expect(examples::max_difference(X, meshops::implicit_smoothing(exec, M, P, t, options).points) < 1e-12,
         "X is implicit_smoothing");

  // The rest of the algebra, by name.
  const auto K = meshops::angle_defects(exec, M, P);    // 2 pi - the angles at each vertex
  const auto H = meshops::mean_curvature(exec, M, P);   // -1/2 (M^-1 L P) . N
  const auto components = meshops::vertex_components(exec, M);
  linalg::Array<index_t> sources(1);
  sources[0] = 0;
  const auto geodesic = meshops::heat_geodesic(exec, M, P, sources);  // from vertex 0
  double total_K = 0, farthest = 0;
  for (index_t v = 0; v < vertices; ++v) total_K += K[v], farthest = std::max(farthest, geodesic.distance[v]);
  const index_t edges = meshops::edge_matrix(exec, M).nnz() / 2;
  const double euler = vertices - edges + faces;
  expect(std::abs(total_K - 2 * std::numbers::pi * euler) < 1e-9, "the angle defects sum to 2 pi (V - E + F)");
  expect(components.count >= 1 && farthest > 0, "distances from vertex 0 in its component");
  std::printf("%s: %d triangles; N = M A, L = M M^T[cot] and CG's smoothing (%d iterations) equal the library's; "
              "the angle defects sum to %.6f = 2 pi (V - E + F), mean curvature at vertex 0 %.4f, %d component(s), "
              "the farthest vertex from vertex 0 at %.4f\n",
              path.c_str(), faces, solve.iterations, total_K, H[0], components.count, farthest);
  return 0;
}
