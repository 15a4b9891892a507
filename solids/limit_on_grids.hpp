// The limit of a Catmull-Clark solid on a grid of samples in each of many cells (`spmesh limit
// --samples K`, slicing, a volume's tessellation): the K^3 samples (t_i, t_j, t_l) of every cell,
// i, j, l in 0..K-1, for K parameters t in [0, 1]. limit_at_cells (limit_at.hpp) sums each sample's
// net alone; on a grid the tricubic cells' sums share their factors across samples (seed 000's
// Eq. 1 summed a direction at a time over the whole grid): along w for each of K parameters, then
// along v, then along u, which is the tensor-product patch module's evaluation
// (schemes/patches/tensor.hpp) of the cells' nets as uniform cubic B-spline volumes. A net's layer
// beyond a boundary face is put in as its reflection 2 P_1 - P_2 (cell_nets.hpp; across two or
// three faces, across each in turn), which is the folded basis limit_at_cells uses, so the two
// agree to rounding. Layered and irregular cells are summed a sample at a time, as
// limit_at_cells sums them.
#pragma once

#include "schemes/patches/tensor.hpp"
#include "solids/limit_at.hpp"

#include <array>
#include <span>
#include <string>
#include <vector>

namespace spmesh::solids {

namespace detail {

// Point p of tricubic cell c's net (cells[j]) as a B-spline volume's control point, column col:
// the control point it names, or beyond the cell's boundary faces the reflection of the two layers
// inside across each (along each such axis a point at index 0 is 2 x the one at 1 less the one at
// 2, at index 3 the same from 2 and 1: 2^m terms across m faces).
template <class T>
struct ReflectedNets {
  const index_t *offsets, *nets, *cells;
  const std::uint8_t* kinds;
  const T* P;
  index_t k;
  T* out;  // 64 rows a cell, k columns, cell after cell
  SPMESH_HD void operator()(index_t item) const {
    const index_t j = item / tricubic_net_points;
    const int p = int(item % tricubic_net_points);
    const index_t* net = nets + offsets[cells[j]];
    const int folds = tricubic_folds(kinds[cells[j]]);
    const int at[3] = {p & 3, p >> 2 & 3, p >> 4};
    int out_axes = 0;  // the axes along which p lies beyond a boundary face
    for (int a = 0; a < 3; ++a)
      if ((at[a] == 0 && (folds >> 2 * a & 1)) || (at[a] == 3 && (folds >> (2 * a + 1) & 1))) out_axes |= 1 << a;
    T* to = out + (std::int64_t(j) * tricubic_net_points + p) * k;
    for (index_t col = 0; col < k; ++col) to[col] = T(0);
    for (int term = 0; term < 8; ++term) {
      if (term & ~out_axes) continue;  // a term picks, on each out axis, the face's layer or the next
      T weight = T(1);
      int in[3] = {at[0], at[1], at[2]};
      for (int a = 0; a < 3; ++a) {
        if (!(out_axes >> a & 1)) continue;
        const bool next = term >> a & 1, low = at[a] == 0;
        in[a] = low ? (next ? 2 : 1) : (next ? 1 : 2);
        weight *= next ? T(-1) : T(2);
      }
      const index_t vertex = net[in[0] + 4 * in[1] + 16 * in[2]];
      for (index_t col = 0; col < k; ++col) to[col] += weight * P[std::int64_t(vertex) * k + col];
    }
  }
};

// The samples of the other cells, a thread a sample: sample s is grid point s mod K^3 of
// cells[s / K^3], i along u fastest.
template <class T>
struct GridNetPoints {
  CellSamples samples;
  const index_t* cells;
  const double* at;
  index_t K;
  const T* P;
  Outputs<T> out;
  SPMESH_HD void operator()(index_t s) const {
    const index_t c = cells[s / (K * K * K)], p = s % (K * K * K);
    if (is_tricubic_net(samples.kinds[c])) return;
    const double here[3] = {at[p % K], at[p / K % K], at[p / (K * K)]};
    for_each_block(out.k, [&](auto width, index_t c0, int n) {
      Sums<T, decltype(width)::value> sums = {};
      samples.sum_at(c, here, Columns<T, decltype(width)::value>{P, out.k, c0, n}, ChildNetsView<T>{}, sums);
      write_sums(out, s, c0, n, sums);
    });
  }
};

}  // namespace detail

// The limit (positions and the u, v, w derivatives) at the K^3 samples (at[i], at[j], at[l]) of
// each cell of `cells` of the solid whose control points are P (vertices x k), from the cells'
// nets (cell_nets of the same mesh): sample (i, j, l) of cells[c] in row c K^3 + i + K (j + K l)
// of each output. Equal to limit_at_cells at the same samples to rounding. schemes::SampleError
// naming the first sample of the first cell that is out of range or has no net, or the first
// parameter outside [0, 1] (sample index: the parameter's).
template <class Exec, class T, class S = typename Exec::space>
CellLimits<T, S> limit_on_grids(Exec& exec, const CellNets<S>& nets, const linalg::Array<index_t, S>& cells,
                                const linalg::Array<double, S>& at, const linalg::Dense<T, S>& P) {
  namespace patches = schemes::patches;
  const index_t n = cells.size(), K = at.size(), k = P.cols, C = nets.kinds.size();
  const index_t per_cell = checked_index(std::int64_t(K) * K * K, "limit_on_grids: K^3 samples a cell");
  const index_t total = checked_index(std::int64_t(n) * per_cell, "limit_on_grids: samples");
  std::vector<double> parameters(static_cast<std::size_t>(K));
  exec.read(at.data(), K, parameters.data());
  for (index_t i = 0; i < K; ++i)
    if (!(parameters[std::size_t(i)] >= 0 && parameters[std::size_t(i)] <= 1))
      throw schemes::SampleError("limit_on_grids: parameter " + std::to_string(i) + " is " +
                                     std::to_string(parameters[std::size_t(i)]) + ", not in [0, 1]",
                                 i);
  const index_t* cell = cells.data();
  const std::uint8_t* kinds = nets.kinds.data();
  auto bad = [=] SPMESH_HD(index_t j) { return cell[j] < 0 || cell[j] >= C || kinds[cell[j]] == no_net; };
  if (exec.count_if(n, bad) > 0) {
    std::vector<index_t> host(static_cast<std::size_t>(n));
    exec.read(cell, n, host.data());
    std::vector<std::uint8_t> host_kinds(static_cast<std::size_t>(C));
    exec.read(kinds, C, host_kinds.data());
    for (index_t j = 0; j < n; ++j) {
      const index_t c = host[std::size_t(j)];
      if (c >= 0 && c < C && host_kinds[std::size_t(c)] != no_net) continue;
      throw schemes::SampleError("limit_on_grids: cell " + std::to_string(j) + " of the grids (" + std::to_string(c) +
                                     (c < 0 || c >= C ? ") is not one of the mesh's cells 0 to " + std::to_string(C - 1)
                                                      : ") has no net (limit_at_cells says which cells have one)"),
                                 j * per_cell);
    }
  }
  CellLimits<T, S> out{linalg::Dense<T, S>(total, k), linalg::Dense<T, S>(total, k), linalg::Dense<T, S>(total, k),
                       linalg::Dense<T, S>(total, k)};
  if (total == 0 || k == 0) return out;

  // The tricubic cells among `cells` (all of them: their grids are written in place; some: each
  // written by its place), their nets as B-spline volumes, summed by the patch module a direction
  // at a time: w (slowest), v, u, as the nets' entries run.
  linalg::Array<index_t, S> place(n + 1);
  index_t* at_place = place.data();
  exec.for_each(n, [=] SPMESH_HD(index_t j) { at_place[j] = is_tricubic_net(kinds[cell[j]]) ? 1 : 0; });
  exec.exclusive_scan(at_place, at_place, n, at_place + n);
  const index_t tricubic = exec.read(at_place + n);
  if (tricubic > 0) {
    linalg::Array<index_t, S> which(tricubic);
    index_t* tricubic_cells = which.data();
    exec.for_each(n, [=] SPMESH_HD(index_t j) {
      if (at_place[j + 1] > at_place[j]) tricubic_cells[at_place[j]] = cell[j];
    });
    linalg::Dense<T, S> volumes(checked_index(std::int64_t(tricubic) * tricubic_net_points, "limit_on_grids: nets"), k);
    exec.for_each(volumes.rows, detail::ReflectedNets<T>{nets.offsets.data(), nets.points.data(), tricubic_cells, kinds,
                                                         P.data.data(), k, volumes.data.data()});
    linalg::Array<T, S> t(K);
    T* ts = t.data();
    const double* from = at.data();
    exec.for_each(K, [=] SPMESH_HD(index_t i) { ts[i] = T(from[i]); });
    const auto basis = patches::sample_basis(exec, patches::Basis::bspline, 3, linalg::Array<double, S>(), t);
    linalg::Dense<T, S>* outputs[4] = {&out.position, &out.du, &out.dv, &out.dw};
    const patches::SampleBasis<T, S>* directions[3] = {&basis, &basis, &basis};
    const std::array<int, 3> orders[4] = {{0, 0, 0}, {0, 0, 1}, {0, 1, 0}, {1, 0, 0}};  // (w, v, u)
    for (int m = 0; m < 4; ++m) {
      const auto tiles = patches::detail::tiles_of(std::span<const patches::SampleBasis<T, S>* const>(directions),
                                                   tricubic, volumes, orders[m]);
      if (tricubic == n) {
        patches::detail::evaluate_groups(exec, tiles, 0, tiles.groups(), outputs[m]->data.data());
        continue;
      }
      linalg::Dense<T, S> grids(tiles.total, k);
      patches::detail::evaluate_groups(exec, tiles, 0, tiles.groups(), grids.data.data());
      const T* grid = grids.data.data();
      T* to = outputs[m]->data.data();
      exec.for_each(total, [=] SPMESH_HD(index_t s) {
        const index_t j = s / per_cell;
        if (at_place[j + 1] == at_place[j]) return;
        const std::int64_t from_row = std::int64_t(at_place[j]) * per_cell + s % per_cell;
        for (index_t col = 0; col < k; ++col) to[std::int64_t(s) * k + col] = grid[from_row * k + col];
      });
    }
  }
  if (tricubic < n) {
    const linalg::Array<index_t, S> none;
    const linalg::Array<double, S> nothing;
    const detail::Outputs<T> to{out.position.data.data(), out.du.data.data(), out.dv.data.data(), out.dw.data.data(),
                                k};
    exec.for_each(total, detail::GridNetPoints<T>{cell_samples(nets, none, nothing, nothing, nothing), cell, at.data(),
                                                  K, P.data.data(), to});
  }
  return out;
}

}  // namespace spmesh::solids
