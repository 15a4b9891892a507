// Tensor-product patches (schemes/patches/) against independent algorithms in double: Bezier
// curves and their derivatives by de Casteljau on the control points and on their differences
// (the hodographs), uniform B-splines by de Boor's algorithm (repeated knot insertion), and
// surfaces and volumes as curves of curves; at degrees 1 to 15, 1e-12 of the control points'
// size.
#include "schemes/patches/split.hpp"

#include "../backends.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace spmesh::test::patch_tests {

using schemes::patches::Basis;
using Points = std::vector<std::array<double, 3>>;

// The curve of control points P (degree P.size() - 1) at t: de Casteljau (Bezier) or de Boor on
// the knots 0, 1, 2, ... over the span [n, n + 1], t its local parameter (B-spline).
std::array<double, 3> curve(Basis basis, Points P, double t) {
  const int n = int(P.size()) - 1;
  for (int r = 1; r <= n; ++r)
    for (int i = n; i >= r; --i) {
      // de Boor: alpha = (u - u_i) / (u_{i+n+1-r} - u_i), u = n + t, u_i = i.
      const double alpha = basis == Basis::bernstein ? t : (n + t - i) / double(n + 1 - r);
      auto &to = P[std::size_t(i)], &from = P[std::size_t(i - 1)];
      for (int x = 0; x < 3; ++x) to[x] = (1 - alpha) * from[x] + alpha * to[x];
    }
  return P.back();
}

// The differences P_{i+1} - P_i, times the degree for Bezier (the hodograph's control points;
// a uniform B-spline's derivative has the plain differences, on the same span, one degree lower).
Points differences(Basis basis, const Points& P) {
  const double scale = basis == Basis::bernstein ? double(P.size() - 1) : 1.0;
  Points D(P.size() - 1);
  for (std::size_t i = 0; i + 1 < P.size(); ++i)
    for (int x = 0; x < 3; ++x) D[i][x] = scale * (P[i + 1][x] - P[i][x]);
  return D;
}

// The derivative of order `order` of the curve at t.
std::array<double, 3> curve_derivative(Basis basis, Points P, double t, int order) {
  for (int o = 0; o < order; ++o) {
    if (P.size() == 1) return {0, 0, 0};
    P = differences(basis, P);
  }
  return curve(basis, P, t);
}

Points random_points(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coordinate(-1, 1);
  Points P(n);
  for (auto& p : P)
    for (double& x : p) x = coordinate(rng);
  return P;
}

std::vector<double> sample_values(int count) {
  std::vector<double> t{0.0, 1.0};
  std::mt19937 rng(7 + unsigned(count));
  std::uniform_real_distribution<double> inside(0, 1);
  while (int(t.size()) < count) t.push_back(inside(rng));
  return t;
}

template <class B>
auto samples_on(const std::vector<double>& t) {
  return B::upload(linalg::Array<double>(t));
}

// The scale of a derivative of order `order` at `degree` (its control differences grow so).
double scale_of(Basis basis, int degree, int order) {
  double s = 1;
  for (int o = 0; o < order && basis == Basis::bernstein; ++o) s *= 2.0 * (degree - o);
  return s;
}

// Curves of both bases at degrees 1 to 15 in T, `patches` a degree, values and first and second
// derivatives, against the reference in double on the same (T-rounded) samples and control points:
// at most `tolerance` times the control points' size (scale_of).
template <class B, class T>
void check_curves(double tolerance) {
  typename B::Exec exec;
  const auto table = schemes::patches::binomials(exec, 15);
  std::vector<double> t = sample_values(9);
  linalg::Array<T> t_as(index_t(t.size()));
  for (std::size_t s = 0; s < t.size(); ++s) t_as[index_t(s)] = T(t[s]), t[s] = double(T(t[s]));
  for (Basis basis : {Basis::bernstein, Basis::bspline})
    for (int degree = 1; degree <= 15; ++degree) {
      CAPTURE(int(basis));
      CAPTURE(degree);
      const index_t patches = 3;
      const auto basis_at = schemes::patches::sample_basis(exec, basis, degree, table, B::upload(t_as));
      linalg::Dense<T> X(patches * (degree + 1), 3);
      std::vector<Points> nets;
      for (index_t p = 0; p < patches; ++p) {
        nets.push_back(random_points(std::size_t(degree + 1), unsigned(100 * degree + p)));
        for (int i = 0; i <= degree; ++i)
          for (int x = 0; x < 3; ++x) {
            auto& coordinate = nets.back()[std::size_t(i)][x];
            X(p * (degree + 1) + i, x) = T(coordinate), coordinate = double(T(coordinate));
          }
      }
      const auto X_on = B::upload(X);
      for (int order = 0; order <= 2; ++order) {
        CAPTURE(order);
        const auto got = B::download(schemes::patches::evaluate(exec, {&basis_at}, patches, X_on, {order, 0, 0}));
        REQUIRE(got.rows == patches * index_t(t.size()));
        double worst = 0;
        for (index_t p = 0; p < patches; ++p)
          for (std::size_t s = 0; s < t.size(); ++s) {
            const auto expected = curve_derivative(basis, nets[std::size_t(p)], t[s], order);
            for (int x = 0; x < 3; ++x)
              worst = std::max(worst, std::abs(double(got(p * index_t(t.size()) + index_t(s), x)) -
                                               expected[std::size_t(x)]));
          }
        CHECK(worst <= tolerance * scale_of(basis, degree, order));
      }
    }
}

TEST_CASE_TEMPLATE("patch curves at degrees 1 to 15, values and first and second derivatives, are de Casteljau's "
                   "(Bezier) and de Boor's (uniform B-spline) on the control points and their differences",
                   B, SPMESH_TEST_BACKENDS) {
  check_curves<B, double>(1e-12);
}

TEST_CASE_TEMPLATE("patch curves in float are the double reference's to 1e-6 of the control points' size, "
                   "degrees 1 to 15",
                   B, SPMESH_TEST_BACKENDS) {
  check_curves<B, float>(1e-6);
}

TEST_CASE("the cubic B-spline in closed form is basis_functions' at degree 3, values and slopes, in double and "
          "float") {
  for (int i = 0; i <= 64; ++i) {
    const double t = i / 64.0 + (i % 3) * 1e-3 * (i < 64);
    double b[4], db[4], want[4], want_slope[4];
    schemes::patches::cubic_bspline(t, b, db);
    schemes::patches::basis_functions(Basis::bspline, 3, nullptr, t, want, want_slope);
    float bf[4], dbf[4];
    schemes::patches::cubic_bspline(float(t), bf, dbf);
    for (int j = 0; j < 4; ++j) {
      CHECK(std::abs(b[j] - want[j]) <= 1e-15);
      CHECK(std::abs(db[j] - want_slope[j]) <= 1e-15);
      CHECK(std::abs(double(bf[j]) - want[j]) <= 2e-7);
      CHECK(std::abs(double(dbf[j]) - want_slope[j]) <= 4e-7);
    }
  }
}

// The tensor product of the nets' curves: along the last direction first, then the others, each
// by the curve of the previous results (a curve of curves).
std::array<double, 3> product(const std::vector<Basis>& bases, const std::vector<int>& degrees, const Points& net,
                              const std::vector<double>& at, const std::vector<int>& orders) {
  if (bases.size() == 1) return curve_derivative(bases[0], net, at[0], orders[0]);
  const int width = degrees[0] + 1;
  const std::size_t inner = net.size() / std::size_t(width);
  Points column;
  const std::vector<Basis> rest_bases(bases.begin() + 1, bases.end());
  const std::vector<int> rest_degrees(degrees.begin() + 1, degrees.end());
  const std::vector<int> rest_orders(orders.begin() + 1, orders.end());
  const std::vector<double> rest_at(at.begin() + 1, at.end());
  for (int a = 0; a < width; ++a)
    column.push_back(product(rest_bases, rest_degrees,
                             Points(net.begin() + std::ptrdiff_t(std::size_t(a) * inner),
                                    net.begin() + std::ptrdiff_t(std::size_t(a + 1) * inner)),
                             rest_at, rest_orders));
  return curve_derivative(bases[0], column, at[0], orders[0]);
}

// A tensor product to check: each direction's basis, degree, derivative order and samples.
struct Product {
  std::vector<Basis> bases;
  std::vector<int> degrees, orders;
  std::vector<std::vector<double>> at;
  std::size_t controls() const {
    std::size_t n = 1;
    for (int degree : degrees) n *= std::size_t(degree + 1);
    return n;
  }
  std::size_t points() const {
    std::size_t n = 1;
    for (const auto& t : at) n *= t.size();
    return n;
  }
  double scale() const {
    double s = 1;
    for (std::size_t d = 0; d < bases.size(); ++d) s *= scale_of(bases[d], degrees[d], orders[d]);
    return s;
  }
};

// Random control nets of `patches` patches, and X: column x holds coordinate x % 3 times 1 + x / 3.
std::pair<std::vector<Points>, linalg::Dense<double>> nets_of(const Product& c, index_t patches, index_t columns) {
  std::vector<Points> nets;
  linalg::Dense<double> X(patches * index_t(c.controls()), columns);
  for (index_t p = 0; p < patches; ++p) {
    nets.push_back(random_points(c.controls(), 31u + unsigned(p) + 7u * unsigned(c.bases.size())));
    for (std::size_t i = 0; i < c.controls(); ++i)
      for (index_t x = 0; x < columns; ++x) X(p * index_t(c.controls()) + index_t(i), x) = nets.back()[i][x % 3] * (1 + x / 3);
  }
  return {std::move(nets), std::move(X)};
}

// The largest difference of `got` (every patch's grid of points, nets_of's columns) from the
// curves of curves, over the derivatives' scale.
double worst_difference(const linalg::Dense<double>& got, const Product& c, const std::vector<Points>& nets) {
  const std::size_t D = c.bases.size(), points = c.points();
  REQUIRE(got.rows == index_t(nets.size() * points));
  double worst = 0;
  for (std::size_t p = 0; p < nets.size(); ++p)
    for (std::size_t s = 0; s < points; ++s) {
      // Sample s's index in each direction, the last fastest.
      std::vector<double> at(D);
      std::size_t rest = s;
      for (std::size_t d = D; d-- > 0;) at[d] = c.at[d][rest % c.at[d].size()], rest /= c.at[d].size();
      const auto expected = product(c.bases, c.degrees, nets[p], at, c.orders);
      for (index_t x = 0; x < got.cols; ++x)
        worst = std::max(worst, std::abs(got(index_t(p * points + s), x) - expected[std::size_t(x % 3)] * double(1 + x / 3)));
    }
  return worst / c.scale();
}

// c's points by sample_basis and evaluate on B.
template <class B>
linalg::Dense<double> evaluated(typename B::Exec& exec, const Product& c, index_t patches, const linalg::Dense<double>& X) {
  const auto table = schemes::patches::binomials(exec, 31);
  std::vector<schemes::patches::SampleBasis<double, typename B::Exec::space>> bases;
  for (std::size_t d = 0; d < c.bases.size(); ++d)
    bases.push_back(schemes::patches::sample_basis(exec, c.bases[d], c.degrees[d], table, samples_on<B>(c.at[d])));
  const std::array<int, 3> orders{c.orders[0], c.orders.size() > 1 ? c.orders[1] : 0, c.orders.size() > 2 ? c.orders[2] : 0};
  const auto X_on = B::upload(X);
  switch (bases.size()) {
    case 1: return B::download(schemes::patches::evaluate(exec, {&bases[0]}, patches, X_on, orders));
    case 2: return B::download(schemes::patches::evaluate(exec, {&bases[0], &bases[1]}, patches, X_on, orders));
    default: return B::download(schemes::patches::evaluate(exec, {&bases[0], &bases[1], &bases[2]}, patches, X_on, orders));
  }
}

TEST_CASE_TEMPLATE("patch surfaces and volumes of mixed bases and degrees (up to 15) are curves of curves, "
                   "their mixed derivatives included",
                   B, SPMESH_TEST_BACKENDS) {
  typename B::Exec exec;
  const std::vector<Product> cases{
      {{Basis::bernstein, Basis::bernstein}, {3, 3}, {0, 0}, {}},
      {{Basis::bspline, Basis::bspline}, {3, 3}, {1, 1}, {}},
      {{Basis::bernstein, Basis::bspline}, {15, 5}, {2, 0}, {}},
      {{Basis::bspline, Basis::bernstein}, {7, 12}, {0, 2}, {}},
      {{Basis::bspline, Basis::bspline, Basis::bspline}, {3, 3, 3}, {0, 0, 0}, {}},
      {{Basis::bernstein, Basis::bspline, Basis::bernstein}, {2, 4, 6}, {1, 0, 1}, {}},
  };
  for (Product c : cases) {
    CAPTURE(c.bases.size());
    CAPTURE(c.degrees[0]);
    CAPTURE(c.orders[0]);
    for (std::size_t d = 0; d < c.bases.size(); ++d) c.at.push_back(sample_values(4 + int(d)));
    const auto [nets, X] = nets_of(c, 2, 3);
    CHECK(worst_difference(evaluated<B>(exec, c, 2, X), c, nets) <= 1e-12);
  }
}

TEST_CASE_TEMPLATE("patch tiles: columns past a tile's four, a direction's points split among tiles, several "
                   "sample rows a tile, a degree-31 direction",
                   B, SPMESH_TEST_BACKENDS) {
  typename B::Exec exec;
  const std::vector<std::pair<Product, index_t>> cases{
      // 5000 points of a curve: three spans of tensor_tile_points; seven columns: two tiles' worth.
      {{{Basis::bernstein}, {5}, {1}, {sample_values(5000)}}, 7},
      // Rows of 3000 points: a row a tile, split.
      {{{Basis::bspline, Basis::bspline}, {3, 2}, {0, 1}, {sample_values(3), sample_values(3000)}}, 5},
      // Rows of 63 points: 32 rows a tile.
      {{{Basis::bspline, Basis::bernstein, Basis::bspline}, {2, 3, 1}, {0, 0, 2}, {sample_values(40), sample_values(7), sample_values(9)}}, 1},
      // Degree 31 (its curve and derivatives are de Casteljau's to a looser 1e-10: 2^31 x the net).
      {{{Basis::bernstein, Basis::bspline}, {31, 4}, {2, 0}, {sample_values(6), sample_values(5)}}, 3},
  };
  for (const auto& [c, columns] : cases) {
    CAPTURE(c.bases.size());
    CAPTURE(columns);
    const auto [nets, X] = nets_of(c, 3, columns);
    CHECK(worst_difference(evaluated<B>(exec, c, 3, X), c, nets) <= (c.degrees[0] == 31 ? 1e-10 : 1e-12));
  }
}

TEST_CASE_TEMPLATE("GridEvaluator remakes the binomials only for a higher degree and a basis only for a new grid, "
                   "and gives evaluate's points bit for bit",
                   B, SPMESH_TEST_BACKENDS) {
  using schemes::patches::Grid;
  using S = typename B::Exec::space;
  typename B::Exec exec;
  schemes::patches::GridEvaluator<double, S> grids;
  const Grid cubic_u{Basis::bernstein, 3, 20}, cubic_v{Basis::bernstein, 3, 30};
  Product c{{Basis::bernstein, Basis::bernstein}, {3, 3}, {0, 1}, {}};
  for (index_t n : {20, 30}) {
    std::vector<double> t;
    for (index_t s = 0; s < n; ++s) t.push_back(double(s) / double(n - 1));
    c.at.push_back(t);
  }
  auto [nets, X] = nets_of(c, 4, 3);
  const auto first = B::download(grids.evaluate(exec, {cubic_u, cubic_v}, 4, B::upload(X), {0, 1, 0}));
  CHECK(worst_difference(first, c, nets) <= 1e-12);
  // The same points as sample_basis and evaluate at uniform_samples, bit for bit.
  const auto table = schemes::patches::binomials(exec, 3);
  const auto u = schemes::patches::sample_basis(exec, Basis::bernstein, 3, table,
                                                schemes::patches::uniform_samples<typename B::Exec, double>(exec, 20));
  const auto v = schemes::patches::sample_basis(exec, Basis::bernstein, 3, table,
                                                schemes::patches::uniform_samples<typename B::Exec, double>(exec, 30));
  const auto direct = B::download(schemes::patches::evaluate(exec, {&u, &v}, 4, B::upload(X), {0, 1, 0}));
  CHECK(first.data.to_vector() == direct.data.to_vector());
  CHECK(grids.counts().binomials == 1);
  CHECK(grids.counts().bases == 2);
  // Moved control points (seed 001's case A): level 1 alone.
  std::tie(nets, X) = nets_of(c, 5, 3);
  CHECK(worst_difference(B::download(grids.evaluate(exec, {cubic_u, cubic_v}, 5, B::upload(X), {0, 1, 0})), c, nets) <= 1e-12);
  CHECK(grids.counts().bases == 2);
  const auto zeros = [](int degree) {
    return B::upload(linalg::Dense<double>(degree + 1, 3, linalg::Array<double>(3 * (degree + 1), 0.0)));
  };
  // A lower degree and a new resolution (case B): a basis each, the binomials kept.
  grids.evaluate(exec, {Grid{Basis::bernstein, 2, 20}}, 1, zeros(2));
  grids.evaluate(exec, {Grid{Basis::bernstein, 3, 21}}, 1, zeros(3));
  CHECK(grids.counts().binomials == 1);
  CHECK(grids.counts().bases == 4);
  // A higher degree (case C): all three levels.
  grids.evaluate(exec, {Grid{Basis::bernstein, 7, 20}}, 1, zeros(7));
  CHECK(grids.counts().binomials == 2);
  CHECK(grids.counts().bases == 5);
  // Past kept_bases grids the least recently used go first: cubic_u, used again here, outlives
  // cubic_v through three new grids.
  grids.evaluate(exec, {cubic_u}, 1, zeros(3));
  for (int degree : {4, 5, 6}) grids.evaluate(exec, {Grid{Basis::bspline, degree, 8}}, 1, zeros(degree));
  CHECK(grids.counts().bases == 8);
  CHECK(worst_difference(B::download(grids.evaluate(exec, {cubic_u, cubic_v}, 5, B::upload(X), {0, 1, 0})), c, nets) <=
        1e-12);
  CHECK(grids.counts().bases == 9);
  CHECK(grids.counts().evaluations == 10);
}

TEST_CASE_TEMPLATE("SplitEvaluator shares one evaluation between the host and a device, fixed or dynamic, each "
                   "group the points of the executor that took it",
                   B, SPMESH_TEST_BACKENDS) {
  using schemes::patches::Distribution;
  using schemes::patches::Grid;
  using S = typename B::Exec::space;
  linalg::cpu::Executor host;
  typename B::Exec device;
  // 3 patches of 37 rows of 3000 points: a row a group (two tiles, tensor_tile_points apart), 111 groups.
  const Grid u{Basis::bernstein, 5, 37}, v{Basis::bspline, 3, 3000};
  const index_t patches = 3;
  linalg::Dense<double> X(patches * 24, 3);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> coordinate(-1, 1);
  for (double& x : X.data) x = coordinate(rng);
  const auto X_device = B::upload(X);
  schemes::patches::GridEvaluator<double> on_host;
  schemes::patches::GridEvaluator<double, S> on_device;
  const auto host_only = on_host.evaluate(host, {u, v}, patches, X).data.to_vector();
  const auto device_only = B::download(on_device.evaluate(device, {u, v}, patches, X_device)).data.to_vector();
  schemes::patches::SplitEvaluator<double, S> split;
  const std::int64_t group_values = 3000 * 3, groups = 3 * 37;
  for (double share : {0.0, 0.3, 1.0}) {
    CAPTURE(share);
    const auto got = split.evaluate(host, device, {u, v}, patches, X, X_device, {Distribution::fixed, share}).data.to_vector();
    const auto taken = split.taken();
    CHECK(taken.host == index_t(share * double(groups) + 0.5));
    CHECK(taken.host + taken.device == groups);
    // The host's groups first, as the host alone gives them; the device's after, as it alone does.
    const auto cut = got.begin() + taken.host * group_values;
    CHECK(std::equal(got.begin(), cut, host_only.begin()));
    CHECK(std::equal(cut, got.end(), device_only.begin() + taken.host * group_values));
  }
  for (index_t chunk : {0, 1, 7}) {
    CAPTURE(chunk);
    const auto got = split.evaluate(host, device, {u, v}, patches, X, X_device, {Distribution::dynamic, 0, chunk}).data.to_vector();
    CHECK(split.taken().host + split.taken().device == groups);
    REQUIRE(got.size() == host_only.size());
    // Each group as one of the two executors gives it.
    for (std::int64_t g = 0; g < groups; ++g) {
      const auto at = std::size_t(g * group_values), end = at + std::size_t(group_values);
      CHECK((std::equal(got.begin() + at, got.begin() + end, host_only.begin() + at) ||
             std::equal(got.begin() + at, got.begin() + end, device_only.begin() + at)));
    }
  }
  CHECK_THROWS_WITH_AS(split.evaluate(host, device, {u, v}, patches, X, X_device, {Distribution::fixed, 1.5}),
                       "patches::SplitEvaluator: host share 1.500000, not 0 to 1", InputError);
}

TEST_CASE("binomials on the executor are Pascal's triangle to degree 31, exactly") {
  linalg::cpu::Executor exec;
  const auto table = schemes::patches::binomials(exec, 31);
  std::vector<std::uint64_t> row{1};
  for (int n = 0; n <= 31; ++n) {
    for (int i = 0; i <= n; ++i) CHECK(table[schemes::patches::binomial_row(n) + i] == double(row[std::size_t(i)]));
    std::vector<std::uint64_t> next(row.size() + 1, 1);
    for (std::size_t i = 1; i < row.size(); ++i) next[i] = row[i - 1] + row[i];
    row = next;
  }
}

TEST_CASE_TEMPLATE("patches refuse degrees past 31, a control net of the wrong size and a fourth direction by name",
                   B, SPMESH_TEST_BACKENDS) {
  typename B::Exec exec;
  CHECK_THROWS_WITH_AS(schemes::patches::binomials(exec, 32), "patches: degree 32; spmesh evaluates degrees 0 to 31",
                       InputError);
  const auto table = schemes::patches::binomials(exec, 3);
  const auto t = samples_on<B>(sample_values(5));
  CHECK_THROWS_AS(schemes::patches::sample_basis(exec, Basis::bernstein, 4, table, t), DimensionError);
  const auto cubic = schemes::patches::sample_basis(exec, Basis::bernstein, 3, table, t);
  const auto X = B::upload(linalg::Dense<double>(15, 3));
  CHECK_THROWS_WITH_AS(schemes::patches::evaluate(exec, {&cubic, &cubic}, 1, X),
                       "patches::evaluate: X has 15 rows, 1 patches of 16 control points need 16", DimensionError);
  CHECK_THROWS_AS(schemes::patches::evaluate(exec, {&cubic, &cubic, &cubic, &cubic}, 1, X), DimensionError);
  CHECK_THROWS_AS(schemes::patches::evaluate(exec, {&cubic}, 1, X, {3, 0, 0}), DimensionError);
}

}  // namespace spmesh::test::patch_tests
