// Tensor-product patches (schemes/patches/) against independent algorithms in double: Bezier
// curves and their derivatives by de Casteljau on the control points and on their differences
// (the hodographs), uniform B-splines by de Boor's algorithm (repeated knot insertion), and
// surfaces and volumes as curves of curves; at degrees 1 to 15, 1e-12 of the control points'
// size.
#include "schemes/patches/tensor.hpp"

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
linalg::Array<double, typename B::Exec::space> binomials_on(int degree) {
  return B::upload(linalg::Array<double>(schemes::patches::binomials(degree)));
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
  const auto table = binomials_on<B>(15);
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

TEST_CASE_TEMPLATE("patch surfaces and volumes of mixed bases and degrees (up to 15) are curves of curves, "
                   "their mixed derivatives included",
                   B, SPMESH_TEST_BACKENDS) {
  typename B::Exec exec;
  const auto table = binomials_on<B>(15);
  struct Case {
    std::vector<Basis> bases;
    std::vector<int> degrees;
    std::vector<int> orders;
  };
  const std::vector<Case> cases{
      {{Basis::bernstein, Basis::bernstein}, {3, 3}, {0, 0}},
      {{Basis::bspline, Basis::bspline}, {3, 3}, {1, 1}},
      {{Basis::bernstein, Basis::bspline}, {15, 5}, {2, 0}},
      {{Basis::bspline, Basis::bernstein}, {7, 12}, {0, 2}},
      {{Basis::bspline, Basis::bspline, Basis::bspline}, {3, 3, 3}, {0, 0, 0}},
      {{Basis::bernstein, Basis::bspline, Basis::bernstein}, {2, 4, 6}, {1, 0, 1}},
  };
  for (const Case& c : cases) {
    const std::size_t D = c.bases.size();
    CAPTURE(D);
    CAPTURE(c.degrees[0]);
    CAPTURE(c.orders[0]);
    std::vector<std::vector<double>> t;
    std::vector<schemes::patches::SampleBasis<double, typename B::Exec::space>> bases;
    std::size_t controls = 1, points = 1;
    for (std::size_t d = 0; d < D; ++d) {
      t.push_back(sample_values(4 + int(d)));
      bases.push_back(schemes::patches::sample_basis(exec, c.bases[d], c.degrees[d], table, samples_on<B>(t.back())));
      controls *= std::size_t(c.degrees[d] + 1), points *= t.back().size();
    }
    const index_t patches = 2;
    std::vector<Points> nets;
    linalg::Dense<double> X(patches * index_t(controls), 3);
    for (index_t p = 0; p < patches; ++p) {
      nets.push_back(random_points(controls, 31u + unsigned(p) + 7u * unsigned(D)));
      for (std::size_t i = 0; i < controls; ++i)
        for (int x = 0; x < 3; ++x) X(p * index_t(controls) + index_t(i), x) = nets.back()[i][x];
    }
    const auto X_on = B::upload(X);
    const std::array<int, 3> orders{c.orders[0], D > 1 ? c.orders[1] : 0, D > 2 ? c.orders[2] : 0};
    const auto got = B::download(
        D == 2 ? schemes::patches::evaluate(exec, {&bases[0], &bases[1]}, patches, X_on, orders)
               : schemes::patches::evaluate(exec, {&bases[0], &bases[1], &bases[2]}, patches, X_on, orders));
    REQUIRE(got.rows == patches * index_t(points));
    double worst = 0, scale = 1;
    for (std::size_t d = 0; d < D; ++d) scale *= scale_of(c.bases[d], c.degrees[d], c.orders[d]);
    for (index_t p = 0; p < patches; ++p)
      for (std::size_t s = 0; s < points; ++s) {
        // Sample s's index in each direction, the last fastest.
        std::vector<double> at(D);
        std::size_t rest = s;
        for (std::size_t d = D; d-- > 0;) at[d] = t[d][rest % t[d].size()], rest /= t[d].size();
        const auto expected = product(c.bases, c.degrees, nets[std::size_t(p)], at, c.orders);
        for (int x = 0; x < 3; ++x)
          worst = std::max(worst, std::abs(got(p * index_t(points) + index_t(s), x) - expected[std::size_t(x)]));
      }
    CHECK(worst <= 1e-12 * scale);
  }
}

TEST_CASE_TEMPLATE("patches refuse degrees past 31, a control net of the wrong size and a fourth direction by name",
                   B, SPMESH_TEST_BACKENDS) {
  typename B::Exec exec;
  CHECK_THROWS_WITH_AS(schemes::patches::binomials(32), "patches: degree 32; spmesh evaluates degrees 0 to 31",
                       InputError);
  const auto table = binomials_on<B>(3);
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
