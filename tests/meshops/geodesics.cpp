// Geodesic distance by the heat method (meshops/geodesics.hpp) against closed forms: the great-
// circle distance on a sphere and the straight line on a flat grid, the error falling as the mesh
// is refined (rates asserted); several sources; the refusals. On each backend (cuda/geometry.cu
// compiles this source for the GPU).
#include "../backends.hpp"
#include "surfaces.hpp"
#include "meshops/geodesics.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace spmesh::test::geodesics_tests {

using meshops::PolyMesh;

template <class B>
meshops::HeatGeodesic<linalg::Host> distances_on(const PolyMesh& mesh, std::vector<index_t> sources,
                                                 double time_factor = 1) {
  typename B::Exec exec;
  linalg::Array<index_t> ids(index_t(sources.size()));
  std::copy(sources.begin(), sources.end(), ids.data());
  meshops::HeatGeodesicOptions options;
  options.time_factor = time_factor;
  options.solve.tolerance = 1e-12;
  auto result = meshops::heat_geodesic(exec, B::upload(mesh.M), B::upload(mesh.positions), B::upload(ids), options);
  return {B::download(result.distance), result.heat, result.poisson, result.time, result.unreached};
}

// The mean and largest error against exact(vertex) over the vertices, relative to the largest
// distance.
template <class Exact>
std::pair<double, double> errors(const PolyMesh& mesh, const linalg::Array<double>& distance, Exact exact) {
  double sum = 0, worst = 0, largest = 0;
  for (index_t v = 0; v < mesh.vertex_count(); ++v) {
    const double want = exact(v), error = std::abs(distance[v] - want);
    sum += error, worst = std::max(worst, error), largest = std::max(largest, want);
  }
  return {sum / mesh.vertex_count() / largest, worst / largest};
}

// Mean errors (of pi) 0.0122, 0.0068, 0.0042, 0.0028 at levels 2-5 and 0.0021, 0.0017 at 6 and 7:
// falling, more slowly than h (t = h^2 smooths the distance near the antipode, where the exact one
// has its cut locus).
TEST_CASE_TEMPLATE("On a unit sphere the heat method's distance converges to the great-circle distance", B,
                   SPMESH_TEST_BACKENDS) {
  std::vector<std::pair<double, double>> e;
  for (int level = 2; level <= 5; ++level) {
    const PolyMesh sphere = icosphere(level);
    const auto result = distances_on<B>(sphere, {0});
    CHECK(result.heat.converged);
    CHECK(result.poisson.converged);
    e.push_back(errors(sphere, result.distance, [&](index_t v) {
      double dot = 0;
      for (int x = 0; x < 3; ++x) dot += sphere.positions(v, x) * sphere.positions(0, x);
      return std::acos(std::clamp(dot, -1.0, 1.0));
    }));
    CHECK(result.distance[0] == doctest::Approx(0).scale(1));
  }
  for (std::size_t k = 1; k < e.size(); ++k) {
    INFO("level ", k + 2, ": mean error ", e[k].first, ", largest ", e[k].second, " of pi");
    CHECK(e[k].first < e[k - 1].first / 1.4);
    CHECK(e[k].second < e[k - 1].second);
  }
  CHECK(e.back().first < 0.003);
  CHECK(e.back().second < 0.007);
}

// The mean length of the triangles' sides, h as heat_geodesic takes it.
double mean_edge(const PolyMesh& mesh) {
  double sum = 0;
  for (index_t f = 0; f < mesh.face_count(); ++f)
    for (index_t s = 0; s < 3; ++s) {
      const index_t a = mesh.M.indices[3 * f + s], b = mesh.M.indices[3 * f + (s + 1) % 3];
      sum += std::hypot(mesh.positions(a, 0) - mesh.positions(b, 0), mesh.positions(a, 1) - mesh.positions(b, 1),
                        mesh.positions(a, 2) - mesh.positions(b, 2));
    }
  return sum / (3.0 * mesh.face_count());
}

TEST_CASE_TEMPLATE("Where the heat would fall below the smallest CG can square, the heat method takes a longer time",
                   B, SPMESH_TEST_BACKENDS) {
  // At t = 0.0005 h^2 this sphere's far heat falls under 1e-140; at 4 times that it does not.
  const PolyMesh sphere = icosphere(4);
  const double h = mean_edge(sphere);
  const auto grown = distances_on<B>(sphere, {0}, 0.0005);
  const auto direct = distances_on<B>(sphere, {0}, 0.002);
  CHECK(grown.time == doctest::Approx(0.002 * h * h).epsilon(1e-12));
  CHECK(direct.time == doctest::Approx(0.002 * h * h).epsilon(1e-12));
  CHECK(grown.heat.iterations > direct.heat.iterations);  // the first try's count too
  CHECK(grown.unreached == 0);
  // The same system solved from the same start: the same bits.
  CHECK(std::equal(grown.distance.data(), grown.distance.data() + grown.distance.size(), direct.distance.data()));
  CHECK(distances_on<B>(sphere, {0}).time == doctest::Approx(h * h).epsilon(1e-12));  // h^2 kept where it suffices
}

TEST_CASE_TEMPLATE("On a flat grid the distance from two sources converges to the nearer straight line", B,
                   SPMESH_TEST_BACKENDS) {
  std::vector<double> mean_error;
  for (index_t n : {16, 32, 64}) {
    const PolyMesh grid = flat_grid(n);
    const index_t middle_row = n / 2 * (n + 1);
    const index_t left = middle_row + n / 4, right = middle_row + 3 * n / 4;  // (-0.5, 0) and (0.5, 0)
    const auto result = distances_on<B>(grid, {left, right});
    mean_error.push_back(errors(grid, result.distance, [&](index_t v) {
      auto to = [&](index_t s) { return std::hypot(grid.positions(v, 0) - grid.positions(s, 0), grid.positions(v, 1) - grid.positions(s, 1)); };
      return std::min(to(left), to(right));
    }).first);
  }
  for (std::size_t k = 1; k < mean_error.size(); ++k) {
    INFO("grid ", 16 << k, ": mean error ", mean_error[k]);
    CHECK(mean_error[k] < mean_error[k - 1]);
  }
  CHECK(mean_error.back() < 0.03);
}

TEST_CASE_TEMPLATE("The heat method refuses no source, a source outside the mesh and other faces than triangles", B,
                   SPMESH_TEST_BACKENDS) {
  const PolyMesh sphere = icosphere(1);
  CHECK_THROWS_WITH_AS(distances_on<B>(sphere, {}), "heat_geodesic: no source vertex given", InputError);
  CHECK_THROWS_WITH_AS(distances_on<B>(sphere, {3, 42, -1}),
                       doctest::Contains("2 source ids lie outside the mesh's 42 vertices"), InputError);
  const PolyMesh quads = meshops::read_obj(SPMESH_DATA_DIR "/meshes/torus.obj");
  CHECK_THROWS_WITH_AS(distances_on<B>(quads, {0}), doctest::Contains("face 0 has 4 corners"), DimensionError);
}

}  // namespace spmesh::test::geodesics_tests
