// Medit .mesh files (INRIA's ASCII format, as gmsh and meshio write it): the volume elements
// and the sharp-feature tags of a volume mesh.
#pragma once

#include "solids/mesh.hpp"

#include <string>
#include <string_view>

namespace spmesh::solids {

// Reads `Vertices` (x y z ref), `Tetrahedra`, `Prisms` and `Hexahedra` (vertex ids from 1 and
// a ref; cells numbered in the order the file lists them), `Edges` (the line elements), `Ridges`
// (ids of sharp Edges, from 1) and `Corners` (vertex ids, from 1). `Triangles` and
// `Quadrilaterals` (boundary faces) are checked and skipped, as are `RequiredVertices`,
// `RequiredEdges`, `Normals`, `Tangents` and their pairings, and `# comments`; the vertex order of
// each cell is the right-handed one of cells.hpp, which is Medit's. Throws InputError naming
// file:line and the problem: a keyword spmesh does not know, `Pyramids` (a pyramid does not
// subdivide into hexahedra), a dimension other than 3, a truncated section, a number that is not
// one, an id out of range (saying ids count from 1), data after `End`.
VolumeMesh read_medit(const std::string& path);

// The same parser over text in memory; `name` stands in for the file name in messages.
VolumeMesh parse_medit(std::string_view text, const std::string& name);

}  // namespace spmesh::solids
