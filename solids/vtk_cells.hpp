// VTK's cell types as spmesh's VTK readers take them (legacy .vtk and XML .vtu: volume_io.hpp),
// turned into cells.hpp's kinds and corner orders.
#pragma once

#include "linalg/formats.hpp"
#include "solids/cells.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace spmesh::solids::vtk {

// Cells in cells.hpp's layout, as they are read: face arrays for every cell once a polyhedron
// is read.
struct CellLists {
  std::vector<index_t> offsets{0}, indices;
  std::vector<index_t> face_offsets, face_streams;

  CellMesh<> mesh(index_t vertices) const;
};

// Adds cell `item` (its name in messages, "cell 7") of VTK type `type` with point ids `ids` to
// `out`: tetrahedra (10), voxels (11), hexahedra (12) and wedges (13, VTK's base triangle turned),
// and polyhedra (42): `faces` is then the cell's VTK face stream [face count, n_0, ids of face
// 0..., n_1, ...]. A polyhedron whose faces make a tetrahedron, a prism or a hexahedron is read as
// that kind (its corners in the kind's order, turned right-handed by `positions`), any other as a
// polyhedron (polyhedra.hpp: its faces turned outward; its corners in the order of `ids` where
// they list its vertices, as .vtu's connectivity does). Types 1 to 9 (vertices, lines, polygons:
// a boundary's parts) are skipped (false). `fail(message)` must throw; it is called for a pyramid
// (14: it does not subdivide into hexahedra), another type, a polyhedron that does not subdivide
// into hexahedra (polyhedron_problem), a wrong vertex count and an id out of range, the message
// naming the item.
bool add_cell(CellLists& out, std::int64_t type, std::span<const std::int64_t> ids, std::span<const std::int64_t> faces,
              const linalg::Dense<double>& positions, const std::string& item,
              const std::function<void(const std::string&)>& fail);

}  // namespace spmesh::solids::vtk
