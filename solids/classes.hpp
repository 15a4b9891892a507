// The cells of a Catmull-Clark solid by how their limit is evaluated (seed 000, section 3.1 and
// Table 1): regular, layered or irregular, from the extraordinary edges and vertices around them.
#pragma once

#include "solids/sharpness.hpp"
#include "solids/topology.hpp"

#include <map>
#include <string>
#include <vector>

namespace spmesh::solids {

// An edge is extraordinary when it has other than 4 faces inside the volume, other than 3 on the
// boundary (on a face of one cell), but for a sharp rim: an infinitely sharp edge of 2 faces on
// the boundary, where the B-spline's ends are interpolated across both faces (cell_nets.hpp). A
// vertex is extraordinary when two extraordinary edges meet at it in one cell. A hexahedron is
//   regular    with no extraordinary edge: 4 x 4 x 4 control points inside, 3 x 4 x 4 with a
//              vertex on the boundary;
//   layered    with one: a surface vertex of that edge's valence times a cubic B-spline;
//   irregular  with more, all through one extraordinary vertex, and no other such vertex;
// and every other cell is not evaluable by the seed's constant-time method: not a hexahedron,
// two extraordinary vertices, or extraordinary edges through no common extraordinary vertex.
struct CellClasses {
  index_t extraordinary_edges = 0, extraordinary_vertices = 0, sharp_rims = 0;
  index_t regular_interior = 0, regular_boundary = 0, irregular = 0;
  index_t regular_at_rims = 0;  // of the regular cells at the boundary, those with an edge on a sharp rim
  std::map<index_t, index_t> layered;  // cells by the valence of their extraordinary edge
  struct NotEvaluable {
    index_t cell;
    std::string reason;
  };
  std::vector<NotEvaluable> not_evaluable;  // ascending by cell
};

// `sharpness` (the mesh's tags, or none): its sharp rims.
CellClasses classify_cells(const CellMesh<>& mesh, const BoundaryOperators<>& ops,
                           const SolidSharpness<>* sharpness = nullptr);

}  // namespace spmesh::solids
