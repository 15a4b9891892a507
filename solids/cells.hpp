// A volume mesh as lists of cell vertices, and the faces of each kind of cell. A cell's kind is
// told by its vertex count; its vertices come in a right-handed order:
//   tetrahedron (4): triangle 0 1 2, then 3 on the side (p1 - p0) x (p2 - p0) points to;
//   prism (6):       triangle 0 1 2, then 3 4 5 above 0 1 2 on that side;
//   hexahedron (8):  quad 0 1 2 3, then 4 5 6 7 above 0 1 2 3 on the side (p1 - p0) x (p3 - p0)
//                    points to (VTK's and Medit's order).
// Each face is listed counterclockwise seen from outside the cell, so that every edge of a cell
// is walked once in each direction by its faces.
#pragma once

#include "linalg/array.hpp"

#include <string>

namespace spmesh::solids {

template <class S = linalg::Host>
struct CellMesh {
  index_t vertices = 0;
  linalg::Array<index_t, S> offsets;  // cells + 1: cell c is indices[offsets[c], offsets[c + 1])
  linalg::Array<index_t, S> indices;  // vertex ids, in each cell's order above

  index_t cells() const { return offsets.size() > 0 ? offsets.size() - 1 : 0; }
};

// The most vertices a face of a supported cell has.
inline constexpr int max_face_corners = 4;

// The number of faces of a cell of `corners` vertices, 0 for a count that is no supported kind.
SPMESH_HD inline int cell_faces(index_t corners) {
  return corners == 4 ? 4 : corners == 6 ? 5 : corners == 8 ? 6 : 0;
}

// The cell-local vertex at corner `corner` of face `face` of a cell of `corners` vertices, or -1
// past a triangle's third corner.
SPMESH_HD inline int face_corner(index_t corners, int face, int corner) {
  constexpr signed char tetrahedron[4][4] = {{0, 2, 1, -1}, {0, 1, 3, -1}, {1, 2, 3, -1}, {2, 0, 3, -1}};
  constexpr signed char prism[5][4] = {
      {0, 2, 1, -1}, {3, 4, 5, -1}, {0, 1, 4, 3}, {1, 2, 5, 4}, {2, 0, 3, 5}};
  constexpr signed char hexahedron[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                            {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
  return corners == 4 ? tetrahedron[face][corner]
         : corners == 6 ? prism[face][corner]
                        : hexahedron[face][corner];
}

// The three faces of a cell at its corner `corner`, and the corner's neighbours a, b, c in the
// right-handed order above: face ab holds edges (corner, a) and (corner, b), and so on. Around
// the corner each outward face turns from one neighbour to the next: ab takes a to b, bc b to c,
// ca c to a.
struct CornerFrame {
  int a, b, c, ab, bc, ca;
};

SPMESH_HD inline CornerFrame corner_frame(index_t corners, int corner) {
  int prev[3] = {0, 0, 0}, next[3] = {0, 0, 0}, face[3] = {0, 0, 0}, found = 0;
  for (int k = 0; k < cell_faces(corners) && found < 3; ++k) {
    const int n = face_corner(corners, k, 3) < 0 ? 3 : 4;
    for (int m = 0; m < n; ++m)
      if (face_corner(corners, k, m) == corner) {
        prev[found] = face_corner(corners, k, (m + n - 1) % n);
        next[found] = face_corner(corners, k, (m + 1) % n);
        face[found++] = k;
      }
  }
  CornerFrame f{prev[0], next[0], 0, face[0], 0, 0};
  for (int i = 1; i < 3; ++i) {
    if (prev[i] == f.b) f.c = next[i], f.bc = face[i];
    else f.ca = face[i];
  }
  return f;
}

// The number of edges of a cell of `corners` vertices (3 at each corner, each met twice).
SPMESH_HD inline int cell_edge_count(index_t corners) { return 3 * int(corners) / 2; }

// End `end` (0 or 1, the lower first) of edge `edge` of a cell of `corners` vertices, as a
// cell-local vertex: a fixed numbering of each kind's edges.
SPMESH_HD inline int cell_edge(index_t corners, int edge, int end) {
  constexpr signed char tetrahedron[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  constexpr signed char prism[9][2] = {{0, 1}, {0, 2}, {1, 2}, {3, 4}, {3, 5}, {4, 5}, {0, 3}, {1, 4}, {2, 5}};
  constexpr signed char hexahedron[12][2] = {{0, 1}, {1, 2}, {2, 3}, {0, 3}, {4, 5}, {5, 6},
                                             {6, 7}, {4, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  return corners == 4 ? tetrahedron[edge][end] : corners == 6 ? prism[edge][end] : hexahedron[edge][end];
}

// The number of the edge joining cell-local vertices u and w (cell_edge), or -1.
SPMESH_HD inline int cell_edge_between(index_t corners, int u, int w) {
  const int low = u < w ? u : w, high = u < w ? w : u;
  for (int edge = 0; edge < cell_edge_count(corners); ++edge)
    if (cell_edge(corners, edge, 0) == low && cell_edge(corners, edge, 1) == high) return edge;
  return -1;
}

// For messages: "a hexahedron", "a pyramid" (5 vertices), "a cell of 7 vertices".
inline std::string describe_cell(index_t corners) {
  switch (corners) {
    case 4: return "a tetrahedron";
    case 5: return "a pyramid";
    case 6: return "a prism";
    case 8: return "a hexahedron";
    default: return "a cell of " + std::to_string(corners) + " vertices";
  }
}

}  // namespace spmesh::solids
