// Catmull-Clark's limit near a smooth corner (schemes/catmull_clark/smooth_corner.hpp) against
// independent references: at the corner quad's dyadic points (i, j) / 2^L, the limit of the
// vertices of level L there (the limit masks of schemes/limit.hpp, which match OpenSubdiv's
// Far::PrimvarRefiner::Limit in tests/schemes/osd_parity.cpp); along the boundary, the cubic
// B-spline curve of the boundary's points round the corner, written here, and its derivative; the
// derivatives inside against central differences of the positions.
#include "linalg/cpu/executor.hpp"
#include "schemes/catmull_clark/smooth_corner.hpp"
#include "schemes/limit.hpp"
#include "schemes/schemes.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <map>
#include <random>
#include <utility>

namespace spmesh::test::smooth_corner {

namespace cc = schemes::catmull_clark;
using Point = std::array<double, 3>;

constexpr index_t side = 6;  // quads a side of the quadrant; vertex (i, j) = i + (side + 1) j

linalg::MeshMatrix<> quadrant() {
  linalg::Array<index_t> offsets(side * side + 1), indices(4 * side * side);
  for (index_t f = 0; f <= side * side; ++f) offsets[f] = 4 * f;
  for (index_t j = 0; j < side; ++j)
    for (index_t i = 0; i < side; ++i) {
      const index_t f = i + side * j, v = i + (side + 1) * j;
      const index_t corners[4] = {v, v + 1, v + side + 2, v + side + 1};
      for (int a = 0; a < 4; ++a) indices[4 * f + a] = corners[a];
    }
  return linalg::MeshMatrix<>((side + 1) * (side + 1), std::move(offsets), std::move(indices));
}

// The quadrant's points at their grid places, bent out of the plane and moved by up to 0.2.
linalg::Dense<double> points(unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> jitter(-0.2, 0.2);
  linalg::Dense<double> P((side + 1) * (side + 1), 3);
  for (index_t j = 0; j <= side; ++j)
    for (index_t i = 0; i <= side; ++i) {
      const index_t v = i + (side + 1) * j;
      P(v, 0) = double(i) + jitter(random), P(v, 1) = double(j) + jitter(random);
      P(v, 2) = 0.1 * double(i * j) + jitter(random);
    }
  return P;
}

struct Limit {
  Point position{}, ds{}, dt{};
};

// The smooth corner's limit at (s, t) of the quadrant's corner quad.
Limit corner_limit(const linalg::Dense<double>& P, double s, double t) {
  const cc::SmoothCornerView view{cc::smooth_corner_tables().data()};
  Limit out;
  view.weights(0, s, t, 1.0, [&](int q, double w, double ws, double wt) {
    const index_t v = index_t(q % 3) + (side + 1) * index_t(q / 3);
    for (int x = 0; x < 3; ++x)
      out.position[x] += w * P(v, x), out.ds[x] += ws * P(v, x), out.dt[x] += wt * P(v, x);
  });
  return out;
}

double distance(const Point& a, const Point& b) {
  return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

// The grid places of level L's vertices in the corner quad: its faces (quads, counter-clockwise)
// walked from the corner, the only vertex of one face (vertex 0 keeps its number).
std::map<std::pair<int, int>, index_t> corner_grid(const schemes::RefinedMesh<>& mesh, int level) {
  auto corner = [&](index_t f, int a) { return mesh.indices[4 * f + (a & 3)]; };
  std::map<std::pair<index_t, index_t>, std::pair<index_t, int>> edge;  // (from, to) -> (face, corner)
  for (index_t f = 0; f < mesh.faces; ++f)
    for (int a = 0; a < 4; ++a) edge[{corner(f, a), corner(f, a + 1)}] = {f, a};
  std::pair<index_t, int> start{-1, 0};
  for (const auto& [ends, at] : edge)
    if (ends.first == 0) start = at;
  REQUIRE(start.first >= 0);
  std::map<std::pair<int, int>, index_t> grid;
  const int n = 1 << level;
  std::pair<index_t, int> row = start;
  for (int j = 0; j < n; ++j) {
    std::pair<index_t, int> at = row;
    for (int i = 0; i < n; ++i) {
      const auto [f, a] = at;
      grid[{i, j}] = corner(f, a), grid[{i + 1, j}] = corner(f, a + 1);
      grid[{i + 1, j + 1}] = corner(f, a + 2), grid[{i, j + 1}] = corner(f, a + 3);
      if (i + 1 < n) {  // the quad beside: across edge a + 1, from its corner at (i + 1, j)
        const auto beside = edge.at({corner(f, a + 2), corner(f, a + 1)});
        at = {beside.first, (beside.second + 1) & 3};
      }
    }
    if (j + 1 < n) {  // the quad above: across edge a + 2, from its corner at (0, j + 1)
      const auto [f, a] = row;
      const auto above = edge.at({corner(f, a + 3), corner(f, a + 2)});
      row = above;
    }
  }
  return grid;
}

TEST_CASE("Catmull-Clark's limit near a smooth corner is the limit of the refined vertices at the dyadic "
          "points (limit masks, OpenSubdiv's), the boundary's B-spline curve along the boundary") {
  const linalg::Dense<double> P = points(5);
  linalg::cpu::Executor cpu;
  constexpr int level = 4;
  schemes::Options options;
  options.boundary = schemes::Boundary::edge_only;
  const index_t V = P.rows;
  const auto limits = schemes::limit_at_vertices<schemes::CatmullClark>(
      cpu, quadrant(), schemes::Sharpness<>{linalg::Coo<float>{V, V, {}, {}, {}}, linalg::Array<float>(V, 0.0f)},
      level, P, options);
  const auto grid = corner_grid(limits.mesh, level);
  const int n = 1 << level;
  double worst = 0;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      const index_t v = grid.at({i, j});
      const Point expected{limits.position(v, 0), limits.position(v, 1), limits.position(v, 2)};
      worst = std::max(worst, distance(corner_limit(P, double(i) / n, double(j) / n).position, expected));
    }
  CHECK(worst <= 1e-12);

  // Along the boundary t = 0: the curve of (0, 1), (0, 0), (1, 0), (2, 0) on s in [0, 1].
  auto at = [&](index_t i, index_t j) { return Point{P(i + (side + 1) * j, 0), P(i + (side + 1) * j, 1), P(i + (side + 1) * j, 2)}; };
  const Point curve[4] = {at(0, 1), at(0, 0), at(1, 0), at(2, 0)};
  double curve_worst = 0;
  for (const double s : {0.0, 1e-12, 1e-6, 0.01, 0.3, 0.5, 0.77, 1.0}) {
    double b[4], db[4];
    schemes::patches::cubic_bspline(s, b, db);
    Point value{}, slope{};
    for (int p = 0; p < 4; ++p)
      for (int x = 0; x < 3; ++x) value[x] += b[p] * curve[p][x], slope[x] += db[p] * curve[p][x];
    const Limit got = corner_limit(P, s, 0);
    curve_worst = std::max({curve_worst, distance(got.position, value), distance(got.ds, slope)});
  }
  CHECK(curve_worst <= 1e-11);
  // At the corner the t derivative is the curve's too, backwards: the parameterisation is singular.
  const Limit corner = corner_limit(P, 0, 0);
  Point backwards{};
  for (int x = 0; x < 3; ++x) backwards[x] = -corner.ds[x];
  CHECK(distance(corner.dt, backwards) <= 1e-11);

  // Inside, the derivatives against central differences of the positions.
  double slope_worst = 0;
  const double h = 1e-5;
  for (const auto& [s, t] : std::initializer_list<std::pair<double, double>>{
           {0.3, 0.6}, {0.01, 0.02}, {0.7, 0.2}, {0.5, 0.5}, {1e-3, 0.4}, {0.9, 0.9}}) {
    const Limit got = corner_limit(P, s, t);
    const Limit s0 = corner_limit(P, s - h, t), s1 = corner_limit(P, s + h, t);
    const Limit t0 = corner_limit(P, s, t - h), t1 = corner_limit(P, s, t + h);
    Point ds{}, dt{};
    for (int x = 0; x < 3; ++x)
      ds[x] = (s1.position[x] - s0.position[x]) / (2 * h), dt[x] = (t1.position[x] - t0.position[x]) / (2 * h);
    slope_worst = std::max({slope_worst, distance(got.ds, ds), distance(got.dt, dt)});
  }
  CHECK(slope_worst <= 1e-6);
}

}  // namespace spmesh::test::smooth_corner
