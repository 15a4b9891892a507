// A hexahedron's refinement seen from a sample: a level's cells are a child hexahedron at each
// corner of each cell (refined_topology.hpp), the child at corner l with corners (l, edge point
// toward a, face point ab, edge point toward b, edge point toward c, face point ca, cell point,
// face point bc), (a, b, c) = corner_frame(8, l). Its u, v and w axes therefore run from corner l
// toward the edge points of the edges (l, a), (l, b) and (l, c): each along one of the parent's
// axes, half its length, turned toward the parent's opposite face where l is on the far side.
#pragma once

#include "solids/cell_nets.hpp"
#include "solids/cells.hpp"

namespace spmesh::solids {

// How derivatives at a child's sample turn back: the one along the parent's axis a (0 u, 1 v,
// 2 w) is scale[a] times the child's along its axis axis[a].
struct SampleAxes {
  int axis[3] = {0, 1, 2};
  double scale[3] = {1, 1, 1};
};

struct ChildSample {
  int corner = 0;             // the child's corner in its parent, the corner it is at
  double at[3] = {0, 0, 0};   // the sample's (u, v, w) in the child
  SampleAxes axes;
};

// The child of a hexahedron holding the sample `at` (in [0, 1]^3): the one at the corner nearest
// it (a parameter of 1/2 goes to the far side's child), its parameter along each axis 2 x or
// 2 (1 - x) (exact in binary floating point), and its derivatives' turn (scales +-2).
SPMESH_HD inline ChildSample corner_child(const double at[3]) {
  ChildSample out;
  const int l = detail::hexahedron_corner(at[0] >= 0.5, at[1] >= 0.5, at[2] >= 0.5);
  const CornerFrame frame = corner_frame(8, l);
  const int toward[3] = {frame.a, frame.b, frame.c};
  out.corner = l;
  for (int d = 0; d < 3; ++d) {
    const int axis = detail::axis_between(l, toward[d]);
    const bool far_side = detail::hexahedron_coordinate(l, axis) == 1;
    out.at[d] = far_side ? 2 * (1 - at[axis]) : 2 * at[axis];
    out.axes.axis[axis] = d, out.axes.scale[axis] = far_side ? -2 : 2;
  }
  return out;
}

// The turn of `outer` followed by `inner`'s (a child's child): the parent's axis a is outer's
// axis[a] in the child, which is inner's axis[...] in the grandchild.
SPMESH_HD inline SampleAxes then(const SampleAxes& outer, const SampleAxes& inner) {
  SampleAxes out;
  for (int a = 0; a < 3; ++a)
    out.axis[a] = inner.axis[outer.axis[a]], out.scale[a] = outer.scale[a] * inner.scale[outer.axis[a]];
  return out;
}

}  // namespace spmesh::solids
