// A volume mesh as files hold it: positions, cells (cells.hpp) and the tags of sharp features.
#pragma once

#include "linalg/formats.hpp"
#include "solids/cells.hpp"

#include <array>
#include <vector>

namespace spmesh::solids {

struct VolumeMesh {
  linalg::Dense<double> positions;  // vertices x 3
  CellMesh<> cells;
  std::vector<index_t> cell_refs;   // each cell's reference number (a material or region id)
  // Sharp features, as vertex ids: edges tagged sharp (Medit's Ridges), vertices tagged as
  // corners (Corners), and the file's line elements (Medit's Edges: gmsh writes one for every
  // geometric curve), sharp only when the user asks.
  std::vector<std::array<index_t, 2>> ridges, line_edges;
  std::vector<index_t> corners;

  index_t vertex_count() const { return positions.rows; }
  index_t cell_count() const { return cells.cells(); }
};

}  // namespace spmesh::solids
