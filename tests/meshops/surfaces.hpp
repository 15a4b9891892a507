// Triangle meshes for the geometry tests: the bundled torus with its points moved at random (no
// two triangles alike), and surfaces with closed forms: a sphere (an icosahedron split k times,
// its points on the sphere), a torus of revolution and a flat square grid, all with outward
// (counterclockwise) triangles.
#pragma once

#include "meshops/mesh.hpp"
#include "meshops/obj.hpp"
#include "meshops/triangulate.hpp"

#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <random>
#include <utility>
#include <vector>

namespace spmesh::test {

inline meshops::PolyMesh perturbed_torus(unsigned seed) {
  meshops::PolyMesh mesh = meshops::triangulate(meshops::read_obj(SPMESH_DATA_DIR "/meshes/torus.obj"));
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  for (double& x : mesh.positions.data) x += jitter(random);
  return mesh;
}

inline meshops::PolyMesh triangle_mesh(const std::vector<std::array<double, 3>>& points,
                                       const std::vector<std::array<index_t, 3>>& triangles) {
  meshops::PolyMesh mesh;
  mesh.positions = linalg::Dense<double>(index_t(points.size()), 3);
  for (std::size_t v = 0; v < points.size(); ++v)
    for (int x = 0; x < 3; ++x) mesh.positions(index_t(v), x) = points[v][x];
  linalg::Array<index_t> offsets(index_t(triangles.size()) + 1), indices(index_t(triangles.size()) * 3);
  for (std::size_t f = 0; f <= triangles.size(); ++f) offsets[index_t(f)] = index_t(f) * 3;
  for (std::size_t f = 0; f < triangles.size(); ++f)
    for (int s = 0; s < 3; ++s) indices[index_t(f * 3 + s)] = triangles[f][s];
  mesh.M = linalg::MeshMatrix<>(index_t(points.size()), std::move(offsets), std::move(indices));
  return mesh;
}

// An icosahedron split `levels` times (each triangle into four at its sides' middles), every
// point on the sphere of `radius` about the origin: 10 4^levels + 2 vertices.
inline meshops::PolyMesh icosphere(int levels, double radius = 1) {
  const double g = (1 + std::sqrt(5.0)) / 2;
  std::vector<std::array<double, 3>> points = {{-1, g, 0}, {1, g, 0}, {-1, -g, 0}, {1, -g, 0}, {0, -1, g}, {0, 1, g},
                                               {0, -1, -g}, {0, 1, -g}, {g, 0, -1}, {g, 0, 1}, {-g, 0, -1}, {-g, 0, 1}};
  std::vector<std::array<index_t, 3>> triangles = {
      {0, 11, 5}, {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
      {3, 9, 4},  {3, 4, 2},  {3, 2, 6},  {3, 6, 8},  {3, 8, 9},   {4, 9, 5}, {2, 4, 11}, {6, 2, 10}, {8, 6, 7},  {9, 8, 1}};
  auto on_sphere = [&](std::array<double, 3> p) {
    const double length = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    for (double& x : p) x *= radius / length;
    return p;
  };
  for (auto& p : points) p = on_sphere(p);
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<index_t, index_t>, index_t> middle;
    auto middle_of = [&](index_t a, index_t b) {
      const auto key = std::minmax(a, b);
      if (auto it = middle.find(key); it != middle.end()) return it->second;
      std::array<double, 3> m;
      for (int x = 0; x < 3; ++x) m[x] = (points[a][x] + points[b][x]) / 2;
      points.push_back(on_sphere(m));
      return middle[key] = index_t(points.size() - 1);
    };
    std::vector<std::array<index_t, 3>> finer;
    for (const auto& [a, b, c] : triangles) {
      const index_t ab = middle_of(a, b), bc = middle_of(b, c), ca = middle_of(c, a);
      finer.insert(finer.end(), {{a, ab, ca}, {b, bc, ab}, {c, ca, bc}, {ab, bc, ca}});
    }
    triangles = std::move(finer);
  }
  return triangle_mesh(points, triangles);
}

// The torus of revolution ((R + r cos v) cos u, (R + r cos v) sin u, r sin v) on an n x m grid of
// (u, v), each grid square cut into two triangles.
inline meshops::PolyMesh torus_of_revolution(index_t n, index_t m, double R, double r) {
  std::vector<std::array<double, 3>> points;
  std::vector<std::array<index_t, 3>> triangles;
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < m; ++j) {
      const double u = 2 * std::numbers::pi * i / n, v = 2 * std::numbers::pi * j / m;
      points.push_back({(R + r * std::cos(v)) * std::cos(u), (R + r * std::cos(v)) * std::sin(u), r * std::sin(v)});
      const index_t a = i * m + j, b = ((i + 1) % n) * m + j, c = ((i + 1) % n) * m + (j + 1) % m, d = i * m + (j + 1) % m;
      triangles.push_back({a, b, c});
      triangles.push_back({a, c, d});
    }
  return triangle_mesh(points, triangles);
}

// The square [-1, 1]^2 in the plane z = 0 on an n x n grid of squares, each cut into two triangles.
inline meshops::PolyMesh flat_grid(index_t n) {
  std::vector<std::array<double, 3>> points;
  std::vector<std::array<index_t, 3>> triangles;
  for (index_t i = 0; i <= n; ++i)
    for (index_t j = 0; j <= n; ++j) points.push_back({-1 + 2.0 * j / n, -1 + 2.0 * i / n, 0});
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j) {
      const index_t a = i * (n + 1) + j, b = a + 1, c = a + n + 2, d = a + n + 1;
      triangles.push_back({a, b, c});
      triangles.push_back({a, c, d});
    }
  return triangle_mesh(points, triangles);
}

}  // namespace spmesh::test
