// The limit of a Catmull-Clark solid at samples (cell, u, v, w): positions and the derivatives
// along u, v and w. (u, v, w) is in [0, 1]^3 in the hexahedron's VTK corner order (corner 0 at
// (0, 0, 0), 1 at (1, 0, 0), 2 at (1, 1, 0), 3 at (0, 1, 0), corners 4 to 7 the same at w = 1);
// cells are numbered as in the input. Evaluated so far: the cells whose limit is the tricubic
// B-spline of their 4 x 4 x 4 net (seed 000, Eq. 1; tricubic_nets.hpp). A sample in any other
// cell (at the boundary, next to an extraordinary edge) is refused, naming it: those classes are
// not built yet.
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

namespace detail {

// Sample s's limit from its cell's net (statuses: 0 evaluated; 1 the cell has no net; 2 a cell
// out of range; 3 (u, v, w) outside [0, 1]^3 or not finite).
template <class T>
struct TricubicSamples {
  const index_t *nets, *cell;
  index_t cells;
  const double *u, *v, *w;
  const T* P;  // the control points, k columns
  index_t k;
  T *position, *du, *dv, *dw;
  std::uint8_t* status;

  SPMESH_HD void operator()(index_t s) const {
    const index_t c = cell[s];
    const double at[3] = {u[s], v[s], w[s]};
    if (c < 0 || c >= cells) return void(status[s] = 2);
    for (double x : at)
      if (!(x >= 0 && x <= 1)) return void(status[s] = 3);
    const index_t* net = nets + std::int64_t(tricubic_net_points) * c;
    if (net[0] < 0) return void(status[s] = 1);
    status[s] = 0;
    double b[3][4], db[3][4];  // the cubic B-spline's functions and slopes along u, v, w
    for (int axis = 0; axis < 3; ++axis)
      schemes::patches::basis_functions(schemes::patches::Basis::bspline, 3, nullptr, at[axis], b[axis], db[axis]);
    T* out[4] = {position, du, dv, dw};
    for (index_t c0 = 0; c0 < k; c0 += 4) {  // four columns a pass
      const int n = int(k - c0 < 4 ? k - c0 : 4);
      double sum[4][4] = {};
      for (int z = 0; z < 4; ++z)
        for (int y = 0; y < 4; ++y)
          for (int x = 0; x < 4; ++x) {
            const double weights[4] = {b[0][x] * b[1][y] * b[2][z], db[0][x] * b[1][y] * b[2][z],
                                       b[0][x] * db[1][y] * b[2][z], b[0][x] * b[1][y] * db[2][z]};
            const T* point = P + std::int64_t(net[x + 4 * y + 16 * z]) * k + c0;
            for (int m = 0; m < 4; ++m)
              for (int col = 0; col < n; ++col) sum[m][col] += weights[m] * double(point[col]);
          }
      for (int m = 0; m < 4; ++m)
        for (int col = 0; col < n; ++col) out[m][std::int64_t(s) * k + c0 + col] = T(sum[m][col]);
    }
  }
};

struct NotEvaluated {
  const std::uint8_t* status;
  SPMESH_HD bool operator()(index_t s) const { return status[s] != 0; }
};

}  // namespace detail

// The limit at samples (cells[s], u[s], v[s], w[s]) of the solid whose control points are P
// (vertices x k), from the cells' nets (tricubic_nets of the same mesh). schemes::SampleError
// naming the first sample not evaluated (its index, cell and parameters, and why).
template <class Exec, class T, class S = typename Exec::space>
CellLimits<T, S> limit_at_cells(Exec& exec, const TricubicNets<S>& nets, const linalg::Array<index_t, S>& cells,
                                const linalg::Array<double, S>& u, const linalg::Array<double, S>& v,
                                const linalg::Array<double, S>& w, const linalg::Dense<T, S>& P) {
  const index_t n = cells.size(), k = P.cols, C = index_t(nets.points.size() / tricubic_net_points);
  if (u.size() != n || v.size() != n || w.size() != n)
    throw DimensionError("limit_at_cells: " + std::to_string(n) + " cells, " + std::to_string(u.size()) + " u, " +
                         std::to_string(v.size()) + " v and " + std::to_string(w.size()) + " w");
  CellLimits<T, S> out{linalg::Dense<T, S>(n, k), linalg::Dense<T, S>(n, k), linalg::Dense<T, S>(n, k),
                       linalg::Dense<T, S>(n, k)};
  linalg::Array<std::uint8_t, S> status(n);
  exec.for_each(n, detail::TricubicSamples<T>{nets.points.data(), cells.data(), C, u.data(), v.data(), w.data(),
                                              P.data.data(), k, out.position.data.data(), out.du.data.data(),
                                              out.dv.data.data(), out.dw.data.data(), status.data()});
  if (exec.count_if(n, detail::NotEvaluated{status.data()}) == 0) return out;
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
        throw schemes::SampleError(sample + ": the cell is not a hexahedron inside the volume whose corners all "
                                            "have the grid's star (6 edges, each in 4 quads, 8 hexahedra round "
                                            "it); spmesh evaluates the limit only in such cells so far",
                                   s);
    }
  }
  return out;
}

}  // namespace spmesh::solids
