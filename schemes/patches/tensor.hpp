// Tensor-product patches (Bezier and uniform B-spline, 1 to 3 directions) evaluated at a grid of
// samples, in seed 001's three levels, each made once and kept while its input stays:
//   level 3  the binomials of the degrees (basis.hpp's binomials(), uploaded once);
//   level 2  each direction's basis at its samples (sample_basis: values and first and second
//            derivatives, samples x (degree + 1));
//   level 1  the points of many patches that share the directions (evaluate: a sum over the
//            control net a point, its terms products of the directions' basis values).
// A patch's control points are (degree_0 + 1) x ... x (degree_{D-1} + 1) rows of X, the first
// direction's index slowest; its points are samples_0 x ... x samples_{D-1} rows, in the same
// order, patch after patch.
#pragma once

#include "linalg/formats.hpp"
#include "schemes/patches/basis.hpp"

#include <array>
#include <initializer_list>
#include <string>

namespace spmesh::schemes::patches {

// Level 2 for one direction: the basis at each sample, row s = the degree + 1 functions at
// sample s, and their first and second derivatives.
template <class T, class S = linalg::Host>
struct SampleBasis {
  Basis basis = Basis::bernstein;
  int degree = 0;
  index_t samples = 0;
  linalg::Array<T, S> values, first, second;
};

template <class Exec, class T, class S = typename Exec::space>
SampleBasis<T, S> sample_basis(Exec& exec, Basis basis, int degree, const linalg::Array<double, S>& binomials,
                               const linalg::Array<T, S>& at) {
  check_degree(degree);
  if (basis == Basis::bernstein && binomials.size() < binomial_row(degree + 1))
    throw DimensionError("patches: degree " + std::to_string(degree) + " needs " +
                         std::to_string(binomial_row(degree + 1)) + " binomials, not " +
                         std::to_string(binomials.size()));
  const index_t samples = at.size(), width = degree + 1;
  const auto size = checked_index(std::int64_t(samples) * width, "patches: samples x basis functions");
  SampleBasis<T, S> out{basis, degree, samples, linalg::Array<T, S>(size), linalg::Array<T, S>(size),
                        linalg::Array<T, S>(size)};
  T *values = out.values.data(), *first = out.first.data(), *second = out.second.data();
  const T* t = at.data();
  const double* table = binomials.data();
  exec.for_each(samples, [=] SPMESH_HD(index_t s) {
    basis_functions(basis, degree, table, t[s], values + s * width, first + s * width, second + s * width);
  });
  return out;
}

namespace detail {

// What a kernel reads of a direction: its basis rows of the derivative order asked.
template <class T>
struct DirectionView {
  const T* rows = nullptr;
  int width = 1;       // degree + 1
  index_t samples = 1;
};

template <class T>
struct TensorView {
  int directions = 1;
  DirectionView<T> direction[3];
};

}  // namespace detail

// Level 1: the points (or the derivative of orders `orders[d]` in direction d, each 0, 1 or 2) of
// `patches` patches whose control points are X's rows (see above), at the grid of `directions`'
// samples (1 to 3 directions). DimensionError unless X has a row per control point of every patch.
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> evaluate(Exec& exec, std::initializer_list<const SampleBasis<T, S>*> directions, index_t patches,
                             const linalg::Dense<T, S>& X, std::array<int, 3> orders = {0, 0, 0}) {
  if (directions.size() < 1 || directions.size() > 3)
    throw DimensionError("patches::evaluate: " + std::to_string(directions.size()) + " directions, not 1 to 3");
  detail::TensorView<T> view;
  view.directions = int(directions.size());
  std::int64_t controls = 1, points = 1;
  int d = 0;
  for (const SampleBasis<T, S>* b : directions) {
    const int order = orders[std::size_t(d)];
    if (order < 0 || order > 2)
      throw DimensionError("patches::evaluate: derivative order " + std::to_string(order) + ", not 0 to 2");
    view.direction[d] = {(order == 0 ? b->values : order == 1 ? b->first : b->second).data(), b->degree + 1,
                         b->samples};
    controls *= b->degree + 1, points *= b->samples;
    ++d;
  }
  if (X.rows != std::int64_t(patches) * controls)
    throw DimensionError("patches::evaluate: X has " + std::to_string(X.rows) + " rows, " + std::to_string(patches) +
                         " patches of " + std::to_string(controls) + " control points need " +
                         std::to_string(std::int64_t(patches) * controls));
  const index_t rows = checked_index(std::int64_t(patches) * points, "patches::evaluate: points");
  const index_t k = X.cols, per_patch = index_t(points), per_control = index_t(controls);
  linalg::Dense<T, S> out(rows, k);
  const T* x = X.data.data();
  T* y = out.data.data();
  constexpr int block = 4;  // columns summed in one pass over the control net
  exec.for_each(rows, [=] SPMESH_HD(index_t row) {
    const index_t patch = row / per_patch;
    // The sample of each direction, the last fastest.
    index_t rest = row % per_patch, sample[3] = {0, 0, 0};
    for (int e = view.directions - 1; e >= 0; --e)
      sample[e] = rest % view.direction[e].samples, rest /= view.direction[e].samples;
    const T* basis[3] = {nullptr, nullptr, nullptr};
    int width[3] = {1, 1, 1};
    for (int e = 0; e < view.directions; ++e)
      width[e] = view.direction[e].width, basis[e] = view.direction[e].rows + sample[e] * width[e];
    const T* net = x + std::int64_t(patch) * per_control * k;
    for (index_t first = 0; first < k; first += block) {
      const int n = int(k - first < block ? k - first : block);
      T sum[block] = {};
      for (int a = 0; a < width[0]; ++a)
        for (int b = 0; b < width[1]; ++b)
          for (int c = 0; c < width[2]; ++c) {
            const T weight = basis[0][a] * (basis[1] ? basis[1][b] : T(1)) * (basis[2] ? basis[2][c] : T(1));
            const T* p = net + (std::int64_t(a * width[1] + b) * width[2] + c) * k + first;
            for (int j = 0; j < n; ++j) sum[j] += weight * p[j];
          }
      for (int j = 0; j < n; ++j) y[std::int64_t(row) * k + first + j] = sum[j];
    }
  });
  return out;
}

}  // namespace spmesh::schemes::patches
