// Samples (cell, u, v, w) of a solid's hexahedra carried down `levels` levels of its refinement,
// so that the limit evaluated on the refined level answers for the input's cells: the refined
// cell holding each sample, its (u, v, w) there, and how the derivatives found there turn back
// into derivatives along the input cell's u, v and w.
//
// A level's cells are a child hexahedron at each corner of each cell, in order (refined_topology.hpp):
// the child of cell c at its corner l is cell offsets[c] + l (8 c + l once every cell is a
// hexahedron), with corners (l, edge point toward a, face point ab, edge point toward b, edge
// point toward c, face point ca, cell point, face point bc), (a, b, c) = corner_frame(shape, l).
// In a hexahedron the child's u, v and w axes therefore run from corner l toward the edge points
// of its edges (l, a), (l, b) and (l, c): each along one of the parent's axes, half its length,
// turned toward the parent's opposite face where l is on the far side. A sample is taken by the
// child at the corner nearest it (a parameter of 1/2 goes to the far side's child); a
// derivative along the parent's axis is twice the one along the child's axis on it, signed.
#pragma once

#include "linalg/formats.hpp"
#include "schemes/samples.hpp"
#include "solids/cell_nets.hpp"
#include "solids/cells.hpp"
#include "solids/limit_at.hpp"

#include <string>
#include <vector>

namespace spmesh::solids {

// How the derivatives at a refined sample turn back: the one along the input cell's axis a (0 u,
// 1 v, 2 w) is scale[a] (+-2^levels) times the refined cell's along its axis axis[a].
struct SampleAxes {
  int axis[3] = {0, 1, 2};
  double scale[3] = {1, 1, 1};
};

struct RefinedSample {
  index_t cell = 0;           // the refined cell holding the sample
  double at[3] = {0, 0, 0};   // its (u, v, w) there
  SampleAxes axes;
};

// Sample `at` (in [0, 1]^3) of `base`'s cell c, a hexahedron when levels > 0, `levels` levels
// down.
SPMESH_HD inline RefinedSample refined_sample(const CellsView& base, index_t c, const double at[3], int levels) {
  RefinedSample out;
  out.cell = c;
  for (int a = 0; a < 3; ++a) out.at[a] = at[a];
  index_t first_child = base.begin(c);  // every cell's children are in the order of its corners
  for (int level = 0; level < levels; ++level) {
    const int l = detail::hexahedron_corner(out.at[0] >= 0.5, out.at[1] >= 0.5, out.at[2] >= 0.5);
    const CornerFrame frame = corner_frame(8, l);
    const int toward[3] = {frame.a, frame.b, frame.c};
    double child_at[3] = {0, 0, 0};
    int child_axis[3] = {0, 1, 2};                 // the child's axis along each parent axis
    double parent_over_child[3] = {2, 2, 2};       // d/d(parent axis) over d/d(child's axis on it)
    for (int d = 0; d < 3; ++d) {
      const int axis = detail::axis_between(l, toward[d]);
      const bool far_side = detail::hexahedron_coordinate(l, axis) == 1;
      child_at[d] = far_side ? 2 * (1 - out.at[axis]) : 2 * out.at[axis];
      child_axis[axis] = d, parent_over_child[axis] = far_side ? -2 : 2;
    }
    for (int a = 0; a < 3; ++a) {
      out.at[a] = child_at[a];
      out.axes.scale[a] *= parent_over_child[out.axes.axis[a]];
      out.axes.axis[a] = child_axis[out.axes.axis[a]];
    }
    out.cell = first_child + l;
    first_child = 8 * out.cell;  // from here on every cell is a hexahedron
  }
  return out;
}

// The samples (cells[s], u[s], v[s], w[s]) of `base` (parameters in [0, 1]^3), each carried
// `levels` levels down; with no level, the samples as they are. schemes::SampleError naming the
// first sample in a cell that is no hexahedron when levels > 0: only a hexahedron's (u, v, w) has
// a meaning there.
inline std::vector<RefinedSample> refined_samples(const CellMesh<>& base, const std::vector<index_t>& cells,
                                                  const std::vector<double>& u, const std::vector<double>& v,
                                                  const std::vector<double>& w, int levels) {
  if (u.size() != cells.size() || v.size() != cells.size() || w.size() != cells.size())
    throw DimensionError("refined_samples: " + std::to_string(cells.size()) + " cells but " + std::to_string(u.size()) +
                         ", " + std::to_string(v.size()) + " and " + std::to_string(w.size()) + " parameters");
  const CellsView view = base.view();
  std::vector<RefinedSample> out(cells.size());
  for (std::size_t s = 0; s < cells.size(); ++s) {
    const index_t c = cells[s];
    if (c < 0 || c >= base.cells())
      throw schemes::SampleError("refined_samples: sample " + std::to_string(s) + " names cell " + std::to_string(c) +
                                     "; the mesh has cells 0 to " + std::to_string(base.cells() - 1),
                                 index_t(s));
    const CellShape shape = view.shape(c);
    if (levels > 0 && (shape.polyhedron() || shape.corners != 8))
      throw schemes::SampleError("refined_samples: sample " + std::to_string(s) + " is in cell " + std::to_string(c) +
                                     ", " + describe_cell(shape) +
                                     ": (u, v, w) names a point of a hexahedron only (ids count from 0)",
                                 index_t(s));
    const double at[3] = {u[s], v[s], w[s]};
    out[s] = refined_sample(view, c, at, levels);
  }
  return out;
}

// The derivatives of `limits` (a row a sample, evaluated at `samples`' refined cells and
// parameters) turned into derivatives along the input cells' u, v and w; positions stay.
template <class T>
void to_input_axes(const std::vector<RefinedSample>& samples, CellLimits<T>& limits) {
  if (std::size_t(limits.position.rows) != samples.size())
    throw DimensionError("to_input_axes: " + std::to_string(samples.size()) + " samples but " +
                         std::to_string(limits.position.rows) + " rows of limits");
  linalg::Dense<T>* derivative[3] = {&limits.du, &limits.dv, &limits.dw};
  for (std::size_t s = 0; s < samples.size(); ++s) {
    const index_t row = index_t(s);
    const SampleAxes& axes = samples[s].axes;
    for (index_t x = 0; x < limits.position.cols; ++x) {
      const T refined[3] = {(*derivative[0])(row, x), (*derivative[1])(row, x), (*derivative[2])(row, x)};
      for (int a = 0; a < 3; ++a) (*derivative[a])(row, x) = T(axes.scale[a] * double(refined[axes.axis[a]]));
    }
  }
}

}  // namespace spmesh::solids
