// Writing volume meshes: VTK XML unstructured grids (.vtu, what ParaView opens; binary appended
// data), VTK legacy (.vtk, version 4.2, binary) and Medit (.mesh, text). Like every spmesh writer, through meshops::OutputFiles: checked
// before the file is opened, never half-written.
#pragma once

#include "meshops/output.hpp"
#include "solids/cells.hpp"
#include "linalg/formats.hpp"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace spmesh::solids {

enum class VolumeFormat { vtu, vtk, medit };

// A named scalar a point or a cell, for a .vtu's PointData or CellData (Float32, Float64 or
// Int32 by the values' type).
struct NamedValues {
  std::string name;
  std::variant<std::vector<float>, std::vector<double>, std::vector<std::int32_t>> values;
};
// The arrays written beside a mesh: a value a point each, a value a cell each. Only .vtu holds them.
struct VolumeData {
  std::vector<NamedValues> points, cells;
  bool empty() const { return points.empty() && cells.empty(); }
};

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
// cells.vertices x 3. `data`'s arrays (.vtu only: InputError naming the first for another format,
// and for a name that XML would need escaped) follow in PointData and CellData; DimensionError
// for one of another length than the points or the cells.
void write_volume(meshops::OutputFiles& outputs, const std::string& path, VolumeFormat format,
                  const std::string& source, const linalg::Dense<double>& positions, const CellMesh<>& cells,
                  const VolumeData& data = {});
void write_volume(meshops::OutputFiles& outputs, const std::string& path, VolumeFormat format,
                  const std::string& source, const linalg::Dense<float>& positions, const CellMesh<>& cells,
                  const VolumeData& data = {});

// One file, written atomically, in the format its extension names.
void write_volume(const std::string& path, const linalg::Dense<double>& positions, const CellMesh<>& cells);
void write_volume(const std::string& path, const linalg::Dense<float>& positions, const CellMesh<>& cells);

}  // namespace spmesh::solids
