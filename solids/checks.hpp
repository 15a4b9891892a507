// Checks of a volume mesh's geometry before any work: what boundary_operators (topology.hpp)
// cannot see from the cells alone.
#pragma once

#include "solids/mesh.hpp"

#include <string>
#include <vector>

namespace spmesh::solids {

// Throws InputError naming `source` for the first vertex with a coordinate that is not finite,
// and for the first cell that is inverted or degenerate at a corner: the Jacobian there, the
// volume of the frame of the corner's three edges in the cell's right-handed order (cells.hpp),
// is not positive. Ids in the messages count from 0. Cells that are no kind, malformed polyhedra
// and vertices out of range are left to boundary_operators.
void check_geometry(const std::string& source, const linalg::Dense<double>& positions, const CellMesh<>& cells);

// The vertices no cell names, ascending (a mesh generator's helper points, such as gmsh's circle
// centres): refinement keeps them where they are.
std::vector<index_t> unused_vertices(const CellMesh<>& cells);

}  // namespace spmesh::solids
