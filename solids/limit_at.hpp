// The limit of a Catmull-Clark solid at samples (cell, u, v, w): positions and the derivatives
// along u, v and w, or the same as sparse matrices W of the control points (samples x vertices),
// so that re-evaluating moved points is one SpMV and W R composes with a refinement matrix.
// (u, v, w) is in [0, 1]^3 in the hexahedron's VTK corner order (corner 0 at (0, 0, 0), 1 at
// (1, 0, 0), 2 at (1, 1, 0), 3 at (0, 1, 0), corners 4 to 7 the same at w = 1); cells are
// numbered as in the input. Evaluated so far: the cells whose limit is the tricubic B-spline of
// their 4 x 4 x 4 net (seed 000, Eq. 1; tricubic_nets.hpp), inside and with one face on the
// boundary. A sample in any other cell (next to an extraordinary edge or vertex, at a boundary
// edge) is refused, naming it: those classes are not built yet.
#pragma once

#include "linalg/formats.hpp"
#include "schemes/patches/basis.hpp"
#include "schemes/samples.hpp"
#include "solids/tricubic_nets.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace spmesh::solids {

template <class T, class S = linalg::Host>
struct CellLimits {
  linalg::Dense<T, S> position, du, dv, dw;
};
template <class T, class S = linalg::Host>
struct CellMatrices {
  linalg::Csr<T, S> position, du, dv, dw;
};

namespace detail {

// The tricubic B-spline at a sample of a net of `kind`: net point (x, y, z)'s weights for the
// position and the u, v and w derivatives (seed 000, Eq. 1, and its derivatives). At a boundary
// face the layer beyond it is 2 P_1 - P_2 of the two inside (tricubic_nets.hpp): its weights are
// moved onto those two, and it gets none.
struct TricubicBasis {
  double b[3][4], db[3][4];  // the cubic B-spline's functions and slopes along u, v, w
  SPMESH_HD TricubicBasis(const double at[3], std::uint8_t kind) {
    for (int axis = 0; axis < 3; ++axis)
      schemes::patches::basis_functions(schemes::patches::Basis::bspline, 3, nullptr, at[axis], b[axis], db[axis]);
    if (kind < boundary_net(0, 0)) return;
    const int axis = (kind - 2) / 2, side = (kind - 2) % 2;
    const int beyond = side ? 3 : 0, boundary = side ? 2 : 1, inside = side ? 1 : 2;
    for (double* f : {b[axis], db[axis]}) f[boundary] += 2 * f[beyond], f[inside] -= f[beyond], f[beyond] = 0;
  }
  SPMESH_HD void weights(int x, int y, int z, double out[4]) const {
    out[0] = b[0][x] * b[1][y] * b[2][z], out[1] = db[0][x] * b[1][y] * b[2][z];
    out[2] = b[0][x] * db[1][y] * b[2][z], out[3] = b[0][x] * b[1][y] * db[2][z];
  }
};

// Sample s's status: 0 evaluated; 1 its cell has no net; 2 a cell out of range; 3 (u, v, w)
// outside [0, 1]^3 or not finite.
struct CellSamples {
  const index_t* nets;
  const std::uint8_t* kinds;
  const index_t* cell;
  index_t cells;
  const double *u, *v, *w;
  SPMESH_HD std::uint8_t status(index_t s) const {
    const index_t c = cell[s];
    if (c < 0 || c >= cells) return 2;
    for (double x : {u[s], v[s], w[s]})
      if (!(x >= 0 && x <= 1)) return 3;
    return kinds[c] == no_net ? 1 : 0;
  }
  SPMESH_HD const index_t* net(index_t s) const { return nets + std::int64_t(tricubic_net_points) * cell[s]; }
  SPMESH_HD TricubicBasis basis(index_t s) const {
    const double at[3] = {u[s], v[s], w[s]};
    return TricubicBasis(at, kinds[cell[s]]);
  }
  // The entries of sample s's row: the net's points, less a boundary layer's.
  SPMESH_HD index_t row_length(index_t s) const { return kinds[cell[s]] == inside_net ? 64 : 48; }
};

// Sample s's limit from its cell's net, k columns four at a time.
template <class T>
struct TricubicPoints {
  CellSamples samples;
  const T* P;
  index_t k;
  T *position, *du, *dv, *dw;
  std::uint8_t* status;
  SPMESH_HD void operator()(index_t s) const {
    if ((status[s] = samples.status(s)) != 0) return;
    const TricubicBasis basis = samples.basis(s);
    const index_t* net = samples.net(s);
    T* out[4] = {position, du, dv, dw};
    for (index_t c0 = 0; c0 < k; c0 += 4) {
      const int n = int(k - c0 < 4 ? k - c0 : 4);
      double sum[4][4] = {};
      for (int p = 0; p < tricubic_net_points; ++p) {
        if (net[p] < 0) continue;  // beyond a boundary face: no weight
        double weights[4];
        basis.weights(p & 3, p >> 2 & 3, p >> 4, weights);
        const T* point = P + std::int64_t(net[p]) * k + c0;
        for (int m = 0; m < 4; ++m)
          for (int col = 0; col < n; ++col) sum[m][col] += weights[m] * double(point[col]);
      }
      for (int m = 0; m < 4; ++m)
        for (int col = 0; col < n; ++col) out[m][std::int64_t(s) * k + c0 + col] = T(sum[m][col]);
    }
  }
};

// Row s of the four matrices: its net's vertices in ascending order with their weights (an
// insertion sort in the row: a net's vertices are distinct).
template <class T>
struct TricubicRows {
  CellSamples samples;
  const index_t* offsets;
  index_t* columns;
  T* values[4];
  SPMESH_HD void operator()(index_t s) const {
    const TricubicBasis basis = samples.basis(s);
    const index_t* net = samples.net(s);
    const index_t first = offsets[s];
    index_t end = first;
    for (int p = 0; p < tricubic_net_points; ++p) {
      if (net[p] < 0) continue;
      double weights[4];
      basis.weights(p & 3, p >> 2 & 3, p >> 4, weights);
      index_t at_row = end++;
      for (; at_row > first && columns[at_row - 1] > net[p]; --at_row) {
        columns[at_row] = columns[at_row - 1];
        for (int m = 0; m < 4; ++m) values[m][at_row] = values[m][at_row - 1];
      }
      columns[at_row] = net[p];
      for (int m = 0; m < 4; ++m) values[m][at_row] = T(weights[m]);
    }
  }
};

struct StatusOf {
  CellSamples samples;
  std::uint8_t* status;
  SPMESH_HD void operator()(index_t s) const { status[s] = samples.status(s); }
};
struct NotEvaluated {
  const std::uint8_t* status;
  SPMESH_HD bool operator()(index_t s) const { return status[s] != 0; }
};

// Checks the arrays' lengths; after `evaluate` filled the statuses, schemes::SampleError naming
// the first sample not evaluated (its index, cell and parameters, and why).
template <class Exec, class S, class Evaluate>
void checked_samples(Exec& exec, index_t C, const linalg::Array<index_t, S>& cells, const linalg::Array<double, S>& u,
                     const linalg::Array<double, S>& v, const linalg::Array<double, S>& w, Evaluate&& evaluate) {
  const index_t n = cells.size();
  if (u.size() != n || v.size() != n || w.size() != n)
    throw DimensionError("limit_at_cells: " + std::to_string(n) + " cells, " + std::to_string(u.size()) + " u, " +
                         std::to_string(v.size()) + " v and " + std::to_string(w.size()) + " w");
  linalg::Array<std::uint8_t, S> status(n);
  evaluate(status.data());
  if (exec.count_if(n, NotEvaluated{status.data()}) == 0) return;
  std::vector<std::uint8_t> host(static_cast<std::size_t>(n));
  exec.read(status.data(), n, host.data());
  for (index_t s = 0; s < n; ++s) {
    if (host[std::size_t(s)] == 0) continue;
    index_t c = 0;
    double at[3] = {0, 0, 0};
    exec.read(cells.data() + s, 1, &c), exec.read(u.data() + s, 1, at), exec.read(v.data() + s, 1, at + 1);
    exec.read(w.data() + s, 1, at + 2);
    const std::string sample = "limit_at_cells: sample " + std::to_string(s) + " (cell " + std::to_string(c) +
                               ", u " + std::to_string(at[0]) + ", v " + std::to_string(at[1]) + ", w " +
                               std::to_string(at[2]) + ")";
    switch (host[std::size_t(s)]) {
      case 2: throw schemes::SampleError(sample + ": the mesh has cells 0 to " + std::to_string(C - 1), s);
      case 3: throw schemes::SampleError(sample + ": (u, v, w) is outside the cell ([0, 1]^3) or not finite", s);
      default:
        throw schemes::SampleError(sample + ": the cell is not a hexahedron whose corners all have the grid's "
                                            "star (6 edges, each in 4 quads, 8 hexahedra round it), or at most one "
                                            "face on the boundary with the boundary grid's at its corners (5 "
                                            "edges, 4 of them on the boundary); spmesh evaluates the limit only "
                                            "in such cells so far",
                                   s);
    }
  }
}

}  // namespace detail

// The limit at samples (cells[s], u[s], v[s], w[s]) of the solid whose control points are P
// (vertices x k), from the cells' nets (tricubic_nets of the same mesh). schemes::SampleError
// naming the first sample not evaluated (its index, cell and parameters, and why).
template <class Exec, class T, class S = typename Exec::space>
CellLimits<T, S> limit_at_cells(Exec& exec, const TricubicNets<S>& nets, const linalg::Array<index_t, S>& cells,
                                const linalg::Array<double, S>& u, const linalg::Array<double, S>& v,
                                const linalg::Array<double, S>& w, const linalg::Dense<T, S>& P) {
  const index_t n = cells.size(), k = P.cols, C = index_t(nets.points.size() / tricubic_net_points);
  CellLimits<T, S> out{linalg::Dense<T, S>(n, k), linalg::Dense<T, S>(n, k), linalg::Dense<T, S>(n, k),
                       linalg::Dense<T, S>(n, k)};
  const detail::CellSamples samples{nets.points.data(), nets.kinds.data(), cells.data(), C, u.data(), v.data(), w.data()};
  detail::checked_samples(exec, C, cells, u, v, w, [&](std::uint8_t* status) {
    exec.for_each(n, detail::TricubicPoints<T>{samples, P.data.data(), k, out.position.data.data(),
                                               out.du.data.data(), out.dv.data.data(), out.dw.data.data(), status});
  });
  return out;
}

// The same samples as matrices of the solid's `vertices` control points (samples x vertices, 64
// entries a row inside, 48 at the boundary, columns ascending): W P is limit_at_cells' (its
// weights rounded to T), and W R of a refinement matrix R evaluates samples of the refined cells
// from the base's points.
template <class T, class Exec, class S = typename Exec::space>
CellMatrices<T, S> limit_matrices_at_cells(Exec& exec, const TricubicNets<S>& nets,
                                           const linalg::Array<index_t, S>& cells, const linalg::Array<double, S>& u,
                                           const linalg::Array<double, S>& v, const linalg::Array<double, S>& w,
                                           index_t vertices) {
  const index_t n = cells.size(), C = index_t(nets.points.size() / tricubic_net_points);
  const detail::CellSamples samples{nets.points.data(), nets.kinds.data(), cells.data(), C, u.data(), v.data(), w.data()};
  detail::checked_samples(exec, C, cells, u, v, w,
                          [&](std::uint8_t* status) { exec.for_each(n, detail::StatusOf{samples, status}); });
  checked_index(std::int64_t(tricubic_net_points) * n, "limit_matrices_at_cells' entries");
  // The rows' offsets (one wait for their total).
  linalg::Array<index_t, S> offsets(n + 1), total(1);
  index_t* o = offsets.data();
  exec.for_each(n, [=] SPMESH_HD(index_t s) { o[s] = samples.row_length(s); });
  exec.exclusive_scan(o, o, n, total.data());
  const index_t entries = exec.read(total.data());
  exec.for_each(1, [=] SPMESH_HD(index_t) { o[n] = entries; });
  linalg::Array<index_t, S> columns(entries);
  linalg::Array<T, S> values[4] = {linalg::Array<T, S>(entries), linalg::Array<T, S>(entries),
                                   linalg::Array<T, S>(entries), linalg::Array<T, S>(entries)};
  exec.for_each(n, detail::TricubicRows<T>{samples, o, columns.data(),
                                           {values[0].data(), values[1].data(), values[2].data(), values[3].data()}});
  auto matrix = [&](int m) {
    linalg::Array<index_t, S> row_offsets(n + 1), indices(entries);
    exec.copy(o, n + 1, row_offsets.data());
    exec.copy(columns.data(), entries, indices.data());
    return linalg::Csr<T, S>(n, vertices, std::move(row_offsets), std::move(indices), std::move(values[m]));
  };
  return {matrix(0), matrix(1), matrix(2), matrix(3)};
}

}  // namespace spmesh::solids
