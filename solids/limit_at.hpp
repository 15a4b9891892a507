// The limit of a Catmull-Clark solid at samples (cell, u, v, w): positions and the derivatives
// along u, v and w, or the same as sparse matrices W of the control points (samples x vertices),
// so that re-evaluating moved points is one SpMV and W R composes with a refinement matrix.
// (u, v, w) is in [0, 1]^3 in the hexahedron's VTK corner order (corner 0 at (0, 0, 0), 1 at
// (1, 0, 0), 2 at (1, 1, 0), 3 at (0, 1, 0), corners 4 to 7 the same at w = 1); cells are
// numbered as in the input. Evaluated so far, from their nets (cell_nets.hpp): the cells whose
// limit is the tricubic B-spline of their 4 x 4 x 4 net (seed 000, Eq. 1), inside, with one face
// on the boundary, and at sharp rims and corners (infinitely sharp edges of two faces) or across a
// slab one cell thick, the layered cells inside, Stam's surface basis times the cubic B-spline
// (seed 000, section 3.2), the rim cells at a smooth boundary edge of two faces, the smooth
// corner's basis (catmull_clark/smooth_corner.hpp) times the cubic B-spline, and the
// self-similar irregular cells at an extraordinary vertex (inside, at a smooth corner where three
// rims meet, where an extraordinary edge reaches the boundary), by the child away from the vertex
// that holds the sample (irregular_cells.hpp, seed 000, 3.3). A sample in any other cell (at a
// semi-sharp boundary edge, at an extraordinary vertex whose neighbourhood is not self-similar)
// is refused, naming it: those classes are not built yet. limit_on_grids.hpp takes grids of samples
// a cell.
#pragma once

#include "linalg/formats.hpp"
#include "schemes/patches/basis.hpp"
#include "schemes/samples.hpp"
#include "solids/cell_nets.hpp"
#include "solids/corner_children.hpp"
#include "solids/irregular_cells.hpp"
#include "solids/tuning.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
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

// Columns c0 .. c0 + n - 1 (n <= Width) of the control points' rows (P, k columns), as a
// sample's sums take them: Width values a point, those past n zero, so that every index is
// known at compile time and the sums stay in registers. Also a points reader by entry
// (load(entry, point)) of points stored k columns a point: the irregular children's nets
// (ChildNetsView).
template <class T, int Width>
struct Columns {
  const T* P;
  index_t k, c0;
  int n;
  SPMESH_HD void load(index_t vertex, T (&out)[Width]) const {
    const T* row = P + std::int64_t(vertex) * k + c0;
    for (int col = 0; col < Width; ++col) out[col] = col < n ? row[col] : T(0);
  }
};

// A sample's four sums over its net a column each: the position and the u, v, w derivatives.
template <class T, int Width>
using Sums = T[4][Width];

// A net's row of 4 points along u, (x, y, z) for x = 0 .. 3, as the tricubic sums take it: a
// point's Width columns, zero past n and beyond a boundary face.
template <class T, int Width>
using NetRow = T[4][Width];

// A net's points by entry, load(entry, point): read through the net's indices into the control
// points (zero where the net has none: beyond a boundary face).
template <class T, int Width>
struct IndexedPoints {
  const index_t* net;
  Columns<T, Width> columns;
  SPMESH_HD void load(index_t entry, T (&out)[Width]) const {
    const index_t vertex = net[entry];
    if (vertex >= 0) columns.load(vertex, out);
    else
      for (int col = 0; col < Width; ++col) out[col] = T(0);
  }
};

// An irregular cell's child's net point by entry: its row over the cell's ring (IrregularSample's
// rows) times the ring's points, summed in T.
template <class T, int Width>
struct RingPoints {
  const double* rows;
  index_t ring_size;
  const index_t* ring;
  Columns<T, Width> columns;
  SPMESH_HD void load(index_t entry, T (&out)[Width]) const {
    const double* row = rows + std::int64_t(entry) * ring_size;
    for (int col = 0; col < Width; ++col) out[col] = T(0);
    for (index_t i = 0; i < ring_size; ++i) {
      if (row[i] == 0) continue;
      T point[Width];
      columns.load(ring[i], point);
      for (int col = 0; col < Width; ++col) out[col] += T(row[i]) * point[col];
    }
  }
};

// A tricubic net's rows from its points by entry.
template <class T, int Width, class Points>
struct PointRows {
  Points points;
  SPMESH_HD void load(int y, int z, NetRow<T, Width>& out) const {
    for (int x = 0; x < 4; ++x) points.load(x + 4 * y + 16 * z, out[x]);
  }
};

// Four consecutive values, aligned so that one vector load reads them.
template <class T>
struct alignas(4 * sizeof(T)) Quad {
  T value[4];
};

// A tricubic net's rows from its points gathered once for all its samples (GatheredNets): column
// c0 + col of point p at points[(c0 + col) x 64 + p], a row of 4 points one vector load a column.
template <class T, int Width>
struct GatheredRows {
  const T* points;  // the cell's gathered points, column-major
  index_t c0;
  int n;
  SPMESH_HD void load(int y, int z, NetRow<T, Width>& out) const {
    for (int col = 0; col < Width; ++col) {
      if (col >= n) {
        for (int x = 0; x < 4; ++x) out[x][col] = T(0);
        continue;
      }
      const Quad<T> row = *reinterpret_cast<const Quad<T>*>(
          points + std::int64_t(c0 + col) * tricubic_net_points + 4 * y + 16 * z);
      for (int x = 0; x < 4; ++x) out[x][col] = row.value[x];
    }
  }
};

// The tricubic B-spline at a sample of a net of `kind`, its functions in R: net point (x, y, z)'s
// weights for the position and the u, v and w derivatives (seed 000, Eq. 1, and its derivatives).
// At each boundary face the layer beyond it is 2 P_1 - P_2 of the two inside (cell_nets.hpp): its
// weights are moved onto those two along that axis, and it gets none (beyond two faces, along
// both: the product of the folded functions).
template <class R>
struct TricubicBasis {
  R b[3][4], db[3][4];  // the cubic B-spline's functions and slopes along u, v, w
  SPMESH_HD TricubicBasis() {}
  SPMESH_HD TricubicBasis(const double at[3], std::uint8_t kind) {
    const int folds = tricubic_folds(kind);
    for (int axis = 0; axis < 3; ++axis)
      along(at[axis], folds >> 2 * axis & 1, folds >> (2 * axis + 1) & 1, b[axis], db[axis]);
  }
  // One axis's functions and slopes at t, folded where the cell has a boundary face at
  // coordinate 0 (`low`) or 1 (`high`) of that axis.
  SPMESH_HD static void along(double t, bool low, bool high, R (&f)[4], R (&df)[4]) {
    schemes::patches::cubic_bspline(R(t), f, df);
    fold(f, low, high), fold(df, low, high);
  }
  SPMESH_HD void weights(int x, int y, int z, R out[4]) const {
    out[0] = b[0][x] * b[1][y] * b[2][z], out[1] = db[0][x] * b[1][y] * b[2][z];
    out[2] = b[0][x] * db[1][y] * b[2][z], out[3] = b[0][x] * b[1][y] * db[2][z];
  }
  // The sums of the net's points (`rows`: PointRows or GatheredRows) by the sum factorisation
  // of Eq. 1: along u a row of 4 points (8 multiply-adds a column), then along v (3 a row), then
  // along w (4 a layer): (16 x 11 + 4 x 4) x 3 = 576 multiply-adds a sample for xyz, against 768
  // by the 64 weights.
  template <class T, int Width, class Rows>
  SPMESH_HD void sum(const Rows& rows, Sums<T, Width>& out) const {
    const TricubicBasis one[1] = {*this};  // (copies, not pointers: a pointer would put them in memory)
    Sums<T, Width> sums[1] = {};
    sum_many<T, Width, 1>(one, rows, sums);
    for (int m = 0; m < 4; ++m)
      for (int col = 0; col < Width; ++col) out[m][col] += sums[0][m][col];
  }
  // The same for Many samples of one net at once, each row of points read once for all of them
  // (each sample's sums in the same order as alone: the same bits).
  template <class T, int Width, int Many, class Rows>
  SPMESH_HD static void sum_many(const TricubicBasis (&bases)[Many], const Rows& rows, Sums<T, Width> (&out)[Many]) {
#pragma unroll  // (else the layers' functions, indexed by z, go to memory)
    for (int z = 0; z < 4; ++z) {
      T plane[Many][3][Width] = {};  // over x and y at layer z: by the functions, the u slope, the v slope
      for (int y = 0; y < 4; ++y) {
        NetRow<T, Width> points;
        rows.load(y, z, points);
        for (int i = 0; i < Many; ++i) {
          const R(&b)[3][4] = bases[i].b;
          const R(&db)[3][4] = bases[i].db;
          T row[2][Width] = {};  // over x: by the functions and by the u slopes
          for (int x = 0; x < 4; ++x)
            for (int col = 0; col < Width; ++col)
              row[0][col] += T(b[0][x]) * points[x][col], row[1][col] += T(db[0][x]) * points[x][col];
          for (int col = 0; col < Width; ++col) {
            plane[i][0][col] += T(b[1][y]) * row[0][col], plane[i][1][col] += T(b[1][y]) * row[1][col];
            plane[i][2][col] += T(db[1][y]) * row[0][col];
          }
        }
      }
      for (int i = 0; i < Many; ++i) {
        const R(&b)[3][4] = bases[i].b;
        const R(&db)[3][4] = bases[i].db;
        Sums<T, Width>& sums = out[i];
        for (int col = 0; col < Width; ++col) {
          sums[0][col] += T(b[2][z]) * plane[i][0][col], sums[1][col] += T(b[2][z]) * plane[i][1][col];
          sums[2][col] += T(b[2][z]) * plane[i][2][col], sums[3][col] += T(db[2][z]) * plane[i][0][col];
        }
      }
    }
  }

private:
  // The layer beyond a boundary face at coordinate 0 (`low`: layer 0) or 1 (`high`: layer 3) of
  // functions f moved onto the layer at the face (2 x) and the one inside it (- 1 x). By selects,
  // not by branches or an index known only at run time, which would put the basis in memory.
  SPMESH_HD static void fold(R (&f)[4], bool low, bool high) {
    const R below = low ? f[0] : R(0), above = high ? f[3] : R(0);
    f[1] += 2 * below - above, f[2] += 2 * above - below, f[0] -= below, f[3] -= above;
  }
};

// The derivatives along a layered net's s, t and line put on u, v and w by its frame, with
// compile-time indices.
template <class T>
SPMESH_HD T on_axis(const LayeredFrame& frame, int axis, T along_s, T along_t, T along_line) {
  return axis == frame.s_axis ? (frame.s_side ? -along_s : along_s)
         : axis == frame.t_axis ? (frame.t_side ? -along_t : along_t)
                                : along_line;
}

// What a line net's cross-section is evaluated by: a layered net's Stam's surface basis of its
// valence, a rim net's the smooth corner's.
struct CrossSections {
  schemes::catmull_clark::StamView stam;
  schemes::catmull_clark::SmoothCornerView corner;
  // visit(j, weight, s derivative's, t derivative's) on the cross-section's point j at (s, t).
  template <class Visit>
  SPMESH_HD void weights(std::uint8_t kind, index_t entries, double s, double t, Visit&& visit) const {
    if (is_rim_net(kind)) corner.weights(0, s, t, 1.0, visit);
    else stam.ring_weights(layered_valence(entries), 0, s, t, 1.0, visit);
  }
};

// The basis at a sample of a line net of `kind` (layered or rim, cell_nets.hpp): the
// cross-section's weights of its points at (s, t) times the cubic B-spline's over the 4 layers at
// z, the derivatives along s, t and z put on u, v and w by the frame.
struct LayeredBasis {
  LayeredFrame frame;
  double s, t, z, b[4], db[4];
  std::uint8_t kind;
  SPMESH_HD LayeredBasis(const double at[3], std::uint8_t kind_) : frame(kind_), kind(kind_) {
    s = frame.s_side ? 1 - at[frame.s_axis] : at[frame.s_axis];
    t = frame.t_side ? 1 - at[frame.t_axis] : at[frame.t_axis];
    z = at[frame.line];
    schemes::patches::cubic_bspline(z, b, db);
  }
  // visit(entry, weights[4]) on the net's 4 K entries.
  template <class Visit>
  SPMESH_HD void for_each(const CrossSections& sections, index_t entries, Visit&& visit) const {
    const int K = int(entries / 4);
    sections.weights(kind, entries, s, t, [&](int j, double w, double ws, double wt) {
      for (int layer = 0; layer < 4; ++layer) {
        double weights[4] = {b[layer] * w};
        for (int axis = 0; axis < 3; ++axis)
          weights[1 + axis] = on_axis(frame, axis, b[layer] * ws, b[layer] * wt, db[layer] * w);
        visit(layer * K + j, weights);
      }
    });
  }
  // The sums of the net's points: each cross-section point's 4 layers by the B-spline and its
  // slope, then Stam's weights of the cross-section on those.
  template <class T, int Width, class Points>
  SPMESH_HD void sum(const CrossSections& sections, const Points& points, index_t entries,
                     Sums<T, Width>& out) const {
    const int K = int(entries / 4);
    T basis[4], slope[4];
    for (int layer = 0; layer < 4; ++layer) basis[layer] = T(b[layer]), slope[layer] = T(db[layer]);
    T along[3][Width] = {};  // the derivatives along s, t and the line
    sections.weights(kind, entries, s, t, [&](int j, double w, double ws, double wt) {
      // Over the layers: by the functions and by the slopes.
      T across[Width] = {}, up[Width] = {};
      for (int layer = 0; layer < 4; ++layer) {
        T point[Width];
        points.load(layer * K + j, point);
        for (int col = 0; col < Width; ++col)
          across[col] += basis[layer] * point[col], up[col] += slope[layer] * point[col];
      }
      for (int col = 0; col < Width; ++col) {
        out[0][col] += T(w) * across[col], along[0][col] += T(ws) * across[col];
        along[1][col] += T(wt) * across[col], along[2][col] += T(w) * up[col];
      }
    });
    for (int axis = 0; axis < 3; ++axis)
      for (int col = 0; col < Width; ++col)
        out[1 + axis][col] = on_axis(frame, axis, along[0][col], along[1][col], along[2][col]);
  }
};

// The irregular cells' tables as kernels read them (IrregularTables).
struct IrregularView {
  const index_t *configuration, *ring;
  const std::uint8_t* child_kinds;
  const index_t* child_entries;
  const std::int64_t* child_rows;
  const double* rows;
};

// A sample of an irregular cell (irregular_cells.hpp): the child of the cell k levels down that
// holds it, its parameters there, and the child's net as rows over the cell's ring; derivatives
// along the child's axes turn into the cell's by `source` and `factor`, kept as named values so
// that a GPU thread holds them in registers.
struct IrregularSample {
  std::uint8_t kind = no_net;  // the child's net
  int depth = 0, corner = 0;   // the child: corner `corner` of the cell `depth` levels down at V
  index_t ring = 0, entries = 0;
  const double* rows = nullptr;  // (entries + 1) x ring: the child's net less the limit at V, then it
  double at[3] = {0, 0, 0};
  int source0 = 0, source1 = 1, source2 = 2;  // the child's axis whose derivative is the cell's u, v, w
  double factor0 = 1, factor1 = 1, factor2 = 1;

  SPMESH_HD IrregularSample(const IrregularView& tables, index_t c, std::uint8_t cell_kind, const double cell_at[3]) {
    const int l = cell_kind - irregular_net(0);
    const index_t q = tables.configuration[c];
    // The parameters measured from V along the walk's axes (toward corner_frame's a, b, c).
    const CornerFrame frame = corner_frame(8, l);
    const int toward[3] = {frame.a, frame.b, frame.c};
    const double nearest = std::ldexp(1.0, -(irregular_depth + 1));  // the tables' deepest child
    double p[3];
    int axis[3];
    bool far_side[3];
    for (int d = 0; d < 3; ++d) {
      axis[d] = detail::axis_between(l, toward[d]);
      far_side[d] = detail::hexahedron_coordinate(l, axis[d]) == 1;
      p[d] = far_side[d] ? 1 - cell_at[axis[d]] : cell_at[axis[d]];
    }
    // Nearer V than that in every parameter: taken at that distance (only then: a sample on a face
    // through V keeps its 0 there).
    if (p[0] < nearest && p[1] < nearest && p[2] < nearest) p[0] = p[1] = p[2] = nearest;
    int k = 0;  // the levels down to the cell whose child away from V holds the sample
    while (p[0] < 0.5 && p[1] < 0.5 && p[2] < 0.5) p[0] *= 2, p[1] *= 2, p[2] *= 2, ++k;
    const ChildSample child = corner_child(p);
    for (int d = 0; d < 3; ++d) at[d] = child.at[d];
    depth = k, corner = child.corner;
    const std::int64_t slot = 8 * std::int64_t(q) + child.corner;
    kind = tables.child_kinds[slot], ring = tables.ring[q], entries = tables.child_entries[slot];
    rows = tables.rows + tables.child_rows[slot] + std::int64_t(k) * (entries + 1) * ring;
    // d/d(cell's axis[d]) = +-1 (far side) x 2^k x child.axes.scale[d] x d/d(child's axis[d]).
    for (int d = 0; d < 3; ++d) {
      const double f = (far_side[d] ? -1 : 1) * std::ldexp(child.axes.scale[d], k);
      const int from = child.axes.axis[d];
      if (axis[d] == 0) source0 = from, factor0 = f;
      else if (axis[d] == 1) source1 = from, factor1 = f;
      else source2 = from, factor2 = f;
    }
  }
  // visit(entry, weights[4]) on the child's net entries, the derivatives' weights along the
  // cell's axes, then on the limit at V's row (entry `entries`), the position's alone.
  template <class Visit>
  SPMESH_HD void for_each(const CrossSections& sections, Visit&& visit) const {
    const double at_v[4] = {1, 0, 0, 0};
    visit(entries, at_v);
    auto turned = [&](index_t entry, const double (&child)[4]) {
      auto along = [&](int from) { return from == 0 ? child[1] : from == 1 ? child[2] : child[3]; };
      const double weights[4] = {child[0], factor0 * along(source0), factor1 * along(source1),
                                 factor2 * along(source2)};
      visit(entry, weights);
    };
    if (is_line_net(kind)) return LayeredBasis(at, kind).for_each(sections, entries, turned);
    const TricubicBasis<double> basis(at, kind);
    for (int p = 0; p < tricubic_net_points; ++p) {  // a boundary layer's rows are zero
      double weights[4];
      basis.weights(p & 3, p >> 2 & 3, p >> 4, weights);
      turned(p, weights);
    }
  }
};

// The irregular cells' children's nets, made once a call for the children that samples fall in
// (MarkChildren, MakeChildNets): irregular cell number slot[c]'s child at corner r
// and depth k < depths is block b = (slot[c] x 8 + r) x depths + k, its net's points then the limit
// at V, k columns a point, at points + b x stride x columns; made[b] is 1 where a sample is in it.
// Samples deeper than `depths` take their child's net from its rows (RingPoints), as without.
template <class T>
struct ChildNetsView {
  T* points = nullptr;  // none: every irregular sample from its rows
  const index_t *slot = nullptr, *cells = nullptr;  // a cell's place among the irregular cells; the cells
  index_t* made = nullptr;
  index_t depths = 0, stride = 0, columns = 0;
  SPMESH_HD std::int64_t block(index_t c, int corner, int depth) const {
    return (std::int64_t(slot[c]) * 8 + corner) * depths + depth;
  }
  SPMESH_HD const T* net(index_t c, const IrregularSample& sample) const {
    if (!points || sample.depth >= depths) return nullptr;
    return points + block(c, sample.corner, sample.depth) * stride * columns;
  }
};

// Sample s's status: 0 evaluated; 1 its cell has no net; 2 a cell out of range; 3 (u, v, w)
// outside [0, 1]^3 or not finite.
struct CellSamples {
  const index_t *offsets, *nets;
  const std::uint8_t* kinds;
  CrossSections sections;
  const index_t* cell;
  index_t cells;
  const double *u, *v, *w;
  IrregularView irregular;
  SPMESH_HD std::uint8_t status(index_t s) const {
    const index_t c = cell[s];
    if (c < 0 || c >= cells) return 2;
    for (double x : {u[s], v[s], w[s]})
      if (!(x >= 0 && x <= 1)) return 3;
    return kinds[c] == no_net ? 1 : 0;
  }
  // The entries of sample s's row: its net's points, less the layers beyond boundary faces.
  SPMESH_HD index_t row_length(index_t s) const {
    const index_t c = cell[s];
    return is_tricubic_net(kinds[c]) ? tricubic_net_entries(kinds[c]) : offsets[c + 1] - offsets[c];
  }
  // visit(vertex, weights[4]) on each point of sample s's net with a weight: the position's and
  // the u, v and w derivatives'.
  template <class Visit>
  SPMESH_HD void for_each_weight(index_t s, Visit&& visit) const {
    const index_t c = cell[s];
    const index_t* net = nets + offsets[c];
    const double at[3] = {u[s], v[s], w[s]};
    if (is_irregular_net(kinds[c])) {  // a ring point's weights: its column of the child's rows
      const IrregularSample sample(irregular, c, kinds[c], at);
      for (index_t i = 0; i < sample.ring; ++i) {
        double weights[4] = {0, 0, 0, 0};
        sample.for_each(sections, [&](index_t entry, const double (&child)[4]) {
          const double row = sample.rows[std::int64_t(entry) * sample.ring + i];
          for (int m = 0; m < 4; ++m) weights[m] += child[m] * row;
        });
        visit(net[i], weights);
      }
      return;
    }
    if (is_line_net(kinds[c])) {
      LayeredBasis(at, kinds[c])
          .for_each(sections, offsets[c + 1] - offsets[c],
                    [&](index_t entry, const double(&weights)[4]) { visit(net[entry], weights); });
      return;
    }
    const TricubicBasis<double> basis(at, kinds[c]);
    for (int p = 0; p < tricubic_net_points; ++p) {
      if (net[p] < 0) continue;  // beyond a boundary face: no weight
      double weights[4];
      basis.weights(p & 3, p >> 2 & 3, p >> 4, weights);
      visit(net[p], weights);
    }
  }
  // Sample s's sums of `columns` in a layered or irregular cell (for_each_weight's weights,
  // factorised by the basis's kind); an irregular cell's child's net from `children` where they
  // hold it (ChildNets), else from its rows. (TricubicPoints sums the tricubic cells.)
  template <class T, int Width>
  SPMESH_HD void sum(index_t s, const Columns<T, Width>& columns, const ChildNetsView<T>& children,
                     Sums<T, Width>& out) const {
    const index_t c = cell[s];
    const index_t* net = nets + offsets[c];
    const double at[3] = {u[s], v[s], w[s]};
    if (is_irregular_net(kinds[c])) {
      const IrregularSample sample(irregular, c, kinds[c], at);
      if (const T* stored = children.net(c, sample))
        return irregular_sum(sample, Columns<T, Width>{stored, columns.k, columns.c0, columns.n}, out);
      return irregular_sum(sample, RingPoints<T, Width>{sample.rows, sample.ring, net, columns}, out);
    }
    LayeredBasis(at, kinds[c]).sum(sections, IndexedPoints<T, Width>{net, columns}, offsets[c + 1] - offsets[c], out);
  }
  // An irregular cell's sums: the child's sums over its net (`points`, by entry), the limit at V
  // (entry `entries`) added to the position, the derivatives turned onto the cell's axes.
  template <class T, int Width, class Points>
  SPMESH_HD void irregular_sum(const IrregularSample& sample, const Points& points, Sums<T, Width>& out) const {
    Sums<T, Width> child = {};
    if (is_line_net(sample.kind)) LayeredBasis(sample.at, sample.kind).sum(sections, points, sample.entries, child);
    else TricubicBasis<T>(sample.at, sample.kind).sum(PointRows<T, Width, Points>{points}, child);
    T at_v[Width];
    points.load(sample.entries, at_v);
    for (int col = 0; col < Width; ++col) {
      auto along = [&](int axis) { return axis == 0 ? child[1][col] : axis == 1 ? child[2][col] : child[3][col]; };
      out[0][col] = child[0][col] + at_v[col];
      out[1][col] = T(sample.factor0) * along(sample.source0);
      out[2][col] = T(sample.factor1) * along(sample.source1);
      out[3][col] = T(sample.factor2) * along(sample.source2);
    }
  }
};

// f(width, c0, n) for the column blocks of k columns: one of 3 where k is 3 (xyz), else blocks of
// 4; width is std::integral_constant<int, 3 or 4>, n the block's columns (at most width).
template <class F>
SPMESH_HD void for_each_block(index_t k, F&& f) {
  if (k == 3) return f(std::integral_constant<int, 3>{}, 0, 3);
  for (index_t c0 = 0; c0 < k; c0 += 4) f(std::integral_constant<int, 4>{}, c0, int(k - c0 < 4 ? k - c0 : 4));
}

// The four outputs (samples x k each).
template <class T>
struct Outputs {
  T *position, *du, *dv, *dw;
  index_t k;
};
template <class T, int Width>
SPMESH_HD void write_sums(const Outputs<T>& to, index_t s, index_t c0, int n, const Sums<T, Width>& sums) {
  T* out[4] = {to.position, to.du, to.dv, to.dw};
  for (int m = 0; m < 4; ++m)
    for (int col = 0; col < Width; ++col)
      if (col < n) out[m][std::int64_t(s) * to.k + c0 + col] = sums[m][col];
}

// The limit at the samples in layered and irregular cells, a thread a sample, after
// TricubicPoints wrote every status, summing in T (float's error against double:
// bench/RESULTS.md), three columns at once where P has three (xyz), else four at a time.
template <class T>
struct NetPoints {
  CellSamples samples;
  const T* P;
  Outputs<T> out;
  const std::uint8_t* status;
  ChildNetsView<T> children;
  SPMESH_HD void operator()(index_t s) const {
    if (status[s] != 0 || is_tricubic_net(samples.kinds[samples.cell[s]])) return;
    for_each_block(out.k, [&](auto width, index_t c0, int n) {
      Sums<T, decltype(width)::value> sums = {};
      samples.sum(s, Columns<T, decltype(width)::value>{P, out.k, c0, n}, children, sums);
      write_sums(out, s, c0, n, sums);
    });
  }
};

// The tricubic cells' nets with their control points gathered, once a call, so that the samples
// of a cell read its 64 points where they lie together (GatheredRows) instead of each sample
// reading them through the net's indices: cell c's column col at
// points[(c x k + col) x 64 .. + 63], zero where the net has no point (beyond a boundary face);
// other cells' entries are not written.
template <class T>
struct GatherNets {
  const index_t *offsets, *nets;
  const std::uint8_t* kinds;
  const T* P;
  index_t k;
  T* points;
  SPMESH_HD void operator()(index_t entry) const {
    const index_t c = entry / tricubic_net_points, p = entry % tricubic_net_points;
    if (!is_tricubic_net(kinds[c])) return;
    const index_t vertex = nets[offsets[c] + p];
    T* to = points + std::int64_t(c) * k * tricubic_net_points + p;
    for (index_t col = 0; col < k; ++col)
      to[std::int64_t(col) * tricubic_net_points] = vertex >= 0 ? P[std::int64_t(vertex) * k + col] : T(0);
  }
};

// Every sample's status, and the limit at those in tricubic cells, from their gathered nets
// (`gathered`: GatherNets) or through the nets' indices into P; the others are NetPoints'. A
// thread takes `many` consecutive samples, each row of their cell's points read once for all of
// them where they share a cell (samples in a cell are usually consecutive), else one at a time.
template <class T, int many, bool gathered>
struct TricubicPoints {
  CellSamples samples;
  index_t n;
  const T *points, *P;  // the gathered nets (`gathered`), the control points (else)
  Outputs<T> out;
  std::uint8_t* status;
  SPMESH_HD void operator()(index_t item) const {
    const index_t first = item * many, last = n - first < many ? n : first + many;
    const index_t c = samples.cell[first];
    bool together = last - first == many;  // every one evaluated, in one cell
    for (index_t s = first; s < last; ++s) {
      status[s] = samples.status(s);
      together = together && status[s] == 0 && samples.cell[s] == c;
    }
    if (together && is_tricubic_net(samples.kinds[c])) return evaluate<many>(first);
    for (index_t s = first; s < last; ++s)
      if (status[s] == 0 && is_tricubic_net(samples.kinds[samples.cell[s]])) evaluate<1>(s);
  }
  // Samples first .. first + Many - 1, all in one tricubic cell.
  template <int Many>
  SPMESH_HD void evaluate(index_t first) const {
    const index_t c = samples.cell[first];
    TricubicBasis<T> bases[Many];
    for (int i = 0; i < Many; ++i) {
      const double at[3] = {samples.u[first + i], samples.v[first + i], samples.w[first + i]};
      bases[i] = TricubicBasis<T>(at, samples.kinds[c]);
    }
    for_each_block(out.k, [&](auto width, index_t c0, int n_columns) {
      constexpr int Width = decltype(width)::value;
      Sums<T, Width> sums[Many] = {};
      if constexpr (gathered) {
        const GatheredRows<T, Width> rows{points + std::int64_t(c) * out.k * tricubic_net_points, c0, n_columns};
        TricubicBasis<T>::template sum_many<T, Width, Many>(bases, rows, sums);
      } else {
        const PointRows<T, Width, IndexedPoints<T, Width>> rows{
            {samples.nets + samples.offsets[c], Columns<T, Width>{P, out.k, c0, n_columns}}};
        TricubicBasis<T>::template sum_many<T, Width, Many>(bases, rows, sums);
      }
      for (int i = 0; i < Many; ++i) write_sums(out, first + i, c0, n_columns, sums[i]);
    });
  }
};

// Marks the irregular children that samples fall in, down to the depths ChildNetsView holds.
template <class T>
struct MarkChildren {
  CellSamples samples;
  ChildNetsView<T> children;
  SPMESH_HD void operator()(index_t s) const {
    if (samples.status(s) != 0) return;
    const index_t c = samples.cell[s];
    if (!is_irregular_net(samples.kinds[c])) return;
    const double at[3] = {samples.u[s], samples.v[s], samples.w[s]};
    const IrregularSample sample(samples.irregular, c, samples.kinds[c], at);
    if (sample.depth < children.depths) linalg::atomic_max(children.made + children.block(c, sample.corner, sample.depth), index_t(1));
  }
};

// Point `entry` of a marked child's net (item = block x stride + entry), as RingPoints sums it
// for a sample: the same bits.
template <class T>
struct MakeChildNets {
  CellSamples samples;
  const T* P;
  ChildNetsView<T> children;
  SPMESH_HD void operator()(index_t item) const {
    const std::int64_t b = item / children.stride;
    const index_t entry = index_t(item % children.stride);
    if (!children.made[b]) return;
    const index_t c = children.cells[b / (8 * children.depths)];
    const int corner = int(b / children.depths % 8), depth = int(b % children.depths);
    const IrregularView& tables = samples.irregular;
    const index_t q = tables.configuration[c], ring = tables.ring[q];
    const std::int64_t child = 8 * std::int64_t(q) + corner;
    const index_t entries = tables.child_entries[child];
    if (entry > entries) return;
    const double* rows = tables.rows + tables.child_rows[child] + std::int64_t(depth) * (entries + 1) * ring;
    const index_t* ring_points = samples.nets + samples.offsets[c];
    T* to = children.points + b * children.stride * children.columns + std::int64_t(entry) * children.columns;
    for_each_block(children.columns, [&](auto width, index_t c0, int n) {
      constexpr int Width = decltype(width)::value;
      T point[Width];
      RingPoints<T, Width>{rows, ring, ring_points, Columns<T, Width>{P, children.columns, c0, n}}.load(entry, point);
      for (int col = 0; col < n; ++col) to[c0 + col] = point[col];
    });
  }
};

// Row s of the four matrices: its net's vertices in ascending order with their weights (an
// insertion sort in the row: a net's vertices are distinct).
template <class T>
struct NetRows {
  CellSamples samples;
  const index_t* offsets;
  index_t* columns;
  T* values[4];
  SPMESH_HD void operator()(index_t s) const {
    const index_t first = offsets[s];
    index_t end = first;
    samples.for_each_weight(s, [&](index_t vertex, const double (&weights)[4]) {
      index_t at_row = end++;
      for (; at_row > first && columns[at_row - 1] > vertex; --at_row) {
        columns[at_row] = columns[at_row - 1];
        for (int m = 0; m < 4; ++m) values[m][at_row] = values[m][at_row - 1];
      }
      columns[at_row] = vertex;
      for (int m = 0; m < 4; ++m) values[m][at_row] = T(weights[m]);
    });
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
                                            "star (6 edges, each in 4 quads, 8 hexahedra round it), nor one with "
                                            "faces on the boundary and the boundary grid's star at its corners "
                                            "there (5 edges, 4 of them on the boundary) or, where two or three of "
                                            "its faces meet, infinitely sharp edges of two faces (sharp rims and "
                                            "corners) or a smooth rim (its two faces' edge, of two faces, and "
                                            "that edge's ends with 4 edges), nor one inside with one "
                                            "extraordinary edge, both of whose "
                                            "ends are on one extraordinary edge line, and the grid's star at its "
                                            "other corners, nor one with one extraordinary corner whose "
                                            "neighbourhood is its child's there (irregular: refining once usually "
                                            "makes it so); spmesh evaluates the limit only in such cells so far",
                                   s);
    }
  }
}

}  // namespace detail

// The samples' view of the nets.
template <class S>
detail::CellSamples cell_samples(const CellNets<S>& nets, const linalg::Array<index_t, S>& cells,
                                 const linalg::Array<double, S>& u, const linalg::Array<double, S>& v,
                                 const linalg::Array<double, S>& w) {
  const auto& irregular = nets.irregular;
  return {nets.offsets.data(), nets.points.data(), nets.kinds.data(),
          {schemes::stam_view<schemes::catmull_clark::StamView>(nets.stam), {nets.smooth_corner.data()}},
          cells.data(), nets.kinds.size(),
          u.data(), v.data(), w.data(),
          {irregular.configuration.data(), irregular.ring.data(), irregular.child_kinds.data(),
           irregular.child_entries.data(), irregular.child_rows.data(), irregular.rows.data()}};
}

// How limit_at_cells lays its work out (bench/RESULTS.md measures each):
//   per_sample     a thread a sample, reading its net's points through the net's indices (the
//                  seed's thread-per-sample kernels): nothing is made first;
//   gathered_nets  the nets made first, once for all their samples (the seed's warp-per-cell
//                  kernels load a cell's net once for its samples; here once for the call): the
//                  tricubic cells' 64 x k values gathered together, read four at a time with no
//                  index, and the nets of the irregular cells' children that samples fall in,
//                  each summed over the cell's ring once instead of once a sample;
//   gathered_pairs gathered_nets with two consecutive samples a thread, each row of their cell's
//                  points read once for both where they share a cell (half the bytes L1 delivers
//                  to the registers, at twice the registers: slower on the H200);
//   automatic      the tricubic cells' nets gathered from tuning::gathered_net_samples samples a
//                  cell of the mesh (below, read through the indices), the irregular children's
//                  nets made where the samples are at least as many as the irregular cells.
// The tricubic samples run in a kernel of their own (TricubicPoints), so that it holds no other
// class's code. Each layout gives the same bits.
enum class LimitKernel { automatic, per_sample, gathered_nets, gathered_pairs };

// The limit at samples (cells[s], u[s], v[s], w[s]) of the solid whose control points are P
// (vertices x k), from the cells' nets (cell_nets of the same mesh). schemes::SampleError
// naming the first sample not evaluated (its index, cell and parameters, and why).
template <class Exec, class T, class S = typename Exec::space>
CellLimits<T, S> limit_at_cells(Exec& exec, const CellNets<S>& nets, const linalg::Array<index_t, S>& cells,
                                const linalg::Array<double, S>& u, const linalg::Array<double, S>& v,
                                const linalg::Array<double, S>& w, const linalg::Dense<T, S>& P,
                                LimitKernel kernel = LimitKernel::automatic) {
  const index_t n = cells.size(), k = P.cols;
  CellLimits<T, S> out{linalg::Dense<T, S>(n, k), linalg::Dense<T, S>(n, k), linalg::Dense<T, S>(n, k),
                       linalg::Dense<T, S>(n, k)};
  const detail::CellSamples samples = cell_samples(nets, cells, u, v, w);
  const detail::Outputs<T> to{out.position.data.data(), out.du.data.data(), out.dv.data.data(), out.dw.data.data(),
                              k};
  // What the layout makes first: the tricubic nets' values (gathered), the irregular children's
  // nets (with_children).
  const auto& irregular = nets.irregular;
  const std::int64_t gathered_entries = std::int64_t(samples.cells) * k * tricubic_net_points;
  const std::int64_t child_blocks = std::int64_t(irregular.cells.size()) * 8 * tuning::irregular_child_depths;
  const std::int64_t child_entries = child_blocks * irregular.child_points * k;
  bool gathered = kernel == LimitKernel::gathered_nets || kernel == LimitKernel::gathered_pairs;
  bool with_children = gathered && child_blocks > 0;
  if (kernel == LimitKernel::automatic) {
    gathered = n >= tuning::gathered_net_samples * std::int64_t(samples.cells) && gathered_entries <= max_index;
    with_children = child_blocks > 0 && n >= irregular.cells.size() && child_entries <= max_index;
  }
  linalg::Array<T, S> points(gathered ? checked_index(gathered_entries, "limit_at_cells' gathered nets") : 0);
  linalg::Array<index_t, S> made(with_children ? checked_index(child_blocks, "limit_at_cells' irregular children") : 0);
  linalg::Array<T, S> child_points(
      with_children ? checked_index(child_entries, "limit_at_cells' irregular children's nets") : 0);
  const detail::ChildNetsView<T> children{with_children ? child_points.data() : nullptr,
                                          irregular.slot.data(),
                                          irregular.cells.data(),
                                          made.data(),
                                          tuning::irregular_child_depths,
                                          irregular.child_points,
                                          k};
  const T* p = P.data.data();
  detail::checked_samples(exec, samples.cells, cells, u, v, w, [&](std::uint8_t* status) {
    if (gathered)
      exec.for_each(index_t(gathered_entries / k), detail::GatherNets<T>{nets.offsets.data(), nets.points.data(),
                                                                          nets.kinds.data(), p, k, points.data()});
    if (with_children) {
      index_t* marks = made.data();
      exec.for_each(made.size(), [=] SPMESH_HD(index_t b) { marks[b] = 0; });
      exec.for_each(n, detail::MarkChildren<T>{samples, children});
      exec.for_each(index_t(child_blocks * irregular.child_points), detail::MakeChildNets<T>{samples, p, children});
    }
    // The tricubic cells' samples (and every status), then the others'.
    if (kernel == LimitKernel::gathered_pairs)
      exec.for_each(index_t((std::int64_t(n) + 1) / 2),
                    detail::TricubicPoints<T, 2, true>{samples, n, points.data(), p, to, status});
    else if (gathered)
      exec.for_each(n, detail::TricubicPoints<T, 1, true>{samples, n, points.data(), p, to, status});
    else
      exec.for_each(n, detail::TricubicPoints<T, 1, false>{samples, n, points.data(), p, to, status});
    if (nets.cells > nets.tricubic_cells) exec.for_each(n, detail::NetPoints<T>{samples, p, to, status, children});
  });
  return out;
}

// The same samples as matrices of the solid's `vertices` control points (samples x vertices, a
// row the net's points: 64 inside, 16 fewer a boundary face (tricubic_net_entries), 4 (2n + 8)
// in a layered cell of valence n;
// columns ascending): W P is limit_at_cells' (its weights rounded to T), and W R of a refinement
// matrix R evaluates samples of the refined cells from the base's points.
template <class T, class Exec, class S = typename Exec::space>
CellMatrices<T, S> limit_matrices_at_cells(Exec& exec, const CellNets<S>& nets,
                                           const linalg::Array<index_t, S>& cells, const linalg::Array<double, S>& u,
                                           const linalg::Array<double, S>& v, const linalg::Array<double, S>& w,
                                           index_t vertices) {
  const index_t n = cells.size();
  const detail::CellSamples samples = cell_samples(nets, cells, u, v, w);
  detail::checked_samples(exec, samples.cells, cells, u, v, w,
                          [&](std::uint8_t* status) { exec.for_each(n, detail::StatusOf{samples, status}); });
  // The rows' offsets (one wait for their total).
  linalg::Array<std::int64_t, S> lengths(n), total(1);
  std::int64_t* length = lengths.data();
  exec.for_each(n, [=] SPMESH_HD(index_t s) { length[s] = samples.row_length(s); });
  exec.exclusive_scan(length, length, n, total.data());
  const index_t entries = checked_index(exec.read(total.data()), "limit_matrices_at_cells' entries");
  linalg::Array<index_t, S> offsets(n + 1);
  index_t* o = offsets.data();
  exec.for_each(n + 1, [=] SPMESH_HD(index_t s) { o[s] = s < n ? index_t(length[s]) : entries; });
  linalg::Array<index_t, S> columns(entries);
  linalg::Array<T, S> values[4] = {linalg::Array<T, S>(entries), linalg::Array<T, S>(entries),
                                   linalg::Array<T, S>(entries), linalg::Array<T, S>(entries)};
  exec.for_each(n, detail::NetRows<T>{samples, o, columns.data(),
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
