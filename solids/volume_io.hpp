// Volume meshes from VTK legacy (.vtk), VTK XML (.vtu) and gmsh (.msh) files, and any volume file
// by its extension. Each reader names the problem with file:line (text) or file: byte N (binary
// data, and .vtu's tags).
#pragma once

#include "solids/mesh.hpp"

#include <string>
#include <string_view>

namespace spmesh::solids {

// VTK legacy files, versions 2.0 to 5.1, ASCII or BINARY (big-endian), of DATASET
// UNSTRUCTURED_GRID: POINTS (float or double), CELLS (a count before each cell's ids, or 5.1's
// OFFSETS and CONNECTIVITY), CELL_TYPES. Cell types 10 (tetrahedron), 12 (hexahedron) and 13
// (wedge, turned into cells.hpp's order: VTK's base triangle faces away from the top) are read;
// 1 to 9 (vertices, lines, polygons: a boundary's parts) are skipped; 42 (polyhedron: its entry in
// CELLS, or in 5.1's CONNECTIVITY as VTK's writer lays it out, is its face stream) is read as a tetrahedron, prism or hexahedron where
// its faces make one, else as a polyhedron whose corners each join three faces (vtk_cells.hpp); 14 (pyramid) and any other are refused naming the cell. POINT_DATA,
// CELL_DATA and FIELD end what is read (attributes are not used).
VolumeMesh parse_vtk(std::string_view bytes, const std::string& name);

// VTK XML unstructured grids (.vtu) of one Piece: Points and Cells (connectivity, offsets, types,
// and for polyhedra faces and faceoffsets, or VTK 9.4's face_connectivity, face_offsets,
// polyhedron_to_faces and polyhedron_offsets), each DataArray ASCII, inline base64 ("binary") or in
// the AppendedData (raw or base64), with header_type UInt32 or UInt64, either byte order, and
// zlib-compressed where the file says so (vtkZLibDataCompressor; refused by name in a build
// without zlib). The cell types are the legacy reader's. PointData and CellData are not used.
VolumeMesh parse_vtu(std::string_view bytes, const std::string& name);

// gmsh .msh files of version 4.1, ASCII or binary: $Nodes and $Elements (tetrahedra 4,
// hexahedra 5, prisms 6, whose orders are cells.hpp's; points 15, lines 1, triangles 2 and
// quadrangles 3 skipped; pyramids 7 and other types refused naming the element); other sections
// ($PhysicalNames, $Entities, $NodeData, ...) skipped. Node tags may be sparse.
VolumeMesh parse_msh(std::string_view bytes, const std::string& name);

// Whether spmesh reads `path` as a volume mesh: .mesh (Medit), .vtk, .vtu or .msh.
bool is_volume_file(const std::string& path);

// The volume mesh of a .mesh, .vtk, .vtu or .msh file.
VolumeMesh read_volume(const std::string& path);

}  // namespace spmesh::solids
