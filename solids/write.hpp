// Writing volume meshes: VTK XML unstructured grids (.vtu, what ParaView opens; binary appended
// data), VTK legacy (.vtk, version 4.2, binary) and Medit (.mesh, text). Like every spmesh writer, through meshops::OutputFiles: checked
// before the file is opened, never half-written.
#pragma once

#include "meshops/output.hpp"
#include "solids/cells.hpp"
#include "linalg/formats.hpp"

#include <string>

namespace spmesh::solids {

enum class VolumeFormat { vtu, vtk, medit };

// The format `path`'s extension names (.vtu, .vtk, .mesh; any letter case). InputError naming the path
// for another.
VolumeFormat volume_output_format(const std::string& path);

// Writes the output `path` of a command (added to `outputs` before) in `format`: float positions
// as Float32, double as Float64 (.vtu), float or double (.vtk) or 9 and 17 significant digits
// (.mesh), which read back as the same values. VTK's cells: tetrahedra 10, wedges 13 (VTK turns a prism's first triangle
// the other way: its vertices 0 2 1 3 5 4), hexahedra 12, polyhedra 42 (with their faces: .vtu's
// faces and faceoffsets arrays, the legacy file's face streams in CELLS). Medit's: a section per
// kind (Tetrahedra, Prisms, Hexahedra) in the order the kinds first appear, each cell in it in the
// order given, ref 0; Medit holds no polyhedra. Throws InputError naming `source` for a cell that
// is no kind or well-formed polyhedron (a polyhedron in a .mesh) or names a vertex out of range,
// and for a position that is not finite, before the file is opened; DimensionError unless positions are
// cells.vertices x 3.
void write_volume(meshops::OutputFiles& outputs, const std::string& path, VolumeFormat format,
                  const std::string& source, const linalg::Dense<double>& positions, const CellMesh<>& cells);
void write_volume(meshops::OutputFiles& outputs, const std::string& path, VolumeFormat format,
                  const std::string& source, const linalg::Dense<float>& positions, const CellMesh<>& cells);

// One file, written atomically, in the format its extension names.
void write_volume(const std::string& path, const linalg::Dense<double>& positions, const CellMesh<>& cells);
void write_volume(const std::string& path, const linalg::Dense<float>& positions, const CellMesh<>& cells);

}  // namespace spmesh::solids
