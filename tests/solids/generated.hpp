// Volume meshes made in the tests: a grid of hexahedra (and its perturbed positions), a closed
// quad surface with poles of any valence, a surface extruded into layers of hexahedra, a mesh of
// every cell kind, random creases on a boundary; and how far apart two results are.
#pragma once

#include "linalg/formats.hpp"
#include "linalg/mesh_matrix.hpp"
#include "linalg/cpu/executor.hpp"
#include "solids/cells.hpp"
#include "solids/sharpness.hpp"
#include "solids/topology.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

namespace spmesh::test {

using solids::CellMesh;

// n^3 hexahedra of a unit grid; vertex (i, j, k) = i + (n + 1) (j + (n + 1) k).
inline CellMesh<> grid_cells(int n) {
  auto id = [&](int i, int j, int k) { return index_t(i + (n + 1) * (j + (n + 1) * k)); };
  std::vector<index_t> indices;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        for (const auto& [a, b, c] : std::vector<std::array<int, 3>>{
                 {0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}})
          indices.push_back(id(i + a, j + b, k + c));
  CellMesh<> mesh;
  mesh.vertices = (n + 1) * (n + 1) * (n + 1);
  mesh.offsets = linalg::Array<index_t>(n * n * n + 1);
  for (index_t c = 0; c <= n * n * n; ++c) mesh.offsets[c] = 8 * c;
  mesh.indices = linalg::Array<index_t>(index_t(indices.size()));
  std::copy(indices.begin(), indices.end(), mesh.indices.begin());
  return mesh;
}

// grid_cells(n)'s vertices at their grid coordinates moved by up to 0.2 in each direction.
inline linalg::Dense<double> perturbed_grid(int n, unsigned seed) {
  linalg::Dense<double> P((n + 1) * (n + 1) * (n + 1), 3);
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> jitter(-0.2, 0.2);
  for (index_t v = 0; v < P.rows; ++v)
    for (int x = 0; x < 3; ++x) P(v, x) = double(x == 0 ? v % (n + 1) : x == 1 ? v / (n + 1) % (n + 1) : v / ((n + 1) * (n + 1))) + jitter(random);
  return P;
}

// A closed quad surface with two poles of valence n and every other vertex of valence 3: the
// poles N (0) and S (1), a ring A (2 + i) above the equator and a ring B (2 + n + i) below,
// turned between them; faces (N, A_i, B_i, A_i+1) and (S, B_i+1, A_i+1, B_i), turned outward.
// n = 3 is a cube.
struct Bipyramid {
  linalg::MeshMatrix<> M;
  linalg::Dense<double> positions;
};

inline Bipyramid bipyramid(int n, std::mt19937& random) {
  const double pi = std::acos(-1.0);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  Bipyramid b;
  b.positions = linalg::Dense<double>(2 + 2 * n, 3);
  const double poles[2][3] = {{0, 0, 1.2}, {0, 0, -1.2}};
  for (int v = 0; v < 2; ++v)
    for (int x = 0; x < 3; ++x) b.positions(v, x) = poles[v][x] + jitter(random);
  for (int i = 0; i < 2 * n; ++i) {
    const double angle = pi * i / n;  // A_i at 2 pi i / n, B_i half a step on
    const index_t v = 2 + (i % 2 ? n + i / 2 : i / 2);
    b.positions(v, 0) = std::cos(angle) + jitter(random);
    b.positions(v, 1) = std::sin(angle) + jitter(random);
    b.positions(v, 2) = (i % 2 ? -0.35 : 0.35) + jitter(random);
  }
  std::vector<index_t> offsets{0}, corners;
  for (int i = 0; i < n; ++i) {
    const index_t a = 2 + i, a_next = 2 + (i + 1) % n, below = 2 + n + i, below_next = 2 + n + (i + 1) % n;
    corners.insert(corners.end(), {0, a, below, a_next, 1, below_next, a_next, below});
    offsets.push_back(index_t(corners.size()) - 4), offsets.push_back(index_t(corners.size()));
  }
  // Outward: the enclosed volume (a sum of tetrahedra from the origin) positive.
  double volume = 0;
  for (std::size_t q = 0; q < corners.size(); q += 4)
    for (std::size_t t = 1; t < 3; ++t) {
      const auto p = [&](std::size_t i) { return std::array<double, 3>{b.positions(corners[i], 0), b.positions(corners[i], 1), b.positions(corners[i], 2)}; };
      const auto p0 = p(q), p1 = p(q + t), p2 = p(q + t + 1);
      volume += p0[0] * (p1[1] * p2[2] - p1[2] * p2[1]) - p0[1] * (p1[0] * p2[2] - p1[2] * p2[0]) + p0[2] * (p1[0] * p2[1] - p1[1] * p2[0]);
    }
  if (volume < 0)
    for (std::size_t q = 0; q < corners.size(); q += 4) std::reverse(corners.begin() + q + 1, corners.begin() + q + 4);
  b.M = linalg::MeshMatrix<>(2 + 2 * n, linalg::Array<index_t>(offsets), linalg::Array<index_t>(corners));
  return b;
}

// The quad surface M extruded into `layers` layers of hexahedra: vertex v of layer l is
// v + l * M.vertices, and each face's cell has the face in layer l as its bottom (corners 0-3)
// and in layer l + 1 as its top; an outward surface gives right-handed cells.
inline CellMesh<> extrude(const linalg::MeshMatrix<>& M, index_t layers) {
  CellMesh<> mesh;
  mesh.vertices = M.vertices * (layers + 1);
  std::vector<index_t> indices;
  for (index_t l = 0; l < layers; ++l)
    for (index_t q = 0; q < M.faces; ++q)
      for (index_t up = 0; up < 2; ++up)
        for (index_t p = M.offsets[q]; p < M.offsets[q + 1]; ++p) indices.push_back(M.indices[p] + M.vertices * (l + up));
  mesh.offsets = linalg::Array<index_t>(layers * M.faces + 1);
  for (index_t c = 0; c < mesh.offsets.size(); ++c) mesh.offsets[c] = 8 * c;
  mesh.indices = linalg::Array<index_t>(indices);
  return mesh;
}

// A hexahedron, two prisms beside it and a tetrahedron on one of them, with its positions.
inline std::pair<CellMesh<>, linalg::Dense<double>> mixed_cells() {
  CellMesh<> mixed;
  mixed.vertices = 13;
  const std::vector<index_t> offsets = {0, 8, 14, 20, 24},
                             indices = {0, 1, 2, 3, 4, 5, 6, 7, 1, 8, 9, 5, 10, 11, 1, 9, 2, 5, 11, 6, 5, 10, 11, 12};
  mixed.offsets = linalg::Array<index_t>(offsets);
  mixed.indices = linalg::Array<index_t>(indices);
  const double points[13][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1},
                                {0, 1, 1}, {2, 0, 0}, {2, 1, 0}, {2, 0, 1}, {2, 1, 1}, {1.5, 0.5, 2}};
  linalg::Dense<double> X(13, 3);
  for (index_t v = 0; v < 13; ++v)
    for (int x = 0; x < 3; ++x) X(v, x) = points[v][x];
  return {std::move(mixed), std::move(X)};
}

// Random creases (sharp and semi-sharp) on a quarter of the boundary edges and two corners.
inline solids::SolidSharpness<> random_boundary_sharpness(const CellMesh<>& mesh, unsigned seed) {
  linalg::cpu::Executor cpu;
  const auto ops = solids::boundary_operators(cpu, mesh);
  const auto flags = solids::boundary_flags(cpu, ops, solids::transposes(cpu, ops));
  solids::SolidSharpness<> s{linalg::Array<float>(ops.edges()), linalg::Array<float>(ops.vertices())};
  std::fill(s.edges.begin(), s.edges.end(), 0.0f);
  std::fill(s.vertices.begin(), s.vertices.end(), 0.0f);
  std::mt19937 random(seed);
  const float values[4] = {0.5f, 1.5f, 2.5f, 10.0f};
  for (index_t e = 0; e < ops.edges(); ++e)
    if (flags.edges[e] && random() % 4 == 0) s.edges[e] = values[random() % 4];
  std::vector<index_t> on;
  for (index_t v = 0; v < ops.vertices(); ++v)
    if (flags.vertices[v]) on.push_back(v);
  s.vertices[on[random() % on.size()]] = 10.0f;
  s.vertices[on[random() % on.size()]] = 1.5f;
  return s;
}

// The largest difference between two blocks of positions, over the largest magnitude.
template <class T>
inline double relative_difference(const linalg::Dense<T>& a, const linalg::Dense<T>& b) {
  double worst = 0, scale = 0;
  for (index_t i = 0; i < a.data.size(); ++i)
    worst = std::max(worst, std::abs(double(a.data[i]) - double(b.data[i]))), scale = std::max(scale, std::abs(double(b.data[i])));
  return worst / scale;
}

}  // namespace spmesh::test
