// Limit evaluation for Python (limits.cpp), on the CPU: the limit surface at the vertices of a
// level (positions, unit normals, the level's faces), and the limit and its derivatives at
// samples (face, u, v), for the schemes that have them (Catmull-Clark and Loop).
#pragma once

#include <nanobind/nanobind.h>

namespace spmesh::python {

void bind_limits(nanobind::module_& module);

}  // namespace spmesh::python
