// Tensor-product patches (Bezier and uniform B-spline, 1 to 3 directions) evaluated at a grid of
// samples, in seed 001's three levels:
//   level 3  the binomials of the degrees (basis.hpp's binomials());
//   level 2  each direction's basis at its samples (sample_basis: values and first and second
//            derivatives);
//   level 1  the points of many patches that share the directions (evaluate).
// evaluator.hpp keeps levels 3 and 2 between evaluations and remakes them only when their inputs
// change. A patch's control points are (degree_0 + 1) x ... x (degree_{D-1} + 1) rows of X, the
// first direction's index slowest; its points are samples_0 x ... x samples_{D-1} rows, in the
// same order, patch after patch.
#pragma once

#include "linalg/formats.hpp"
#include "schemes/patches/basis.hpp"
#include "schemes/tuning.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <string>

namespace spmesh::schemes::patches {

// Level 2 for one direction: the degree + 1 functions of the basis at every sample, function-major
// (values[a * samples + s] is function a at sample s, so that the threads of consecutive samples
// read consecutive words), and their first and second derivatives alike.
template <class T, class S = linalg::Host>
struct SampleBasis {
  Basis basis = Basis::bernstein;
  int degree = 0;
  index_t samples = 0;
  linalg::Array<T, S> values, first, second;
};

// n samples evenly over [0, 1], both ends included (n = 1: the middle).
template <class Exec, class T, class S = typename Exec::space>
linalg::Array<T, S> uniform_samples(Exec& exec, index_t n) {
  linalg::Array<T, S> at(n);
  T* t = at.data();
  exec.for_each(n, [=] SPMESH_HD(index_t s) { t[s] = n == 1 ? T(0.5) : T(double(s) / double(n - 1)); });
  return at;
}

// `basis` of `degree` at the samples `at` (in [0, 1]); `binomials` from binomials() of at least
// `degree` (read for Bernstein only).
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
    T value[max_degree + 1], slope[max_degree + 1], curvature[max_degree + 1];
    basis_functions(basis, degree, table, t[s], value, slope, curvature);
    for (index_t a = 0; a < width; ++a)
      values[a * samples + s] = value[a], first[a * samples + s] = slope[a], second[a * samples + s] = curvature[a];
  });
  return out;
}

namespace detail {

// What the kernel reads of a direction: its functions of the derivative order asked. A direction
// without rows is one padded in: one function, of value 1, at one sample.
template <class T>
struct DirectionView {
  const T* rows = nullptr;
  int width = 1;  // degree + 1
  index_t samples = 1;
  SPMESH_HD T at(int a, index_t s) const { return rows ? rows[a * samples + s] : T(1); }
};

// Level 1 as a sum factorisation (the matrix form phi(u)^T P psi(v) of seed 001's Eq. 3, taken a
// direction at a time). With the directions padded to three, a tile holds `rows` samples of the
// first direction of one patch, a `span` of the points of the other two (the last fastest) and up
// to `max_columns` of X's columns:
//   phase 0  contracts the first direction into shared memory,
//            partial[r][j][c] = sum_a B_0(a, r) X[a][j][c], j over the other directions' controls;
//   phase 1  sums each point from it, S[r][s_1 s_2][c] = sum_j B_1(j_1, s_1) B_2(j_2, s_2) partial[r][j][c].
// So a point costs width_1 width_2 multiply-adds a column, not width_0 width_1 width_2, and the
// control net is read once per tile.
template <class T>
struct TensorTiles {
  static constexpr int threads = tuning::tensor_tile_threads, max_columns = 4;
  DirectionView<T> direction[3];
  const T* x = nullptr;
  T* y = nullptr;
  index_t k = 0;                  // X's columns
  index_t points = 0, controls = 0;  // a patch's
  index_t rest = 0;                  // the points of directions 1 and 2 together
  int rows = 1, columns = 1;         // a tile's
  index_t span = 1;
  index_t patches = 0, total = 0;    // total: the points of all patches
  index_t row_tiles = 1, span_tiles = 1, column_tiles = 1;
  // Where a launch starts: its tile 0 is tile first_tile, and y holds the rows from
  // first_out_row on (evaluate_groups).
  index_t first_tile = 0;
  std::int64_t first_out_row = 0;

  // A group is a patch's row tile: its tiles (span_tiles x column_tiles) write a run of
  // consecutive rows, from group_row(g) to group_row(g + 1).
  index_t groups() const { return patches * row_tiles; }
  std::int64_t group_row(index_t g) const {
    if (g >= groups()) return total;
    return std::int64_t(g / row_tiles) * points + std::int64_t(g % row_tiles) * rows * rest;
  }

  int inner() const { return direction[1].width * direction[2].width; }
  std::size_t bytes() const { return std::size_t(rows) * std::size_t(inner()) * std::size_t(columns) * sizeof(T); }

  // What one tile takes: rows [first_row, + rows) of the first direction, points
  // [first_point, + span) of the other two, columns [first_column, + columns) of X.
  struct Tile {
    index_t patch, first_row, first_point, span, first_column;
    int rows, columns;
  };
  SPMESH_HD Tile tile_at(index_t launched) const {
    const index_t tile = launched + first_tile;
    const index_t column_tile = tile % column_tiles, span_tile = tile / column_tiles % span_tiles,
                  row_tile = tile / column_tiles / span_tiles % row_tiles;
    Tile t{tile / column_tiles / span_tiles / row_tiles, row_tile * rows, span_tile * span, span,
           column_tile * columns, rows, columns};
    if (t.first_row + t.rows > direction[0].samples) t.rows = int(direction[0].samples - t.first_row);
    if (t.first_point + t.span > rest) t.span = rest - t.first_point;
    if (t.first_column + t.columns > k) t.columns = int(k - t.first_column);
    return t;
  }

  SPMESH_HD void operator()(int phase, index_t tile, int thread, std::byte* shared) const {
    const Tile t = tile_at(tile);
    T* partial = reinterpret_cast<T*>(shared);
    if (phase == 0) contract(t, thread, partial);
    else if (direction[2].rows) sum_points<true>(t, thread, partial);
    else sum_points<false>(t, thread, partial);
  }

  // Phase 0: partial[r][j][c], `columns` wide (past the tile's columns, zeros).
  SPMESH_HD void contract(const Tile& t, int thread, T* partial) const {
    const int inner = direction[1].width * direction[2].width;
    const T* net = x + std::int64_t(t.patch) * controls * k + t.first_column;
    for (int i = thread; i < t.rows * inner * columns; i += threads) {
      const int c = i % columns, j = i / columns % inner, r = i / columns / inner;
      T sum = T(0);
      if (c < t.columns)
        for (int a = 0; a < direction[0].width; ++a)
          sum += direction[0].at(a, t.first_row + r) * net[(std::int64_t(a) * inner + j) * k + c];
      partial[i] = sum;
    }
  }

  // Phase 1. Third: the third direction is a real one (a volume), not one padded in.
  template <bool Third>
  SPMESH_HD void sum_points(const Tile& t, int thread, const T* partial) const {
    const int width1 = direction[1].width, width2 = Third ? direction[2].width : 1, inner = width1 * width2;
    T* out = y + (std::int64_t(t.patch) * points + std::int64_t(t.first_row) * rest - first_out_row) * k + t.first_column;
    // Point (r, q) of the tile is its item r span + q; the next this thread takes, `threads`
    // items on, is found by carrying, not dividing.
    int r = int(thread / t.span);
    for (index_t q = thread % t.span; r < t.rows;) {
      const index_t point = t.first_point + q;
      const index_t s1 = Third ? point / direction[2].samples : point, s2 = Third ? point % direction[2].samples : 0;
      const T* from = partial + std::int64_t(r) * inner * columns;
      T sum[max_columns] = {};
      for (int j1 = 0; j1 < width1; ++j1) {
        const T b1 = direction[1].at(j1, s1);
        for (int j2 = 0; j2 < width2; ++j2) {
          const T weight = Third ? b1 * direction[2].at(j2, s2) : b1;
          const T* p = from + (j1 * width2 + j2) * columns;
#pragma unroll
          for (int c = 0; c < max_columns; ++c)
            if (c < columns) sum[c] += weight * p[c];
        }
      }
      T* to = out + (std::int64_t(r) * rest + point) * k;
#pragma unroll
      for (int c = 0; c < max_columns; ++c)
        if (c < t.columns) to[c] = sum[c];
      for (q += threads; q >= t.span && r < t.rows; q -= t.span) ++r;
    }
  }
};

}  // namespace detail

namespace detail {

// The tiles of an evaluation of level 1 (below), their output not yet given.
template <class T, class S>
TensorTiles<T> tiles_of(std::span<const SampleBasis<T, S>* const> directions, index_t patches,
                        const linalg::Dense<T, S>& X, std::array<int, 3> orders) {
  if (directions.size() < 1 || directions.size() > 3)
    throw DimensionError("patches::evaluate: " + std::to_string(directions.size()) + " directions, not 1 to 3");
  TensorTiles<T> tiles;
  // One direction is the middle of three; two the first two.
  int d = directions.size() == 1 ? 1 : 0;
  std::int64_t controls = 1, points = 1;
  for (const SampleBasis<T, S>* b : directions) {
    const int order = orders[std::size_t(d - (directions.size() == 1))];
    if (order < 0 || order > 2)
      throw DimensionError("patches::evaluate: derivative order " + std::to_string(order) + ", not 0 to 2");
    tiles.direction[d++] = {(order == 0 ? b->values : order == 1 ? b->first : b->second).data(), b->degree + 1,
                            b->samples};
    controls *= b->degree + 1, points *= b->samples;
  }
  if (X.rows != std::int64_t(patches) * controls)
    throw DimensionError("patches::evaluate: X has " + std::to_string(X.rows) + " rows, " + std::to_string(patches) +
                         " patches of " + std::to_string(controls) + " control points need " +
                         std::to_string(std::int64_t(patches) * controls));
  tiles.patches = patches;
  tiles.total = checked_index(std::int64_t(patches) * points, "patches::evaluate: points");
  // Tiles: a span of at most tensor_tile_points of the last two directions' points, or whole
  // rows of them, as many as make that many points and fit tensor_tile_bytes.
  const auto& [first, middle, last] = tiles.direction;
  tiles.x = X.data.data(), tiles.k = X.cols;
  tiles.points = index_t(points), tiles.controls = index_t(controls);
  tiles.rest = middle.samples * last.samples;
  tiles.columns = int(std::clamp<index_t>(X.cols, 1, tiles.max_columns));
  constexpr index_t target = tuning::tensor_tile_points;
  const std::size_t row_bytes = std::size_t(tiles.inner()) * std::size_t(tiles.columns) * sizeof(T);
  tiles.span = std::max<index_t>(1, std::min(tiles.rest, target));
  tiles.rows = int(std::clamp<std::int64_t>(std::min<std::int64_t>(target / std::max<index_t>(tiles.rest, 1),
                                                                   std::int64_t(tuning::tensor_tile_bytes / row_bytes)),
                                            1, std::max<index_t>(first.samples, 1)));
  tiles.row_tiles = (first.samples + tiles.rows - 1) / tiles.rows;
  tiles.span_tiles = (tiles.rest + tiles.span - 1) / tiles.span;
  tiles.column_tiles = (X.cols + tiles.columns - 1) / tiles.columns;
  checked_index(std::int64_t(patches) * tiles.row_tiles * tiles.span_tiles * tiles.column_tiles,
                "patches::evaluate: tiles");
  return tiles;
}

// Groups [first, last) of `tiles` (TensorTiles::group_row), written to `out`, which holds their
// rows from group first's on.
template <class Exec, class T>
void evaluate_groups(Exec& exec, TensorTiles<T> tiles, index_t first, index_t last, T* out) {
  if (last <= first || tiles.k == 0) return;
  const index_t per_group = tiles.span_tiles * tiles.column_tiles;
  tiles.first_tile = first * per_group, tiles.first_out_row = tiles.group_row(first), tiles.y = out;
  exec.template for_each_tile<TensorTiles<T>::threads>((last - first) * per_group, 2, tiles.bytes(), tiles);
}

}  // namespace detail

// Level 1: the points (or the derivative of orders `orders[d]` in direction d, each 0, 1 or 2) of
// `patches` patches whose control points are X's rows (see above), at the grid of `directions`'
// samples (1 to 3 directions). DimensionError unless X has a row per control point of every patch.
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> evaluate(Exec& exec, std::span<const SampleBasis<T, S>* const> directions, index_t patches,
                             const linalg::Dense<T, S>& X, std::array<int, 3> orders = {0, 0, 0}) {
  const auto tiles = detail::tiles_of(directions, patches, X, orders);
  linalg::Dense<T, S> out(tiles.total, X.cols);
  detail::evaluate_groups(exec, tiles, 0, tiles.groups(), out.data.data());
  return out;
}
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> evaluate(Exec& exec, std::initializer_list<const SampleBasis<T, S>*> directions, index_t patches,
                             const linalg::Dense<T, S>& X, std::array<int, 3> orders = {0, 0, 0}) {
  return evaluate(exec, std::span(directions.begin(), directions.size()), patches, X, orders);
}

}  // namespace spmesh::schemes::patches
