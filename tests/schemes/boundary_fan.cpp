// Catmull-Clark's limit near a smooth corner (schemes/catmull_clark/smooth_corner.hpp) and a
// boundary fan (boundary_fan.hpp) against independent references: at the corner quad's dyadic
// points (i, j) / 2^L, the limit of the vertices of level L there (the limit masks of
// schemes/limit.hpp, which match OpenSubdiv's Far::PrimvarRefiner::Limit in
// tests/schemes/osd_parity.cpp); along the boundary, the cubic B-spline curve of the boundary's
// points round the corner, written here, and its derivative; the derivatives inside against
// central differences of the positions. A fan of two quads is a regular boundary, whose limit is
// the bicubic B-spline with the layer beyond the boundary reflected (written here); a fan of one
// the smooth corner, whose tables are made with the same machinery but read without E's powers.
// The fans of 3 and more quads are checked on meshes against the limit masks (schemes.cpp) and
// against OpenSubdiv's Bfr (osd_parity.cpp).
#include "linalg/cpu/executor.hpp"
#include "schemes/catmull_clark/boundary_fan.hpp"
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

// A fan's limit at (s, t) of sector j's quad, its points P[fan_place].
Limit fan_limit(int faces, const std::vector<Point>& P, int sector, double s, double t) {
  const std::vector<double>& tables = cc::boundary_fan_tables(faces);
  const std::vector<std::int64_t> starts(cc::fan_tables_count, 0);  // one fan's tables alone, from 0
  const cc::BoundaryFanView view{tables.data(), starts.data()};
  Limit out;
  view.weights(faces, false, sector, 0, s, t, 1.0, [&](int q, double w, double ws, double wt) {
    for (int x = 0; x < 3; ++x)
      out.position[x] += w * P[std::size_t(q)][x], out.ds[x] += ws * P[std::size_t(q)][x], out.dt[x] += wt * P[std::size_t(q)][x];
  });
  return out;
}

// The samples the fans are checked at: inside, on the sides, deep towards the vertex (where E's
// powers take over from the tabled depths: 2^-9 and nearer) and at the vertex.
const std::vector<std::pair<double, double>> fan_samples = {
    {0.3, 0.6}, {0.7, 0.2}, {0.5, 0.5}, {1.0, 1.0}, {0.0, 0.8}, {0.6, 0.0}, {0.01, 0.02}, {1e-3, 0.4},
    {3e-3, 1e-3}, {1e-5, 2e-5}, {4e-9, 1e-9}, {1e-14, 3e-14}, {1e-25, 0.0}, {0.0, 0.0}};

TEST_CASE("A boundary fan of two quads is the regular boundary's bicubic patch (the layer beyond the boundary "
          "reflected), of one quad the smooth corner") {
  // Two quads: sector 0 from spoke 0 (+X, the boundary) to spoke 1 (+Y), sector 1 from +Y to -X:
  // the half-plane's grid, X from -2 to 2, Y from 0 to 2; sector 0's (i, t) is (i, t), sector 1's
  // (-t, i).
  std::mt19937 random(7);
  std::uniform_real_distribution<double> jitter(-0.2, 0.2);
  std::map<std::pair<int, int>, Point> grid;
  for (int Y = 0; Y <= 2; ++Y)
    for (int X = -2; X <= 2; ++X) grid[{X, Y}] = {X + jitter(random), Y + jitter(random), 0.1 * X * Y + jitter(random)};
  std::vector<Point> P(std::size_t(cc::fan_ring_size(2)));
  for (int t = 0; t < 3; ++t)
    for (int i = 0; i < 3; ++i) {
      P[std::size_t(cc::fan_place(0, i, t))] = grid.at({i, t});
      P[std::size_t(cc::fan_place(1, i, t))] = grid.at({-t, i});
    }
  // The bicubic B-spline of the grid at (X, Y), X in [-1, 1], Y in [0, 1]: its derivatives along
  // X and Y; row Y = -1 is 2 P(X, 0) - P(X, 1).
  auto at = [&](int X, int Y) {
    if (Y >= 0) return grid.at({X, Y});
    Point p;
    for (int x = 0; x < 3; ++x) p[x] = 2 * grid.at({X, 0})[x] - grid.at({X, 1})[x];
    return p;
  };
  auto bicubic = [&](double X, double Y) {
    const int cell = X < 0 ? -1 : 0;
    double bx[4], dbx[4], by[4], dby[4];
    schemes::patches::cubic_bspline(X - cell, bx, dbx);
    schemes::patches::cubic_bspline(std::min(Y, 1.0), by, dby);
    Limit out;  // position, d/dX, d/dY
    for (int b = 0; b < 4; ++b)
      for (int a = 0; a < 4; ++a) {
        const Point p = at(cell + a - 1, b - 1);
        for (int x = 0; x < 3; ++x)
          out.position[x] += bx[a] * by[b] * p[x], out.ds[x] += dbx[a] * by[b] * p[x], out.dt[x] += bx[a] * dby[b] * p[x];
      }
    return out;
  };
  double worst = 0, slope_worst = 0;
  for (const auto& [s, t] : fan_samples) {
    CAPTURE(s);
    CAPTURE(t);
    const Limit in0 = fan_limit(2, P, 0, s, t), in1 = fan_limit(2, P, 1, s, t);
    const Limit expected0 = bicubic(s, t), expected1 = bicubic(-t, s);
    Point ds1{}, dt1{};  // sector 1: s along +Y, t along -X
    for (int x = 0; x < 3; ++x) ds1[x] = expected1.dt[x], dt1[x] = -expected1.ds[x];
    worst = std::max({worst, distance(in0.position, expected0.position), distance(in1.position, expected1.position)});
    slope_worst = std::max({slope_worst, distance(in0.ds, expected0.ds), distance(in0.dt, expected0.dt),
                            distance(in1.ds, ds1), distance(in1.dt, dt1)});
  }
  CHECK(worst <= 1e-13);
  CHECK(slope_worst <= 1e-12);

  // One quad: the smooth corner's tables (fan_place's order there is i + 3 t's).
  const linalg::Dense<double> Q = points(3);
  std::vector<Point> corner(std::size_t(cc::fan_ring_size(1)));
  for (int t = 0; t < 3; ++t)
    for (int i = 0; i < 3; ++i) {
      const index_t v = index_t(i) + (side + 1) * index_t(t);
      corner[std::size_t(cc::fan_place(0, i, t))] = {Q(v, 0), Q(v, 1), Q(v, 2)};
    }
  double corner_worst = 0;
  for (const auto& [s, t] : fan_samples) {
    const Limit fan = fan_limit(1, corner, 0, s, t), smooth = corner_limit(Q, s, t);
    corner_worst = std::max({corner_worst, distance(fan.position, smooth.position), distance(fan.ds, smooth.ds),
                             distance(fan.dt, smooth.dt)});
  }
  CHECK(corner_worst <= 1e-12);
  CHECK_THROWS_AS(cc::boundary_fan_tables(cc::max_fan_faces + 1), InputError);
}

}  // namespace spmesh::test::smooth_corner
