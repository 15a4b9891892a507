// A volume mesh as lists of cell vertices, and the faces of each cell. A tetrahedron, prism or
// hexahedron (a *kind*) is told by its vertex count, its vertices in a right-handed order:
//   tetrahedron (4): triangle 0 1 2, then 3 on the side (p1 - p0) x (p2 - p0) points to;
//   prism (6):       triangle 0 1 2, then 3 4 5 above 0 1 2 on that side;
//   hexahedron (8):  quad 0 1 2 3, then 4 5 6 7 above 0 1 2 3 on the side (p1 - p0) x (p3 - p0)
//                    points to (VTK's and Medit's order).
// Any other cell is a *polyhedron* given by its faces (VTK's type 42): cycles of its corners
// (positions in its vertex list). Every cell subdivides into hexahedra, one at each corner, when
// each corner joins three faces (a simple polyhedron: the kinds, a pentagonal prism, a
// dodecahedron, a truncated octahedron); a pyramid's apex joins four and is refused.
// Each face is listed counterclockwise seen from outside the cell, so that every edge of a cell
// is walked once in each direction by its faces.
#pragma once

#include "linalg/array.hpp"

#include <string>

namespace spmesh::solids {

struct CellsView;

template <class S = linalg::Host>
struct CellMesh {
  index_t vertices = 0;
  linalg::Array<index_t, S> offsets;  // cells + 1: cell c is indices[offsets[c], offsets[c + 1])
  linalg::Array<index_t, S> indices;  // vertex ids, in each cell's order above
  // The polyhedra's faces, both empty where every cell is a kind: cell c's are
  // face_streams[face_offsets[c], face_offsets[c + 1]) = [n_0, n_0 corners of face 0, n_1, ...],
  // its corners numbered by their position in the cell's vertex list; empty for a kind.
  linalg::Array<index_t, S> face_offsets{};  // cells + 1, or empty
  linalg::Array<index_t, S> face_streams{};

  index_t cells() const { return offsets.size() > 0 ? offsets.size() - 1 : 0; }
  bool has_polyhedra() const { return face_offsets.size() > 0; }
  CellMesh clone() const {
    return {vertices, offsets.clone(), indices.clone(), face_offsets.clone(), face_streams.clone()};
  }
  CellsView view() const;
};

// The most vertices a face of a kind has.
inline constexpr int max_face_corners = 4;

// The number of faces of a kind of `corners` vertices, 0 for a count that is no kind.
SPMESH_HD inline int cell_faces(index_t corners) {
  return corners == 4 ? 4 : corners == 6 ? 5 : corners == 8 ? 6 : 0;
}

// The three faces of a cell at its corner `corner`, and the corner's neighbours a, b, c in the
// right-handed order above: face ab holds edges (corner, a) and (corner, b), and so on. Around
// the corner each outward face turns from one neighbour to the next: ab takes a to b, bc b to c,
// ca c to a.
struct CornerFrame {
  int a, b, c, ab, bc, ca;
};

namespace detail {

// The frame at `corner` of a shape that lists its faces (faces(), face_size(k), corner(k, m)),
// found by walking them.
template <class Shape>
SPMESH_HD constexpr CornerFrame find_corner_frame(const Shape& shape, int corner) {
  // The three faces at the corner, each with the neighbours before and after the corner in it.
  // Named variables, not an array indexed by a count, so that a GPU thread keeps them in
  // registers for a polyhedron too.
  struct Side {
    int before = 0, after = 0, face = 0;
  } first, second, third;
  int found = 0;
  const int faces = shape.faces();
  for (int k = 0; k < faces && found < 3; ++k) {
    const int n = shape.face_size(k);
    for (int m = 0; m < n; ++m) {
      if (shape.corner(k, m) != corner) continue;
      const Side side{shape.corner(k, (m + n - 1) % n), shape.corner(k, (m + 1) % n), k};
      if (found == 0) first = side;
      else if (found == 1) second = side;
      else third = side;
      ++found;
    }
  }
  // The first face is ab; of the others, the one that takes b on is bc (and gives c), the other ca.
  CornerFrame f{first.before, first.after, 0, first.face, 0, 0};
  auto place = [&f](const Side& side) {
    if (side.before == f.b) f.c = side.after, f.bc = side.face;
    else f.ca = side.face;
  };
  place(second);
  place(third);
  return f;
}

// A kind's place in KindTables: tetrahedron 0, prism 1, hexahedron 2.
SPMESH_HD constexpr int kind_index(index_t corners) { return corners == 4 ? 0 : corners == 6 ? 1 : 2; }

// The kinds' faces and edges as written, and what follows from them, made once at compile time
// (the kernels that number refined levels read these in their inner loops: a search there cost
// more than the memory they move).
struct KindTables {
  signed char faces[3][6][4];         // cell-local vertices, -1 past a triangle's third corner
  signed char edges[3][12][2];        // each edge's ends, the lower first
  signed char edge_between[3][8][8];  // the edge joining two corners, -1 where none does
  CornerFrame frames[3][8];           // each corner's frame
};

// A kind's faces in the tables being made, as find_corner_frame reads a shape.
struct KindFaces {
  const KindTables* tables;
  int kind, count;
  SPMESH_HD constexpr int faces() const { return count; }
  SPMESH_HD constexpr int face_size(int face) const { return tables->faces[kind][face][3] < 0 ? 3 : 4; }
  SPMESH_HD constexpr int corner(int face, int corner) const { return tables->faces[kind][face][corner]; }
};

SPMESH_HD constexpr KindTables make_kind_tables() {
  KindTables t{{{{0, 2, 1, -1}, {0, 1, 3, -1}, {1, 2, 3, -1}, {2, 0, 3, -1}},
                {{0, 2, 1, -1}, {3, 4, 5, -1}, {0, 1, 4, 3}, {1, 2, 5, 4}, {2, 0, 3, 5}},
                {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}}},
               {{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}},
                {{0, 1}, {0, 2}, {1, 2}, {3, 4}, {3, 5}, {4, 5}, {0, 3}, {1, 4}, {2, 5}},
                {{0, 1}, {1, 2}, {2, 3}, {0, 3}, {4, 5}, {5, 6}, {6, 7}, {4, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}}},
               {},
               {}};
  const int corners[3] = {4, 6, 8}, faces[3] = {4, 5, 6};
  for (int kind = 0; kind < 3; ++kind) {
    for (auto& row : t.edge_between[kind])
      for (auto& edge : row) edge = -1;
    for (int edge = 0; edge < 3 * corners[kind] / 2; ++edge) {
      const int low = t.edges[kind][edge][0], high = t.edges[kind][edge][1];
      t.edge_between[kind][low][high] = t.edge_between[kind][high][low] = static_cast<signed char>(edge);
    }
    for (int corner = 0; corner < corners[kind]; ++corner)
      t.frames[kind][corner] = find_corner_frame(KindFaces{&t, kind, faces[kind]}, corner);
  }
  return t;
}

SPMESH_HD inline const KindTables& kind_tables() {
  // static: one table in read-only memory, not one built on each GPU thread's stack per call.
  static constexpr KindTables tables = make_kind_tables();
  return tables;
}

}  // namespace detail

// The cell-local vertex at corner `corner` of face `face` of a kind of `corners` vertices, or -1
// past a triangle's third corner.
SPMESH_HD inline int face_corner(index_t corners, int face, int corner) {
  return detail::kind_tables().faces[detail::kind_index(corners)][face][corner];
}

// End `end` (0 or 1, the lower first) of edge `edge` of a kind of `corners` vertices, as a
// cell-local vertex: a fixed numbering of each kind's edges.
SPMESH_HD inline int cell_edge(index_t corners, int edge, int end) {
  return detail::kind_tables().edges[detail::kind_index(corners)][edge][end];
}

// The number of the edge joining cell-local vertices u and w of a kind (cell_edge), or -1.
SPMESH_HD inline int cell_edge_between(index_t corners, int u, int w) {
  return detail::kind_tables().edge_between[detail::kind_index(corners)][u][w];
}

// One cell's shape: a kind's tables, or a polyhedron's face stream (CellMesh::face_streams).
struct CellShape {
  index_t corners = 0;
  const index_t* stream = nullptr;  // a polyhedron's faces, null for a kind
  index_t stream_size = 0;

  SPMESH_HD bool polyhedron() const { return stream != nullptr; }
  SPMESH_HD int faces() const {
    if (!stream) return cell_faces(corners);
    int count = 0;
    for (index_t at = 0; at < stream_size; at += stream[at] + 1) ++count;
    return count;
  }
  // Where face `face`'s corner count is in the stream.
  SPMESH_HD index_t face_start(int face) const {
    index_t at = 0;
    for (int k = 0; k < face; ++k) at += stream[at] + 1;
    return at;
  }
  SPMESH_HD int face_size(int face) const {
    return stream ? int(stream[face_start(face)]) : face_corner(corners, face, 3) < 0 ? 3 : 4;
  }
  // The cell-local vertex at corner `corner` of face `face` (corner < face_size(face)).
  SPMESH_HD int corner(int face, int corner) const {
    return stream ? int(stream[face_start(face) + 1 + corner]) : face_corner(corners, face, corner);
  }
  // Three edges at each corner, each met twice.
  SPMESH_HD int edges() const { return 3 * int(corners) / 2; }
  // The number of the edge joining cell-local vertices u and w, in [0, edges()): a kind's
  // cell_edge numbering; a polyhedron's edges in the order its faces walk them from the lower
  // corner to the higher (once each: the other face walks the edge the other way).
  SPMESH_HD int edge_between(int u, int w) const {
    if (!stream) return cell_edge_between(corners, u, w);
    const int low = u < w ? u : w, high = u < w ? w : u;
    int number = 0;
    for (index_t at = 0; at < stream_size; at += stream[at] + 1) {
      const index_t n = stream[at];
      for (index_t k = 0; k < n; ++k) {
        const index_t from = stream[at + 1 + k], to = stream[at + 1 + (k + 1) % n];
        if (from >= to) continue;
        if (from == low && to == high) return number;
        ++number;
      }
    }
    return -1;
  }
};

// The frame at `corner` of a cell: a kind's from the tables, a polyhedron's found in its faces.
SPMESH_HD inline CornerFrame corner_frame(const CellShape& shape, int corner) {
  if (!shape.polyhedron()) return detail::kind_tables().frames[detail::kind_index(shape.corners)][corner];
  return detail::find_corner_frame(shape, corner);
}

// A kind's frame.
SPMESH_HD inline CornerFrame corner_frame(index_t corners, int corner) { return corner_frame(CellShape{corners}, corner); }

// Cells as kernels read them.
struct CellsView {
  const index_t *offsets, *indices;
  const index_t *face_offsets, *face_streams;  // null without polyhedra

  SPMESH_HD index_t begin(index_t c) const { return offsets[c]; }
  SPMESH_HD index_t corners(index_t c) const { return offsets[c + 1] - offsets[c]; }
  SPMESH_HD index_t vertex(index_t c, int corner) const { return indices[offsets[c] + corner]; }
  SPMESH_HD CellShape shape(index_t c) const {
    if (face_offsets && face_offsets[c + 1] > face_offsets[c])
      return {corners(c), face_streams + face_offsets[c], face_offsets[c + 1] - face_offsets[c]};
    return {corners(c)};
  }
};

template <class S>
CellsView CellMesh<S>::view() const {
  return {offsets.data(), indices.data(), has_polyhedra() ? face_offsets.data() : nullptr,
          has_polyhedra() ? face_streams.data() : nullptr};
}

// For messages: "a hexahedron", "a pyramid" (5 vertices), "a cell of 7 vertices", "a
// polyhedron of 7 faces".
inline std::string describe_cell(index_t corners) {
  switch (corners) {
    case 4: return "a tetrahedron";
    case 5: return "a pyramid";
    case 6: return "a prism";
    case 8: return "a hexahedron";
    default: return "a cell of " + std::to_string(corners) + " vertices";
  }
}
inline std::string describe_cell(const CellShape& shape) {
  return shape.polyhedron() ? "a polyhedron of " + std::to_string(shape.faces()) + " faces" : describe_cell(shape.corners);
}

}  // namespace spmesh::solids
