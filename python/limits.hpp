// Limit evaluation for Python (limits.cpp), on the CPU and, in a build with CUDA, the GPU (the
// command line's GPU pipeline, apps/commands.hpp): the limit surface at the vertices of a level
// (positions, unit normals, the level's faces), and the limit and its derivatives at samples
// (face, u, v), for the schemes that have them (Catmull-Clark and Loop). Results are NumPy
// arrays either way.
#pragma once

#include <nanobind/nanobind.h>

namespace spmesh::python {

void bind_limits(nanobind::module_& module);

}  // namespace spmesh::python
