// The 1D bases of tensor-product patches, after seed 001's levels 3 and 2 (the binomials of a
// degree; the basis at a sample): Bernstein polynomials of degree n on [0, 1] (Bezier patches)
// and the uniform B-spline of degree n on one knot span (its n + 1 functions that are non-zero
// there, the span taken as [0, 1]), with their first and second derivatives. tensor.hpp combines
// them with the control points (level 1).
//
// Every value is a sum of positive terms, accurate to a few ulps at any degree:
//   Bernstein   B_i,n(t) = C(n, i) t^i (1 - t)^(n - i), from the binomials and powers of t, 1 - t;
//   B-spline    N_j,n(t) by the Cox-de Boor triangle on the knots 0, 1, 2, ... (The NURBS Book,
//               algorithm A2.2), whose denominators are all j on a uniform knot vector.
// Derivatives are differences of the degree n - 1 and n - 2 functions (their only cancellation):
//   B'_i,n = n (B_i-1,n-1 - B_i,n-1),   B''_i,n = n (n - 1) (B_i-2,n-2 - 2 B_i-1,n-2 + B_i,n-2),
//   N'_j,n = N_j-1,n-1 - N_j,n-1,       N''_j,n = N_j-2,n-2 - 2 N_j-1,n-2 + N_j,n-2,
// a function of index outside 0..degree being 0 (the B-spline's lower-degree functions are those
// non-zero on the same span).
#pragma once

#include "linalg/array.hpp"
#include "linalg/base.hpp"

#include <string>

namespace spmesh::schemes::patches {

enum class Basis { bernstein, bspline };

// The highest degree evaluated: a degree's functions are a GPU thread's registers.
inline constexpr int max_degree = 31;

// Where degree n's row of a binomial table starts: rows 0, 1, ..., n one after another.
SPMESH_HD inline int binomial_row(int n) { return n * (n + 1) / 2; }

// InputError unless 0 <= degree <= max_degree.
inline void check_degree(int degree) {
  if (degree < 0 || degree > max_degree)
    throw InputError("patches: degree " + std::to_string(degree) + "; spmesh evaluates degrees 0 to " +
                     std::to_string(max_degree));
}

// Level 3: the binomial coefficients C(n, i) of every degree n up to `degree` (binomial_row), in
// the executor's memory. Each is the product C(n - i + j, j) = C(n - i + j - 1, j - 1) (n - i + j) / j
// for j = 1 .. i, every step an integer below 2^53 (n <= 31), so exact in double.
template <class Exec, class S = typename Exec::space>
linalg::Array<double, S> binomials(Exec& exec, int degree) {
  check_degree(degree);
  linalg::Array<double, S> table(binomial_row(degree + 1));
  double* out = table.data();
  exec.for_each(table.size(), [=] SPMESH_HD(index_t at) {
    int n = 0;
    while (binomial_row(n + 1) <= at) ++n;
    const int i = int(at) - binomial_row(n);
    double c = 1;
    for (int j = 1; j <= i; ++j) c = c * double(n - i + j) / double(j);
    out[at] = c;
  });
  return table;
}

namespace detail {

// The degree + 1 Bernstein values at t from C(degree, .) (`row`).
template <class T>
SPMESH_HD void bernstein_values(int degree, const double* row, T t, T* values) {
  const T s = T(1) - t;
  T power = T(1);  // t^i
  for (int i = 0; i <= degree; ++i) values[i] = T(row[i]) * power, power *= t;
  power = T(1);  // (1 - t)^(degree - i)
  for (int i = degree; i >= 0; --i) values[i] *= power, power *= s;
}

// The degree + 1 uniform B-spline values at t in [0, 1] of one span (A2.2 with U_k = k).
template <class T>
SPMESH_HD void bspline_values(int degree, T t, T* values) {
  values[0] = T(1);
  for (int j = 1; j <= degree; ++j) {
    T saved = T(0);
    for (int r = 0; r < j; ++r) {
      // A2.2's right[r + 1] = r + 1 - t and left[j - r] = t + j - r - 1 sum to j.
      const T temp = values[r] / T(j);
      values[r] = saved + (T(r + 1) - t) * temp;
      saved = (t + T(j - r - 1)) * temp;
    }
    values[j] = saved;
  }
}

template <class T>
SPMESH_HD void values_of(Basis basis, int degree, const double* binomials, T t, T* values) {
  if (basis == Basis::bernstein) bernstein_values(degree, binomials + binomial_row(degree), t, values);
  else bspline_values(degree, t, values);
}

}  // namespace detail

// The degree + 1 functions of `basis` at t in [0, 1] and, where given, their first and second
// derivatives. `binomials`: a table from binomials() of at least `degree` (Bernstein only; may be
// null for B-splines), in the memory of the caller's executor.
template <class T>
SPMESH_HD void basis_functions(Basis basis, int degree, const double* binomials, T t, T* values, T* first = nullptr,
                               T* second = nullptr) {
  detail::values_of(basis, degree, binomials, t, values);
  T lower[max_degree + 1] = {};
  auto at = [&](int i, int n) { return i < 0 || i > n ? T(0) : lower[i]; };
  if (first) {
    if (degree >= 1) detail::values_of(basis, degree - 1, binomials, t, lower);
    const T scale = basis == Basis::bernstein ? T(degree) : T(1);
    for (int i = 0; i <= degree; ++i)
      first[i] = degree >= 1 ? scale * (at(i - 1, degree - 1) - at(i, degree - 1)) : T(0);
  }
  if (second) {
    if (degree >= 2) detail::values_of(basis, degree - 2, binomials, t, lower);
    const T scale = basis == Basis::bernstein ? T(degree) * T(degree - 1) : T(1);
    for (int i = 0; i <= degree; ++i)
      second[i] =
          degree >= 2 ? scale * (at(i - 2, degree - 2) - T(2) * at(i - 1, degree - 2) + at(i, degree - 2)) : T(0);
  }
}

// The cubic uniform B-spline's four functions at t in [0, 1] and their slopes in closed form
// (basis_functions' at degree 3, each to a few ulps, with no loop: a thread's registers), s = 1 - t:
//   N_0 = s^3 / 6, N_1 = (3 t^3 - 6 t^2 + 4) / 6, N_2 = (3 s^3 - 6 s^2 + 4) / 6, N_3 = t^3 / 6.
template <class T>
SPMESH_HD void cubic_bspline(T t, T values[4], T first[4]) {
  const T s = T(1) - t, sixth = T(1) / T(6), half = T(0.5);  // (products, not divisions: a GPU divides slowly)
  values[0] = s * s * s * sixth, values[1] = (t * t * (T(3) * t - T(6)) + T(4)) * sixth;
  values[2] = (s * s * (T(3) * s - T(6)) + T(4)) * sixth, values[3] = t * t * t * sixth;
  first[0] = -s * s * half, first[1] = t * (T(3) * t - T(4)) * half;
  first[2] = -s * (T(3) * s - T(4)) * half, first[3] = t * t * half;
}

}  // namespace spmesh::schemes::patches
