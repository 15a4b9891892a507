// Test meshes shared by the scheme tests (schemes.cpp, osd_parity.cpp): Catmull-Clark's fans of
// quads on a wavy surface.
#pragma once

#include "meshops/mesh.hpp"
#include "schemes/catmull_clark/stam.hpp"

#include <cmath>
#include <numbers>
#include <string>

namespace spmesh::test {

// catmull_clark::fan_mesh(n, closed) with points on a wavy surface: sector k's point (i, j) at
// i d_k + j d_(k+1) (d_k at angle 2 pi k / n; open, 3 pi k / (2 n): the fan's vertex on the
// boundary, its n quads round three quarters of a turn), lifted by a smooth function of its place
// and its vertex number.
inline meshops::PolyMesh wavy_fan(int n, bool closed = true) {
  meshops::PolyMesh mesh;
  mesh.M = schemes::catmull_clark::fan_mesh(n, closed);
  mesh.source = (closed ? "fan of valence " : "open fan of quads ") + std::to_string(n);
  mesh.positions = linalg::Dense<double>(mesh.M.vertices, 3);
  auto place = [&](index_t v, double x, double y) {
    mesh.positions(v, 0) = x, mesh.positions(v, 1) = y;
    mesh.positions(v, 2) = 0.3 * std::sin(1.3 * x + 0.7 * y) + 0.05 * std::cos(double(v));
  };
  const double turn = (closed ? 2 : 1.5) * std::numbers::pi / n;
  const index_t spokes = closed ? n : n + 1;
  place(0, 0, 0);
  for (int k = 0; k < spokes; ++k)
    for (int i = 1; i <= 3; ++i)
      for (int j = 0; j <= 3; ++j) {
        if (j > 0 && k == n) continue;  // (0, j) is sector k + 1's (j, 0); an open fan's last spoke has no sector
        const index_t v = j == 0 ? 1 + 3 * k + i - 1 : 1 + 3 * spokes + 9 * k + 3 * (i - 1) + j - 1;
        place(v, i * std::cos(turn * k) + j * std::cos(turn * (k + 1)),
              i * std::sin(turn * k) + j * std::sin(turn * (k + 1)));
      }
  return mesh;
}

}  // namespace spmesh::test
