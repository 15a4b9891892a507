// Volume meshes made in the tests: a box grid of hexahedra (and its perturbed positions), a closed
// quad surface with poles of any valence (refined once; or one pole cut off for a surface of
// pentagons), a surface extruded into layers of cells (polyhedra above its n-gons), a mesh of
// every cell kind, random creases on a boundary; and how far apart two results are.
#pragma once

#include "linalg/formats.hpp"
#include "linalg/mesh_matrix.hpp"
#include "linalg/cpu/executor.hpp"
#include "schemes/catmull_clark/scheme.hpp"
#include "schemes/schemes.hpp"
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

// nx x ny x nz hexahedra of a unit grid, cells i fastest, then j, then k; vertex (i, j, k) =
// i + (nx + 1) (j + (ny + 1) k).
inline CellMesh<> box_cells(int nx, int ny, int nz) {
  auto id = [&](int i, int j, int k) { return index_t(i + (nx + 1) * (j + (ny + 1) * k)); };
  std::vector<index_t> indices;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        for (const auto& [a, b, c] : std::vector<std::array<int, 3>>{
                 {0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}})
          indices.push_back(id(i + a, j + b, k + c));
  const index_t cells = index_t(nx) * ny * nz;
  CellMesh<> mesh;
  mesh.vertices = index_t(nx + 1) * (ny + 1) * (nz + 1);
  mesh.offsets = linalg::Array<index_t>(cells + 1);
  for (index_t c = 0; c <= cells; ++c) mesh.offsets[c] = 8 * c;
  mesh.indices = linalg::Array<index_t>(index_t(indices.size()));
  std::copy(indices.begin(), indices.end(), mesh.indices.begin());
  return mesh;
}
// n^3 hexahedra of a unit grid; vertex (i, j, k) = i + (n + 1) (j + (n + 1) k).
inline CellMesh<> grid_cells(int n) { return box_cells(n, n, n); }

// box_cells' vertices at their grid coordinates moved by up to 0.2 in each direction.
inline linalg::Dense<double> perturbed_box(int nx, int ny, int nz, unsigned seed) {
  linalg::Dense<double> P(index_t(nx + 1) * (ny + 1) * (nz + 1), 3);
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> jitter(-0.2, 0.2);
  for (index_t v = 0; v < P.rows; ++v)
    for (int x = 0; x < 3; ++x)
      P(v, x) = double(x == 0 ? v % (nx + 1) : x == 1 ? v / (nx + 1) % (ny + 1) : v / ((nx + 1) * (ny + 1))) + jitter(random);
  return P;
}
// grid_cells(n)'s vertices at their grid coordinates moved by up to 0.2 in each direction.
inline linalg::Dense<double> perturbed_grid(int n, unsigned seed) { return perturbed_box(n, n, n, seed); }

// A closed quad surface with two poles of valence n and every other vertex of valence 3: the
// poles N (0) and S (1), a ring A (2 + i) above the equator and a ring B (2 + n + i) below,
// turned between them; faces (N, A_i, B_i, A_i+1) and (S, B_i+1, A_i+1, B_i), turned outward.
// n = 3 is a cube.
struct Surface {
  linalg::MeshMatrix<> M;
  linalg::Dense<double> positions;
};

inline Surface bipyramid(int n, std::mt19937& random) {
  const double pi = std::acos(-1.0);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  Surface b;
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

// Surface s with vertex v cut off: a point a third of the way to v's neighbour on each edge at
// v, each face at v one corner more (its cycle p v q becomes p T_p T_q q), and a face of those
// points in v's place, turned as the surface is; v is gone (the ids above it one less).
inline Surface truncate_vertex(const Surface& s, index_t v) {
  std::vector<index_t> offsets{0}, indices, cap_next(std::size_t(s.M.vertices), -1);
  std::vector<index_t> cut(std::size_t(s.M.vertices), -1);  // the new point toward each neighbour
  std::vector<std::array<double, 3>> points;
  for (index_t u = 0; u < s.M.vertices; ++u) points.push_back({s.positions(u, 0), s.positions(u, 1), s.positions(u, 2)});
  auto point_toward = [&](index_t u) {
    if (cut[std::size_t(u)] < 0) {
      cut[std::size_t(u)] = index_t(points.size());
      std::array<double, 3> p;
      for (int x = 0; x < 3; ++x) p[std::size_t(x)] = (2 * s.positions(v, x) + s.positions(u, x)) / 3;
      points.push_back(p);
    }
    return cut[std::size_t(u)];
  };
  index_t first = -1;
  for (index_t f = 0; f < s.M.faces; ++f) {
    const index_t begin = s.M.offsets[f], n = s.M.offsets[f + 1] - begin;
    for (index_t k = 0; k < n; ++k) {
      const index_t corner = s.M.indices[begin + k];
      if (corner != v) {
        indices.push_back(corner);
        continue;
      }
      const index_t p = s.M.indices[begin + (k + n - 1) % n], q = s.M.indices[begin + (k + 1) % n];
      indices.push_back(point_toward(p)), indices.push_back(point_toward(q));
      cap_next[std::size_t(q)] = p, first = q;  // the cap walks this face's new edge backwards
    }
    offsets.push_back(index_t(indices.size()));
  }
  for (index_t u = first;;) {
    indices.push_back(cut[std::size_t(u)]);
    u = cap_next[std::size_t(u)];
    if (u == first) break;
  }
  offsets.push_back(index_t(indices.size()));
  // v dropped: the ids above it one less.
  for (index_t& id : indices) id -= id > v;
  points.erase(points.begin() + v);
  Surface out{linalg::MeshMatrix<>(index_t(points.size()), linalg::Array<index_t>(offsets), linalg::Array<index_t>(indices)),
              linalg::Dense<double>(index_t(points.size()), 3)};
  for (std::size_t u = 0; u < points.size(); ++u)
    for (int x = 0; x < 3; ++x) out.positions(index_t(u), x) = points[u][std::size_t(x)];
  return out;
}

// The bipyramid of poles of valence n refined once (so that valence-4 vertices, regular edge
// lines, are there too), its points moved a little.
inline Surface refined_bipyramid(int n) {
  std::mt19937 random(100 + n);
  linalg::cpu::Executor cpu;
  const Surface base = bipyramid(n, random);
  auto once = schemes::build_and_eval<schemes::CatmullClark>(cpu, base.M.clone(), schemes::smooth_sharpness(base.M.vertices),
                                                             1, base.positions);
  std::uniform_real_distribution<double> jitter(-0.02, 0.02);
  for (index_t i = 0; i < once.data.data.size(); ++i) once.data.data[i] += jitter(random);
  return {once.mesh.mesh(), std::move(once.data)};
}

// The surface M extruded into `layers` layers of cells: vertex v of layer l is v + l * M.vertices,
// and each face's cell has the face in layer l as its bottom and in layer l + 1 as its top, a
// prism above a triangle, a hexahedron above a quad (the kinds' orders: the face's corners, then
// those above them) and a polyhedron above any other face; an outward surface gives right-handed
// cells.
inline CellMesh<> extrude(const linalg::MeshMatrix<>& M, index_t layers) {
  CellMesh<> mesh;
  mesh.vertices = M.vertices * (layers + 1);
  std::vector<index_t> offsets{0}, indices, face_offsets{0}, streams;
  bool polyhedra = false;
  for (index_t l = 0; l < layers; ++l)
    for (index_t q = 0; q < M.faces; ++q) {
      const index_t begin = M.offsets[q], n = M.offsets[q + 1] - begin;
      for (index_t up = 0; up < 2; ++up)
        for (index_t k = 0; k < n; ++k) indices.push_back(M.indices[begin + k] + M.vertices * (l + up));
      offsets.push_back(index_t(indices.size()));
      if (n > 4) {  // the bottom turned down, the top, the sides: all outward
        polyhedra = true;
        streams.push_back(n);
        for (index_t k = n; k > 0; --k) streams.push_back(k % n);
        streams.push_back(n);
        for (index_t k = 0; k < n; ++k) streams.push_back(n + k);
        for (index_t k = 0; k < n; ++k) streams.insert(streams.end(), {4, k, (k + 1) % n, n + (k + 1) % n, n + k});
      }
      face_offsets.push_back(index_t(streams.size()));
    }
  mesh.offsets = linalg::Array<index_t>(offsets);
  mesh.indices = linalg::Array<index_t>(indices);
  if (polyhedra) mesh.face_offsets = linalg::Array<index_t>(face_offsets), mesh.face_streams = linalg::Array<index_t>(streams);
  return mesh;
}

// Positions of extrude(s.M, layers): layer l is s's positions scaled by 1 + l / 4 (a shell
// around the origin, thick where s surrounds it).
inline linalg::Dense<double> shell_positions(const Surface& s, index_t layers) {
  const index_t S = s.M.vertices;
  linalg::Dense<double> X(S * (layers + 1), 3);
  for (index_t l = 0; l <= layers; ++l)
    for (index_t v = 0; v < S; ++v)
      for (int x = 0; x < 3; ++x) X(v + S * l, x) = s.positions(v, x) * (1 + 0.25 * double(l));
  return X;
}

// A shell of two layers around a bipyramid of valence 5 with its north pole cut off: pentagonal
// prisms (polyhedra) above the pentagons, hexahedra above the quads; inside edges of valence 3,
// 4 and 5 (the south pole's).
inline std::pair<CellMesh<>, linalg::Dense<double>> polyhedral_shell() {
  std::mt19937 random(7);
  const Surface surface = truncate_vertex(bipyramid(5, random), 0);
  return {extrude(surface.M, 2), shell_positions(surface, 2)};
}

// A host mesh on backend B.
template <class B>
CellMesh<typename B::Exec::space> upload_cells(const CellMesh<>& mesh) {
  return {mesh.vertices, B::upload(mesh.offsets), B::upload(mesh.indices), B::upload(mesh.face_offsets),
          B::upload(mesh.face_streams)};
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
