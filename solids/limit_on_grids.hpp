// The limit of a Catmull-Clark solid on a grid of samples in each of many cells (`spmesh limit
// --samples K`, slicing, a volume's tessellation): the K^3 samples (t_i, t_j, t_l) of every cell,
// i, j, l in 0..K-1, for K parameters t in [0, 1]. limit_at_cells (limit_at.hpp) sums each
// sample's net alone; on a grid a tricubic cell's sums share their factors across samples. Seed
// 000's Eq. 1 is summed in the order limit_at_cells sums it, along u, then v, then w, but each
// partial sum once for all the samples that share it: the sums along u for each of the K values
// of u (the 16 rows of the net, in shared memory), then a thread for each (u, v) pair sums those
// along v and, for each of the K values of w, along w: 48 multiply-adds a sample for xyz with
// the three derivatives (against 576 a sample alone), and the thread of each (u, v) writes the
// consecutive rows of its w slice. The same functions (limit_at.hpp's TricubicBasis, folded at
// boundary faces), made on the executor, in the same order, so the results are limit_at_cells'
// to rounding (the same bits where the compiler fuses the same products). Layered and irregular
// cells are evaluated by limit_at_cells at their samples, and so is every cell where they are
// most of the list (tuning::grid_tricubic_share) or a grid's sums do not fit a block's shared
// memory.
#pragma once

#include "linalg/tuning.hpp"
#include "solids/limit_at.hpp"

#include <string>
#include <vector>

namespace spmesh::solids {

namespace detail {

// One axis's folded functions (TricubicBasis::along) at each of the K parameters, for each of the
// four ways an axis can be folded (bit 0: a boundary face at 0, bit 1: at 1): the values, then the
// slopes, 4 each.
template <class T>
struct GridBasis {
  const T* table;
  index_t K;
  SPMESH_HD const T* values(int folded, index_t i) const { return table + ((std::int64_t(folded) * K + i) * 2) * 4; }
  SPMESH_HD const T* slopes(int folded, index_t i) const { return values(folded, i) + 4; }
};

// The tricubic cells' grids, a tile (Threads threads) a cell and a block of Width columns, in
// three phases a block: the net's points into shared memory; the 16 rows' sums along u (and their
// u slopes) for each u; for each (u, v) pair the sums along v, then along w for each w, written.
template <class T, int Width>
struct GridTricubic {
  static constexpr int threads = 64;
  const index_t *offsets, *nets, *cells, *slots;  // the nets; the grids' cells, and each tile's grid
  const std::uint8_t* kinds;
  GridBasis<T> basis;
  const T* P;
  Outputs<T> out;  // out.k columns, blocks of Width
  std::size_t bytes() const { return sizeof(T) * Width * (tricubic_net_points + 2 * 16 * std::size_t(basis.K)); }
  int phases() const { return 3 * int((out.k + Width - 1) / Width); }

  SPMESH_HD void operator()(int phase, index_t tile, int thread, std::byte* shared) const {
    T* net = reinterpret_cast<T*>(shared);         // 64 points, Width values each
    T* rows = net + tricubic_net_points * Width;   // (u, row, value or slope): Width each
    const index_t slot = slots[tile], c = cells[slot], K = basis.K, c0 = index_t(phase / 3) * Width;
    const int n = int(out.k - c0 < Width ? out.k - c0 : Width), folds = tricubic_folds(kinds[c]);
    if (phase % 3 == 0) {
      const index_t* points = nets + offsets[c];
      for (int e = thread; e < tricubic_net_points; e += threads) {
        const index_t vertex = points[e];
        for (int col = 0; col < Width; ++col)
          net[e * Width + col] = vertex >= 0 && col < n ? P[std::int64_t(vertex) * out.k + c0 + col] : T(0);
      }
    } else if (phase % 3 == 1) {
      for (index_t item = thread; item < 16 * K; item += threads) {
        const index_t i = item / 16, row = item % 16;  // row: y + 4 z
        const T *b = basis.values(folds & 3, i), *db = basis.slopes(folds & 3, i);
        T sum[2][Width] = {};
        for (int x = 0; x < 4; ++x)
          for (int col = 0; col < Width; ++col) {
            const T point = net[(x + 4 * row) * Width + col];
            sum[0][col] += b[x] * point, sum[1][col] += db[x] * point;
          }
        for (int col = 0; col < Width; ++col)
          rows[(item * 2) * Width + col] = sum[0][col], rows[(item * 2 + 1) * Width + col] = sum[1][col];
      }
    } else {
      const std::int64_t per_cell = std::int64_t(K) * K * K;
      for (index_t pair = thread; pair < K * K; pair += threads) {
        const index_t i = pair % K, j = pair / K;
        const T *bv = basis.values(folds >> 2 & 3, j), *dbv = basis.slopes(folds >> 2 & 3, j);
        T plane[4][3][Width] = {};  // by z: along v of the sums along u, of their u slopes; the v slopes
        for (int z = 0; z < 4; ++z)
          for (int y = 0; y < 4; ++y) {
            const T* sums = rows + ((i * 16 + y + 4 * z) * 2) * Width;
            for (int col = 0; col < Width; ++col) {
              plane[z][0][col] += bv[y] * sums[col], plane[z][1][col] += bv[y] * sums[Width + col];
              plane[z][2][col] += dbv[y] * sums[col];
            }
          }
        for (index_t l = 0; l < K; ++l) {
          const T *bw = basis.values(folds >> 4 & 3, l), *dbw = basis.slopes(folds >> 4 & 3, l);
          Sums<T, Width> sums = {};
          for (int z = 0; z < 4; ++z)
            for (int col = 0; col < Width; ++col) {
              sums[0][col] += bw[z] * plane[z][0][col], sums[1][col] += bw[z] * plane[z][1][col];
              sums[2][col] += bw[z] * plane[z][2][col], sums[3][col] += dbw[z] * plane[z][0][col];
            }
          write_sums(out, index_t(std::int64_t(slot) * per_cell + i + K * (j + K * l)), c0, n, sums);
        }
      }
    }
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
  if (total == 0 || k == 0)
    return {linalg::Dense<T, S>(total, k), linalg::Dense<T, S>(total, k), linalg::Dense<T, S>(total, k),
            linalg::Dense<T, S>(total, k)};

  // The samples of cells[j] for j among `listed` (the positions of those cells in `cells`), in
  // their grids' order, evaluated by limit_at_cells.
  const double* t = at.data();
  auto at_samples = [&](const index_t* listed, index_t m) {
    const index_t samples = checked_index(std::int64_t(m) * per_cell, "limit_on_grids: samples");
    linalg::Array<index_t, S> sample_cells(samples);
    linalg::Array<double, S> u(samples), v(samples), w(samples);
    index_t* sc = sample_cells.data();
    double *us = u.data(), *vs = v.data(), *ws = w.data();
    exec.for_each(samples, [=] SPMESH_HD(index_t s) {
      const index_t p = s % per_cell;
      sc[s] = cell[listed ? listed[s / per_cell] : s / per_cell], us[s] = t[p % K], vs[s] = t[p / K % K],
      ws[s] = t[p / (K * K)];
    });
    return limit_at_cells(exec, nets, sample_cells, u, v, w, P);
  };
  // Grids a block a cell where the tricubic cells are most of the list and a block's shared memory
  // holds a cell's sums; else every sample by limit_at_cells, whose rows are then the grids'.
  const bool tiles_fit =
      sizeof(T) * 4 * (tricubic_net_points + 32 * std::size_t(K)) <= linalg::tuning::cuda_block_shared_bytes;
  const index_t tricubic = exec.count_if(n, [=] SPMESH_HD(index_t j) { return is_tricubic_net(kinds[cell[j]]); });
  if (!tiles_fit || tricubic == 0 || double(tricubic) < tuning::grid_tricubic_share * double(n))
    return at_samples(nullptr, n);

  CellLimits<T, S> out{linalg::Dense<T, S>(total, k), linalg::Dense<T, S>(total, k), linalg::Dense<T, S>(total, k),
                       linalg::Dense<T, S>(total, k)};
  const detail::Outputs<T> to{out.position.data.data(), out.du.data.data(), out.dv.data.data(), out.dw.data.data(), k};
  // The tricubic cells' places in `cells`, then the others'.
  linalg::Array<index_t, S> order(n);
  index_t* places = order.data();
  {
    linalg::Array<index_t, S> rank(n + 1);
    index_t* r = rank.data();
    exec.for_each(n, [=] SPMESH_HD(index_t j) { r[j] = is_tricubic_net(kinds[cell[j]]) ? 1 : 0; });
    exec.exclusive_scan(r, r, n, r + n);
    exec.for_each(n, [=] SPMESH_HD(index_t j) { places[r[j + 1] > r[j] ? r[j] : tricubic + (j - r[j])] = j; });
  }
  linalg::Array<T, S> table(4 * K * 8);
  T* functions = table.data();
  exec.for_each(4 * K, [=] SPMESH_HD(index_t item) {
    T values[4], slopes[4];
    const int folded = int(item / K);
    detail::TricubicBasis<T>::along(t[item % K], folded & 1, folded & 2, values, slopes);
    for (int x = 0; x < 4; ++x) functions[item * 8 + x] = values[x], functions[item * 8 + 4 + x] = slopes[x];
  });
  const detail::GridBasis<T> basis{table.data(), K};
  auto run = [&exec, tricubic](auto kernel) {
    exec.template for_each_tile<decltype(kernel)::threads>(tricubic, kernel.phases(), kernel.bytes(), kernel);
  };
  if (k == 3)
    run(detail::GridTricubic<T, 3>{nets.offsets.data(), nets.points.data(), cell, places, kinds, basis, P.data.data(),
                                   to});
  else
    run(detail::GridTricubic<T, 4>{nets.offsets.data(), nets.points.data(), cell, places, kinds, basis, P.data.data(),
                                   to});
  // The others' samples, put in their places.
  if (const index_t others = n - tricubic; others > 0) {
    const index_t* listed = places + tricubic;
    const auto limits = at_samples(listed, others);
    const T* from[4] = {limits.position.data.data(), limits.du.data.data(), limits.dv.data.data(),
                        limits.dw.data.data()};
    T* into[4] = {to.position, to.du, to.dv, to.dw};
    for (int o = 0; o < 4; ++o) {
      const T* source = from[o];
      T* target = into[o];
      exec.for_each(index_t(std::int64_t(others) * per_cell), [=] SPMESH_HD(index_t s) {
        const std::int64_t row = std::int64_t(listed[s / per_cell]) * per_cell + s % per_cell;
        for (index_t col = 0; col < k; ++col) target[row * k + col] = source[std::int64_t(s) * k + col];
      });
    }
  }
  return out;
}

}  // namespace spmesh::solids
