// Samples (cell, u, v, w) of a solid's hexahedra carried down `levels` levels of its refinement,
// so that the limit evaluated on the refined level answers for the input's cells: the refined
// cell holding each sample, its (u, v, w) there, and how the derivatives found there turn back
// into derivatives along the input cell's u, v and w.
//
// A level's cells are a child hexahedron at each corner of each cell, in order: the child of cell
// c at its corner l is cell offsets[c] + l (8 c + l once every cell is a hexahedron); a sample
// goes to the child corner_child names (corner_children.hpp) at each level.
#pragma once

#include "linalg/formats.hpp"
#include "schemes/samples.hpp"
#include "solids/cell_nets.hpp"
#include "solids/corner_children.hpp"
#include "solids/cells.hpp"
#include "solids/limit_at.hpp"

#include <string>
#include <vector>

namespace spmesh::solids {

struct RefinedSample {
  index_t cell = 0;           // the refined cell holding the sample
  double at[3] = {0, 0, 0};   // its (u, v, w) there
  SampleAxes axes;            // the derivatives along the input cell's axis a: scale[a] (+-2^levels)
                              // times the refined cell's along axis[a]
};

// Sample `at` (in [0, 1]^3) of `base`'s cell c, a hexahedron when levels > 0, `levels` levels
// down (corner_child at each level).
SPMESH_HD inline RefinedSample refined_sample(const CellsView& base, index_t c, const double at[3], int levels) {
  RefinedSample out;
  out.cell = c;
  for (int a = 0; a < 3; ++a) out.at[a] = at[a];
  index_t first_child = base.begin(c);  // every cell's children are in the order of its corners
  for (int level = 0; level < levels; ++level) {
    const ChildSample child = corner_child(out.at);
    for (int a = 0; a < 3; ++a) out.at[a] = child.at[a];
    out.axes = then(out.axes, child.axes);
    out.cell = first_child + child.corner;
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
