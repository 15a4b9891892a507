// Volume meshes from VTK legacy (.vtk) and gmsh (.msh) files, and any volume file by its
// extension. Each reader names the problem with file:line (text) or file: byte N (binary data).
#pragma once

#include "solids/mesh.hpp"

#include <string>
#include <string_view>

namespace spmesh::solids {

// VTK legacy files, versions 2.0 to 5.1, ASCII or BINARY (big-endian), of DATASET
// UNSTRUCTURED_GRID: POINTS (float or double), CELLS (a count before each cell's ids, or 5.1's
// OFFSETS and CONNECTIVITY), CELL_TYPES. Cell types 10 (tetrahedron), 12 (hexahedron) and 13
// (wedge, turned into cells.hpp's order: VTK's base triangle faces away from the top) are read;
// 1, 3, 5 and 9 (vertices, lines, triangles, quads: a boundary's parts) are skipped; 14
// (pyramid), 42 (polyhedron) and any other are refused naming the cell. POINT_DATA, CELL_DATA
// and FIELD end what is read (attributes are not used).
VolumeMesh parse_vtk(std::string_view bytes, const std::string& name);

// gmsh .msh files of version 4.1, ASCII or binary: $Nodes and $Elements (tetrahedra 4,
// hexahedra 5, prisms 6, whose orders are cells.hpp's; points 15, lines 1, triangles 2 and
// quadrangles 3 skipped; pyramids 7 and other types refused naming the element); other sections
// ($PhysicalNames, $Entities, $NodeData, ...) skipped. Node tags may be sparse.
VolumeMesh parse_msh(std::string_view bytes, const std::string& name);

// Whether spmesh reads `path` as a volume mesh: .mesh (Medit), .vtk or .msh.
bool is_volume_file(const std::string& path);

// The volume mesh of a .mesh, .vtk or .msh file.
VolumeMesh read_volume(const std::string& path);

}  // namespace spmesh::solids
