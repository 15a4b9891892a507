// Area-weighted vertex normals (meshops/normals.hpp) against a plain loop over the faces and a
// closed form: a cube's corners have the normal (+-1, +-1, +-1) / sqrt(3), its faces' area vectors
// are the unit axes. On each backend (cuda/normals.cu compiles this source for the GPU).
#include "../backends.hpp"
#include "meshops/normals.hpp"
#include "meshops/obj.hpp"
#include "meshops/triangulate.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>

namespace spmesh::test::normals_tests {

using meshops::PolyMesh;

template <class B>
linalg::Dense<double> normals_on(const PolyMesh& mesh) {
  typename B::Exec exec;
  return B::download(meshops::vertex_normals(exec, B::upload(mesh.M), B::upload(mesh.positions)));
}

// The face loop: each face's area vector (a fan of triangles from its first corner) added to its
// corners, each sum normalised.
linalg::Dense<double> face_loop(const PolyMesh& mesh) {
  linalg::Dense<double> N(mesh.vertex_count(), 3);
  std::fill(N.data.begin(), N.data.end(), 0.0);  // (a Dense's values are not initialised)
  for (index_t f = 0; f < mesh.face_count(); ++f) {
    const index_t begin = mesh.M.offsets[f], corners = mesh.M.offsets[f + 1] - begin;
    auto p = [&](index_t s) {
      const index_t v = mesh.M.indices[begin + s];
      return std::array<double, 3>{mesh.positions(v, 0), mesh.positions(v, 1), mesh.positions(v, 2)};
    };
    std::array<double, 3> area{0, 0, 0};
    for (index_t s = 1; s + 1 < corners; ++s) {
      const auto a = p(0), b = p(s), c = p(s + 1);
      const std::array<double, 3> e{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, g{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
      area[0] += (e[1] * g[2] - e[2] * g[1]) / 2, area[1] += (e[2] * g[0] - e[0] * g[2]) / 2;
      area[2] += (e[0] * g[1] - e[1] * g[0]) / 2;
    }
    for (index_t s = 0; s < corners; ++s)
      for (int x = 0; x < 3; ++x) N(mesh.M.indices[begin + s], x) += area[std::size_t(x)];
  }
  for (index_t v = 0; v < N.rows; ++v) {
    const double length = std::hypot(N(v, 0), N(v, 1), N(v, 2));
    for (int x = 0; x < 3; ++x) N(v, x) /= length;
  }
  return N;
}

double largest_difference(const linalg::Dense<double>& a, const linalg::Dense<double>& b) {
  double worst = 0;
  for (index_t i = 0; i < a.data.size(); ++i) worst = std::max(worst, std::abs(a.data[i] - b.data[i]));
  return worst;
}

TEST_CASE_TEMPLATE("Area-weighted vertex normals are the face loop's on triangles and on quads, and a cube's "
                   "corners' diagonals",
                   B, SPMESH_TEST_BACKENDS) {
  PolyMesh quads = meshops::read_obj(SPMESH_DATA_DIR "/meshes/torus.obj");
  std::mt19937 random(3);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  for (double& x : quads.positions.data) x += jitter(random);  // quads no longer planar
  const PolyMesh triangles = meshops::triangulate(quads);
  CHECK(largest_difference(normals_on<B>(triangles), face_loop(triangles)) <= 1e-14);
  CHECK(largest_difference(normals_on<B>(quads), face_loop(quads)) <= 1e-14);

  const PolyMesh cube = meshops::read_obj(SPMESH_DATA_DIR "/meshes/cube.obj");
  const auto N = normals_on<B>(cube);
  double worst = 0;
  for (index_t v = 0; v < cube.vertex_count(); ++v)
    for (int x = 0; x < 3; ++x)
      worst = std::max(worst, std::abs(N(v, x) - (cube.positions(v, x) - 0.5) * 2 / std::sqrt(3.0)));
  CHECK(worst <= 1e-15);
}

}  // namespace spmesh::test::normals_tests
