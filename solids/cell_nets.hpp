// The control nets of the cells whose limit spmesh evaluates in constant time (seed 000, section
// 3), with no sharpness at their corners or on the corners' edges but the sharp rims below:
//   tricubic, inside:    a hexahedron whose eight corners each have the grid's star: 6 edges
//                        inside the volume, each in 4 quads, and round the corner only hexahedra;
//   tricubic, boundary:  a hexahedron with faces on the boundary, whose corners each have the
//                        star of the cell's boundary faces there: none, the grid's; one, the
//                        boundary grid's (5 edges: 4 on the boundary, each in 3 quads, and one
//                        inside in 4; 4 hexahedra round it); two, a sharp rim's (4 edges on the
//                        boundary: 2 in 2 quads, infinitely sharp, the rim, and 2 in 3 quads;
//                        2 hexahedra round it; the vertex itself not tagged); three, a sharp
//                        corner's (3 edges in 2 quads each, all infinitely sharp; one hexahedron).
//                        So one face on the boundary, or two or three at a box's sharp edges and
//                        corners, or two across from each other in a slab one cell thick;
//   rim:                 a hexahedron with two faces on the boundary that meet at a smooth rim
//                        (a boundary edge of two faces, not sharp), whose two corners there have
//                        a smooth rim's star (4 edges: the rim's two, in 2 faces each, and 2 on
//                        the boundary in 3 quads; 2 hexahedra round it) and the others the star
//                        of the cell's boundary faces there (the grid's, the boundary grid's);
//   layered:             a hexahedron with one extraordinary edge, of n faces (3 to
//                        catmull_clark::max_stam_valence), both of whose ends are inside on one
//                        extraordinary edge line (docs/rules.md: the line's two edges of n faces
//                        sharing no face, the vertex's n other edges of 4, only quads and
//                        hexahedra round it), and whose six other corners have the grid's star.
// Catmull-Clark solids refine a tricubic cell's block as the tricubic B-spline does (the
// children's nets are the corners' vertex points, their edges' edge points, face and cell points,
// all from the block by the grid's rules, and the children's corners have the same stars again),
// so the cell's limit is the B-spline of its 4 x 4 x 4 net at any depth. At the boundary the rules
// are Catmull-Clark's surface rules along it and, across the layers, the cubic B-spline's with an
// interpolated end, which is the B-spline whose layer beyond the boundary is the reflection
// 2 P_1 - P_2 of the two layers inside (docs/rules.md); along a sharp rim the crease rule is the
// cubic B-spline's along the rim and keeps the rim across both faces, a sharp corner stays, so
// there the ends are interpolated across each boundary face, and the net is reflected across each
// (a point beyond two faces, or three, reflected across each in turn: the tensor product). Round
// a layered cell every rule that its children read is a product of Catmull-Clark's on the
// cross-section and the cubic B-spline's along the line: the tensor-product vertex rule on the
// line, and the edge, face and cell rules wherever edges have 4 faces, and the line edges' rule;
// so its limit is the product of Stam's surface basis at valence n and the cubic B-spline across
// 4 layers of the cross-section's 2n + 8 points (seed 000, section 3.2). Round a rim cell the rules
// are the same product, of the cross-section's (a quad's corner on a smooth boundary: the
// boundary rules are Catmull-Clark's surface rules, on the boundary surface regular at the rim,
// whose cross-section is the boundary curve's cubic B-spline round the corner) and the cubic
// B-spline's along the rim, so its limit is the smooth corner's (catmull_clark/smooth_corner.hpp)
// times the cubic B-spline across 4 layers of the cross-section's 3 x 3 points.
//
// A tricubic net: point (i, j, k), i, j, k in 0..3, at entry i + 4 j + 16 k; the cell's corner of
// VTK coordinates (a, b, c) (cells.hpp; u along corner 0 to 1, v 0 to 3, w 0 to 4) is point
// (1 + a, 1 + b, 1 + c). A point beyond the cell is reached from its nearest corner along the
// edges that continue the cell's edges there (the corner's edge that shares no face with the
// cell's edge along that axis): one step along one, the quad's far corner across two, the
// hexahedron's far corner through three. A boundary cell's layer beyond each boundary face is -1.
//
// A layered net: the line runs along the cell's axis L, at its corner of coordinates (s_side,
// t_side) along the other two axes, P and Q (the lower first). The cross-section is the quad with
// the line at its corner 0, s along P away from the line and t along Q; layer l (0 to 3) is the
// cross-section at coordinate l - 1 along L (layer 1 the cell's face at 0, layer 2 at 1), its K =
// 2n + 8 points at entries l K + j, j in catmull_clark::stam_ring's order: the line's vertex, the
// other end of its i-th edge and the far corner of its i-th quad from the cell (edge 0 along s,
// edge 1 along t) round the line, then the 7 points beyond the quad's other three corners.
//
// A rim net: the rim runs along axis L (the frame as a layered net's, the rim for the line); layer
// l as above, its 9 points at entries 9 l + i + 3 j, (i, j) the cross-section's grid place from the
// rim, i along s and j along t (smooth_corner.hpp's ring).
#pragma once

#include "schemes/catmull_clark/smooth_corner.hpp"
#include "schemes/catmull_clark/stam.hpp"
#include "schemes/creasing.hpp"
#include "solids/cells.hpp"
#include "solids/sharpness.hpp"
#include "solids/topology.hpp"

#include <cstdint>

namespace spmesh::solids {

inline constexpr int tricubic_net_points = 64;

// A cell's kind of net: none; tricubic, tricubic_net(folds) with `folds` the cell's faces on the
// boundary, bit 2 a + s for the face across axis a (0 u, 1 v, 2 w) at its coordinate s (0 or 1)
// (inside_net: none); layered, layered_net(L, s_side, t_side) (above); irregular, its
// extraordinary corner l: irregular_net(l) (irregular_cells.hpp); rim, rim_net(L, s_side, t_side).
inline constexpr std::uint8_t no_net = 0;
SPMESH_HD constexpr std::uint8_t tricubic_net(int folds) { return std::uint8_t(1 + folds); }
inline constexpr std::uint8_t inside_net = tricubic_net(0);
inline constexpr std::uint8_t first_layered_net = tricubic_net(64), first_rim_net = first_layered_net + 12,
                              first_irregular_net = first_rim_net + 12;
SPMESH_HD constexpr std::uint8_t layered_net(int axis, int s_side, int t_side) {
  return std::uint8_t(first_layered_net + 4 * axis + 2 * s_side + t_side);
}
SPMESH_HD constexpr std::uint8_t rim_net(int axis, int s_side, int t_side) {
  return std::uint8_t(first_rim_net + 4 * axis + 2 * s_side + t_side);
}
SPMESH_HD constexpr std::uint8_t irregular_net(int corner) { return std::uint8_t(first_irregular_net + corner); }
// A net of 4 x 4 x 4 points whose limit is the tricubic B-spline, and its faces on the boundary.
SPMESH_HD constexpr bool is_tricubic_net(std::uint8_t kind) { return kind >= 1 && kind < first_layered_net; }
SPMESH_HD constexpr int tricubic_folds(std::uint8_t kind) { return kind - 1; }
// A tricubic net with one face on the boundary or more.
SPMESH_HD constexpr bool is_boundary_net(std::uint8_t kind) { return is_tricubic_net(kind) && kind != inside_net; }
// ... with two faces or more: at a sharp rim or corner, or across a slab.
SPMESH_HD constexpr bool is_folded_net(std::uint8_t kind) {
  return is_boundary_net(kind) && (tricubic_folds(kind) & (tricubic_folds(kind) - 1)) != 0;
}
SPMESH_HD constexpr bool is_layered_net(std::uint8_t kind) { return kind >= first_layered_net && kind < first_rim_net; }
SPMESH_HD constexpr bool is_rim_net(std::uint8_t kind) { return kind >= first_rim_net && kind < first_irregular_net; }
// A net of 4 layers along a line (layered or rim), each the same cross-section's points.
SPMESH_HD constexpr bool is_line_net(std::uint8_t kind) { return is_layered_net(kind) || is_rim_net(kind); }
inline constexpr index_t rim_net_entries = 4 * schemes::catmull_clark::smooth_corner_ring;
SPMESH_HD constexpr bool is_irregular_net(std::uint8_t kind) { return kind >= first_irregular_net; }
// The points a tricubic net has (beyond a boundary face it has none): 64 less a layer of 16 a face.
SPMESH_HD constexpr index_t tricubic_net_entries(std::uint8_t kind) {
  index_t entries = 1;
  for (int axis = 0; axis < 3; ++axis) entries *= 4 - (tricubic_folds(kind) >> 2 * axis & 1) - (tricubic_folds(kind) >> (2 * axis + 1) & 1);
  return entries;
}
// A layered or rim net's frame: the line's axis L, the cross-section's axes P < Q, and the line's
// corner's coordinates along them.
struct LayeredFrame {
  int line, s_axis, t_axis, s_side, t_side;
  SPMESH_HD explicit LayeredFrame(std::uint8_t kind)
      : line(code(kind) / 4), s_axis(line == 0 ? 1 : 0), t_axis(line == 2 ? 1 : 2), s_side(code(kind) >> 1 & 1),
        t_side(code(kind) & 1) {}
  SPMESH_HD static int code(std::uint8_t kind) { return kind - (is_rim_net(kind) ? first_rim_net : first_layered_net); }
};
// A layered net's points a layer (K = 2n + 8) from its entries (4 K).
SPMESH_HD constexpr int layered_valence(index_t entries) { return int(entries / 4 - 8) / 2; }

namespace detail {

// The hexahedron corner (VTK's order) at coordinates (a, b, c), each 0 or 1, and back.
SPMESH_HD inline int hexahedron_corner(int a, int b, int c) { return 4 * c + (b ? 3 - a : a); }
SPMESH_HD inline int hexahedron_coordinate(int corner, int axis) {
  const int in_quad = corner & 3;
  return axis == 0 ? (in_quad == 1 || in_quad == 2) : axis == 1 ? in_quad >= 2 : corner >> 2;
}
// The corner across from `corner` along `axis`.
SPMESH_HD inline int flipped(int corner, int axis) {
  int at[3];
  for (int a = 0; a < 3; ++a) at[a] = hexahedron_coordinate(corner, a) ^ (a == axis);
  return hexahedron_corner(at[0], at[1], at[2]);
}
// The one axis along which two corners differ, or -1.
SPMESH_HD inline int axis_between(int a, int b) {
  int axis = -1, differ = 0;
  for (int x = 0; x < 3; ++x)
    if (hexahedron_coordinate(a, x) != hexahedron_coordinate(b, x)) axis = x, ++differ;
  return differ == 1 ? axis : -1;
}

// A net's walk over the topology: a cell's kind and size, then its points.
struct NetWalk {
  CellsView cells;
  linalg::TernaryView d1, d2, d3, t1, t2, t3;
  const char *face_on_boundary, *edge_on_boundary, *vertex_on_boundary;
  const float *edge_sharpness, *vertex_sharpness;  // null: none

  SPMESH_HD index_t other_end(index_t e, index_t v) const {
    const index_t low = linalg::column_of(d1.columns[2 * e]), high = d1.columns[2 * e + 1];
    return low == v ? high : low;
  }
  SPMESH_HD bool is_hexahedron(index_t c) const { return cells.corners(c) == 8 && !cells.shape(c).polyhedron(); }
  SPMESH_HD bool sharp_edge(index_t e) const { return edge_sharpness && edge_sharpness[e] != 0; }
  SPMESH_HD bool sharp_vertex(index_t v) const { return vertex_sharpness && vertex_sharpness[v] != 0; }
  SPMESH_HD index_t faces_at(index_t e) const { return t2.end(e) - t2.begin(e); }
  // Whether every face at edge e is a quad in hexahedra only.
  SPMESH_HD bool quads_in_hexahedra(index_t e) const {
    for (index_t q = t2.begin(e); q < t2.end(e); ++q) {
      const index_t f = t2.index(q);
      if (d2.end(f) - d2.begin(f) != 4) return false;
      for (index_t r = t3.begin(f); r < t3.end(f); ++r)
        if (!is_hexahedron(t3.index(r))) return false;
    }
    return true;
  }
  // A face holding both edges, or -1 (also for an edge -1).
  SPMESH_HD index_t common_face(index_t e, index_t g) const {
    if (e < 0 || g < 0) return -1;
    for (index_t p = t2.begin(e); p < t2.end(e); ++p)
      for (index_t q = t2.begin(g); q < t2.end(g); ++q)
        if (t2.index(p) == t2.index(q)) return t2.index(p);
    return -1;
  }
  SPMESH_HD bool infinitely_sharp(index_t e) const {
    return edge_sharpness && edge_sharpness[e] >= schemes::creasing::infinite;
  }
  // Vertex v's star (above), as 1 + the boundary faces its cells have there: 1 the grid's, 2 the
  // boundary grid's, 3 a sharp rim's, 4 a sharp corner's; 5 a smooth rim's; 0 none of these.
  SPMESH_HD int star(index_t v) const {
    const index_t edges = t1.end(v) - t1.begin(v);
    if (!vertex_on_boundary[v]) {
      if (edges != 6 || sharp_vertex(v)) return 0;
      for (index_t p = t1.begin(v); p < t1.end(v); ++p) {
        const index_t e = t1.index(p);
        if (faces_at(e) != 4 || sharp_edge(e) || !quads_in_hexahedra(e)) return 0;
      }
      return 1;
    }
    // On the boundary: its edges of 3 quads (smooth: on the boundary, or one inside of 4), of 2
    // (the rims, infinitely sharp or smooth) and inside (4 quads, smooth).
    int in_three = 0, rims = 0, smooth_rims = 0, inside = 0;
    index_t rim[2] = {-1, -1};
    for (index_t p = t1.begin(v); p < t1.end(v); ++p) {
      const index_t e = t1.index(p);
      if (!quads_in_hexahedra(e)) return 0;
      const index_t faces = faces_at(e);
      if (faces == 2 && edge_on_boundary[e] && infinitely_sharp(e)) ++rims;
      else if (sharp_edge(e)) return 0;
      else if (faces == 2 && edge_on_boundary[e] && smooth_rims < 2) rim[smooth_rims++] = e;
      else if (faces == 2 && edge_on_boundary[e]) return 0;  // a third rim
      else if (faces == 3 && edge_on_boundary[e]) ++in_three;
      else if (faces == 4 && !edge_on_boundary[e]) ++inside;
      else return 0;
    }
    if (edges == 5 && in_three == 4 && inside == 1 && !sharp_vertex(v)) return 2;
    if (edges == 4 && in_three == 2 && rims == 2 && !sharp_vertex(v)) return 3;
    if (edges == 4 && in_three == 2 && smooth_rims == 2 && !sharp_vertex(v) && common_face(rim[0], rim[1]) < 0)
      return 5;
    return edges == 3 && rims == 3 ? 4 : 0;  // three sharp edges: a corner, tagged or not
  }
  // n when v is inside on one extraordinary edge line of valence n (3 to max_stam_valence; above),
  // else 0.
  SPMESH_HD int line_star(index_t v) const {
    if (vertex_on_boundary[v] || sharp_vertex(v)) return 0;
    index_t line[2] = {-1, -1};
    int lines = 0;
    index_t n = 0;
    for (index_t p = t1.begin(v); p < t1.end(v); ++p) {
      const index_t e = t1.index(p);
      if (sharp_edge(e) || !quads_in_hexahedra(e)) return 0;
      if (faces_at(e) == 4) continue;
      if (lines == 2 || (n != 0 && faces_at(e) != n)) return 0;
      n = faces_at(e), line[lines++] = e;
    }
    if (lines != 2 || n < 3 || n > schemes::catmull_clark::max_stam_valence) return 0;
    if (t1.end(v) - t1.begin(v) != n + 2 || common_face(line[0], line[1]) >= 0) return 0;
    return int(n);
  }

  // Cell c's faces on the boundary as tricubic_net's folds, or -1 where one is not a side of the
  // hexahedron (cells.hpp's corner order).
  SPMESH_HD int boundary_folds(index_t c) const {
    int folds = 0;
    for (index_t p = d3.begin(c); p < d3.end(c); ++p) {
      const index_t f = d3.index(p);
      if (!face_on_boundary[f]) continue;
      int side_of = -1;
      for (int bit = 0; bit < 6 && side_of < 0; ++bit) {
        bool all = true;
        for (int corner = 0; corner < 8; ++corner)
          if (hexahedron_coordinate(corner, bit / 2) == bit % 2) all = all && face_has(f, cells.vertex(c, corner));
        if (all) side_of = bit;
      }
      if (side_of < 0) return -1;
      folds |= 1 << side_of;
    }
    return folds;
  }
  // The faces among `folds` at `corner`.
  SPMESH_HD static int folds_at(int folds, int corner) {
    int at = 0;
    for (int axis = 0; axis < 3; ++axis) at += folds >> (2 * axis + hexahedron_coordinate(corner, axis)) & 1;
    return at;
  }

  // Cell c's kind and its net's entries (0 for none), from its faces on the boundary and its
  // corners' stars.
  SPMESH_HD std::uint8_t kind(index_t c, index_t& entries) const {
    entries = 0;
    if (!is_hexahedron(c)) return no_net;
    const int folds = boundary_folds(c);
    if (folds < 0) return no_net;
    // Tricubic: each corner the star of the cell's boundary faces there (and at a rim, the cell's
    // edge between its two faces one of the rim's). Layered: no face on the boundary, two corners
    // on one line of valence n, joined by an edge of the cell of n faces, the others the grid's.
    // Rim: two faces on the boundary, the two corners at both a smooth rim's star, joined by the
    // cell's edge between the faces; the others as for tricubic.
    int lines = 0, line_corner[2] = {0, 0}, valence = 0, rims = 0, rim_corner[2] = {0, 0};
    for (int corner = 0; corner < 8; ++corner) {
      const index_t v = cells.vertex(c, corner);
      const int kind = star(v), faces = folds_at(folds, corner);
      if (kind == 0 && folds == 0) {
        const int n = line_star(v);
        if (n == 0 || lines == 2 || (valence != 0 && n != valence)) return no_net;
        valence = n, line_corner[lines++] = corner;
      } else if (kind == 5 && faces == 2) {
        if (rims == 2) return no_net;
        rim_corner[rims++] = corner;
      } else if (kind != 1 + faces) {
        return no_net;
      } else if (faces == 2) {
        int along = 0;  // the axis across neither face
        for (int axis = 0; axis < 3; ++axis)
          if (!(folds >> (2 * axis + hexahedron_coordinate(corner, axis)) & 1)) along = axis;
        if (faces_at(edge_between(v, cells.vertex(c, flipped(corner, along)))) != 2) return no_net;
      }
    }
    if (rims != 0) {
      // Two faces, across the cross-section's two axes at the rim's corner: the rim along the third.
      const int line = axis_between(rim_corner[0], rim_corner[1]);
      if (rims != 2 || line < 0) return no_net;
      const LayeredFrame frame(rim_net(line, 0, 0));
      const int s_side = hexahedron_coordinate(rim_corner[0], frame.s_axis),
                t_side = hexahedron_coordinate(rim_corner[0], frame.t_axis);
      if (folds != (1 << (2 * frame.s_axis + s_side) | 1 << (2 * frame.t_axis + t_side))) return no_net;
      entries = rim_net_entries;
      return rim_net(line, s_side, t_side);
    }
    if (lines != 0) {
      const int line = axis_between(line_corner[0], line_corner[1]);
      if (lines != 2 || line < 0) return no_net;
      const index_t joined = edge_between(cells.vertex(c, line_corner[0]), cells.vertex(c, line_corner[1]));
      if (joined < 0 || faces_at(joined) != valence) return no_net;
      const LayeredFrame frame(layered_net(line, 0, 0));
      entries = 4 * schemes::catmull_clark::stam_ring_size(valence);
      return layered_net(line, hexahedron_coordinate(line_corner[0], frame.s_axis),
                         hexahedron_coordinate(line_corner[0], frame.t_axis));
    }
    entries = tricubic_net_points;
    return tricubic_net(folds);
  }

  // The points of the octant beyond cell c's corner `corner` (its corner's edges continued):
  // write(i, j, k, point) at its tricubic net place (i, j, k); beyond a boundary face among
  // `folds` (tricubic_net's), -1. False where the walk finds no grid.
  template <class Write>
  SPMESH_HD bool octant(index_t c, int corner, int folds, Write&& write) const {
    const index_t v = cells.vertex(c, corner);
    int at[3];
    index_t outward[3] = {-1, -1, -1};  // the edges continuing the cell's edges at v, per axis
    for (int axis = 0; axis < 3; ++axis) at[axis] = hexahedron_coordinate(corner, axis);
    for (int axis = 0; axis < 3; ++axis) {
      const index_t along = edge_between(v, cells.vertex(c, flipped(corner, axis)));
      for (index_t p = t1.begin(v); p < t1.end(v); ++p) {
        const index_t e = t1.index(p);
        if (e != along && common_face(e, along) < 0) outward[axis] = e;
      }
    }
    // Axes in `beyond` stepped outward; beyond the boundary face none.
    for (int beyond = 0; beyond < 8; ++beyond) {
      index_t point = v;
      const int count = (beyond & 1) + (beyond >> 1 & 1) + (beyond >> 2);
      bool past_boundary = false;
      for (int axis = 0; axis < 3; ++axis)
        past_boundary = past_boundary || ((beyond >> axis & 1) && (folds >> (2 * axis + at[axis]) & 1));
      if (past_boundary) {
        point = -1;
      } else if (count == 1) {
        const index_t e = outward[beyond == 1 ? 0 : beyond == 2 ? 1 : 2];
        point = e < 0 ? -1 : other_end(e, v);
      } else if (count == 2) {
        const int first = beyond & 1 ? 0 : 1, second = beyond & 4 ? 2 : 1;
        point = quad_far_corner(common_face(outward[first], outward[second]), v);
      } else if (count == 3) {
        point = hexahedron_far_corner(common_face(outward[0], outward[1]), common_face(outward[0], outward[2]), v);
      }
      if (point < 0 && !past_boundary) return false;
      int ijk[3];
      for (int axis = 0; axis < 3; ++axis) {
        const bool out = beyond >> axis & 1;
        ijk[axis] = at[axis] ? (out ? 3 : 2) : (out ? 0 : 1);
      }
      write(ijk, point);
    }
    return true;
  }

  // Cell c's net of kind `kind` (entries set to -1 before); false where the walk finds no grid.
  SPMESH_HD bool fill(index_t c, std::uint8_t kind, index_t entries, index_t* net) const {
    if (is_tricubic_net(kind)) {
      for (int corner = 0; corner < 8; ++corner)
        if (!octant(c, corner, tricubic_folds(kind), [&](const int (&ijk)[3], index_t point) {
              net[ijk[0] + 4 * ijk[1] + 16 * ijk[2]] = point;
            }))
          return false;
      return true;
    }
    const LayeredFrame frame(kind);
    if (is_rim_net(kind)) {
      // The tricubic places (x, y, z) inside the two boundary faces: layer z along the rim, (x - 1,
      // y - 1) from the rim across it (turned where the rim is at the far side).
      const int folds = 1 << (2 * frame.s_axis + frame.s_side) | 1 << (2 * frame.t_axis + frame.t_side);
      for (int corner = 0; corner < 8; ++corner)
        if (!octant(c, corner, folds, [&](const int (&ijk)[3], index_t point) {
              const int i = frame.s_side ? 2 - ijk[frame.s_axis] : ijk[frame.s_axis] - 1;
              const int j = frame.t_side ? 2 - ijk[frame.t_axis] : ijk[frame.t_axis] - 1;
              if (i >= 0 && j >= 0) net[9 * ijk[frame.line] + i + 3 * j] = point;
            }))
          return false;
      for (index_t p = 0; p < entries; ++p)
        if (net[p] < 0) return false;
      return true;
    }
    const int K = int(entries / 4), n = (K - 8) / 2;
    // The 7 beyond the cross-section's other corners, from the six grid corners' octants: (s, t)
    // places in the cross-section's 4 x 4 grid (the line at (1, 1)) in stam_ring's order.
    constexpr signed char beyond_s[7] = {3, 3, 3, 2, 1, 3, 0}, beyond_t[7] = {1, 2, 0, 3, 3, 3, 3};
    for (int corner = 0; corner < 8; ++corner) {
      if (hexahedron_coordinate(corner, frame.s_axis) == frame.s_side &&
          hexahedron_coordinate(corner, frame.t_axis) == frame.t_side)
        continue;  // on the line
      if (!octant(c, corner, 0, [&](const int (&ijk)[3], index_t point) {
            const int s = frame.s_side ? 3 - ijk[frame.s_axis] : ijk[frame.s_axis];
            const int t = frame.t_side ? 3 - ijk[frame.t_axis] : ijk[frame.t_axis];
            for (int j = 0; j < 7; ++j)
              if (beyond_s[j] == s && beyond_t[j] == t) net[ijk[frame.line] * K + 2 * n + 1 + j] = point;
          }))
        return false;
    }
    // Round the line: the n cells at the line's edge in the cell, from the cell towards its t
    // side. In each, the line's vertex at corner a (layer 1), the previous edge's end across axis
    // x from it, the next one's across y, the line along l.
    int at[3];
    at[frame.line] = 0, at[frame.s_axis] = frame.s_side, at[frame.t_axis] = frame.t_side;
    const int first = hexahedron_corner(at[0], at[1], at[2]);
    const index_t v1 = cells.vertex(c, first), v2 = cells.vertex(c, flipped(first, frame.line));
    index_t cell = c;
    int a = first, x = frame.s_axis, y = frame.t_axis, l = frame.line;
    for (int i = 0; i < n; ++i) {
      const int across_x = flipped(a, x), across_y = flipped(a, y), far = flipped(across_x, y);
      for (int layer = 1; layer <= 2; ++layer) {
        const int up = layer == 2;
        index_t* ring = net + layer * K;
        ring[0] = cells.vertex(cell, up ? flipped(a, l) : a);
        ring[1 + 2 * i] = cells.vertex(cell, up ? flipped(across_x, l) : across_x);
        ring[2 + 2 * i] = cells.vertex(cell, up ? flipped(far, l) : far);
        // Layers 0 and 3: through the cell beyond this one's cross-section face.
        const int here[3] = {up ? flipped(a, l) : a, up ? flipped(across_x, l) : across_x,
                             up ? flipped(across_y, l) : across_y};
        if (!layer_beyond(cell, here, i, net + (up ? 3 : 0) * K)) return false;
      }
      // The next cell: across the face holding the line's edge and the next edge.
      const index_t next_edge_end = cells.vertex(cell, across_y);
      const index_t next = other_cell(face_of(cell, v1, v2, next_edge_end), cell);
      if (next < 0) return false;
      a = corner_of(next, v1);
      const int b = corner_of(next, v2), e = corner_of(next, next_edge_end);
      if (a < 0 || b < 0 || e < 0) return false;
      l = axis_between(a, b), x = axis_between(a, e);
      if (l < 0 || x < 0 || l == x) return false;
      y = 3 - l - x, cell = next;
    }
    if (cell != c) return false;
    for (index_t p = 0; p < entries; ++p)
      if (net[p] < 0) return false;
    return true;
  }

  // Ring entries 0, 1 + 2i and 2 + 2i of the layer beyond `cell`'s face through its corners
  // here[0] (the line), here[1] (edge i's end) and here[2] (edge i + 1's end): in the cell across
  // that face, the points one step off it.
  SPMESH_HD bool layer_beyond(index_t cell, const int (&here)[3], int i, index_t* ring) const {
    const index_t line = cells.vertex(cell, here[0]), edge = cells.vertex(cell, here[1]);
    const index_t beyond = other_cell(face_of(cell, line, edge, cells.vertex(cell, here[2])), cell);
    if (beyond < 0) return false;
    const int a = corner_of(beyond, line), e = corner_of(beyond, edge), g = corner_of(beyond, cells.vertex(cell, here[2]));
    if (a < 0 || e < 0 || g < 0) return false;
    const int x = axis_between(a, e), y = axis_between(a, g);
    if (x < 0 || y < 0 || x == y) return false;
    const int off = 3 - x - y;
    ring[0] = cells.vertex(beyond, flipped(a, off));
    ring[1 + 2 * i] = cells.vertex(beyond, flipped(e, off));
    ring[2 + 2 * i] = cells.vertex(beyond, flipped(flipped(e, y), off));
    return true;
  }

  // Cell c's corner at vertex v, or -1.
  SPMESH_HD int corner_of(index_t c, index_t v) const {
    for (int corner = 0; corner < 8; ++corner)
      if (cells.vertex(c, corner) == v) return corner;
    return -1;
  }
  // Whether face f has vertex v.
  SPMESH_HD bool face_has(index_t f, index_t v) const {
    for (index_t p = d2.begin(f); p < d2.end(f); ++p) {
      const index_t e = d2.index(p);
      if (linalg::column_of(d1.columns[2 * e]) == v || d1.columns[2 * e + 1] == v) return true;
    }
    return false;
  }
  // The face of cell c holding vertices a, b and d, or -1.
  SPMESH_HD index_t face_of(index_t c, index_t a, index_t b, index_t d) const {
    for (index_t p = d3.begin(c); p < d3.end(c); ++p) {
      const index_t f = d3.index(p);
      if (face_has(f, a) && face_has(f, b) && face_has(f, d)) return f;
    }
    return -1;
  }
  // The other cell at face f (-1 for f -1 or a face on the boundary).
  SPMESH_HD index_t other_cell(index_t f, index_t c) const {
    if (f < 0 || t3.end(f) - t3.begin(f) != 2) return -1;
    const index_t first = t3.index(t3.begin(f));
    return first == c ? t3.index(t3.begin(f) + 1) : first;
  }
  // The edge joining u and w, among u's (-1 if none).
  SPMESH_HD index_t edge_between(index_t u, index_t w) const {
    for (index_t p = t1.begin(u); p < t1.end(u); ++p)
      if (other_end(t1.index(p), u) == w) return t1.index(p);
    return -1;
  }
  // The corner of quad f opposite v: of the two sides away from v, the end that both share (-1
  // for f -1).
  SPMESH_HD index_t quad_far_corner(index_t f, index_t v) const {
    if (f < 0) return -1;
    index_t away[2][2] = {{-1, -1}, {-1, -1}};
    int found = 0;
    for (index_t p = d2.begin(f); p < d2.end(f) && found < 2; ++p) {
      const index_t e = d2.index(p), low = linalg::column_of(d1.columns[2 * e]), high = d1.columns[2 * e + 1];
      if (low != v && high != v) away[found][0] = low, away[found][1] = high, ++found;
    }
    if (found < 2) return -1;
    return away[0][0] == away[1][0] || away[0][0] == away[1][1] ? away[0][0] : away[0][1];
  }
  // The corner opposite v of the hexahedron that holds faces f and g, or -1.
  SPMESH_HD index_t hexahedron_far_corner(index_t f, index_t g, index_t v) const {
    if (f < 0 || g < 0) return -1;
    for (index_t p = t3.begin(f); p < t3.end(f); ++p)
      for (index_t q = t3.begin(g); q < t3.end(g); ++q) {
        const index_t cell = t3.index(p);
        if (cell != t3.index(q)) continue;
        const int corner = corner_of(cell, v);
        if (corner >= 0) return cells.vertex(cell, flipped(flipped(flipped(corner, 0), 1), 2));
      }
    return -1;
  }
};

}  // namespace detail

// The irregular cells' tables (irregular_cells.hpp): a cell's configuration (its neighbourhood up
// to isomorphism, seen from its extraordinary corner) and, for each configuration, its ring's
// size and, for each of the 7 children away from that corner and each depth k = 0 ..
// irregular_depth, the child's net as rows over the ring (G_r A^k, k-major, then the net's
// entries, then the ring's points).
template <class S = linalg::Host>
struct IrregularTables {
  linalg::Array<index_t, S> configuration;       // a cell each: its configuration, -1 for none
  linalg::Array<index_t, S> ring;                // a configuration each: its ring's points
  linalg::Array<std::uint8_t, S> child_kinds;    // 8 a configuration, by corner (corner 0's unused)
  linalg::Array<index_t, S> child_entries;       // 8 a configuration: the child's net entries
  linalg::Array<std::int64_t, S> child_rows;     // 8 a configuration: where its rows start in `rows`
  linalg::Array<double, S> rows;
  linalg::Array<index_t, S> slot;                // a cell each: its place among the irregular cells, -1 for none
  linalg::Array<index_t, S> cells;               // the irregular cells, ascending
  index_t child_points = 0;                      // the most points a child's net holds, plus 1 (the limit at V)
};

// Every cell's net (above, with the sharpness given where the mesh has sharp features): cell c's
// entries points[offsets[c], offsets[c + 1]) (none without a net), its kind, how many cells have
// one, Stam's tables of the layered cells' valences (schemes/stam_tables.hpp) and the irregular
// cells' tables.
template <class S = linalg::Host>
struct CellNets {
  linalg::Array<index_t, S> offsets, points;
  linalg::Array<std::uint8_t, S> kinds;
  schemes::StamTables<S> stam;
  linalg::Array<double, S> smooth_corner;  // the rim nets' cross-section (none where no net needs it)
  index_t cells = 0, tricubic_cells = 0;  // the cells with a net; those whose net is tricubic
  IrregularTables<S> irregular{};
};

// The nets the walk finds: tricubic inside and at the boundary, layered, rim (cell_nets,
// irregular_cells.hpp, adds the irregular cells').
template <class Exec, class S = typename Exec::space>
CellNets<S> walked_nets(Exec& exec, const CellMesh<S>& mesh, const BoundaryOperators<S>& ops,
                        const SolidSharpness<S>* sharpness = nullptr) {
  namespace cc = schemes::catmull_clark;
  const auto transposed = transposes(exec, ops);
  const auto flags = boundary_flags(exec, ops, transposed);
  const index_t C = ops.cells();
  const detail::NetWalk walk{mesh.view(), ops.d1.view(), ops.d2.view(), ops.d3.view(),
                             transposed.t1.view(), transposed.t2.view(), transposed.t3.view(),
                             flags.faces.data(), flags.edges.data(), flags.vertices.data(),
                             sharpness ? sharpness->edges.data() : nullptr,
                             sharpness ? sharpness->vertices.data() : nullptr};
  CellNets<S> out{linalg::Array<index_t, S>(C + 1), {}, linalg::Array<std::uint8_t, S>(C), {}, {}};
  // Kinds and sizes, the offsets (one wait for their total), the points.
  index_t* offsets = out.offsets.data();
  std::uint8_t* kinds = out.kinds.data();
  linalg::Array<std::int64_t, S> sizes(C), total(1);
  std::int64_t* size = sizes.data();
  exec.for_each(C, [=] SPMESH_HD(index_t c) {
    index_t entries = 0;
    kinds[c] = walk.kind(c, entries);
    size[c] = entries;
  });
  exec.exclusive_scan(size, size, C, total.data());
  const index_t entries = checked_index(exec.read(total.data()), "the cells' limit nets");
  exec.for_each(C + 1, [=] SPMESH_HD(index_t c) { offsets[c] = c < C ? index_t(size[c]) : entries; });
  out.points = linalg::Array<index_t, S>(entries);
  index_t* points = out.points.data();
  exec.for_each(C, [=] SPMESH_HD(index_t c) {
    index_t* net = points + offsets[c];
    const index_t n = offsets[c + 1] - offsets[c];
    for (index_t p = 0; p < n; ++p) net[p] = -1;
    if (kinds[c] != no_net && !walk.fill(c, kinds[c], n, net)) kinds[c] = no_net;  // not walked as a grid (kept safe)
  });
  out.cells = exec.count_if(C, [=] SPMESH_HD(index_t c) { return kinds[c] != no_net; });
  out.tricubic_cells = exec.count_if(C, [=] SPMESH_HD(index_t c) { return is_tricubic_net(kinds[c]); });
  linalg::Array<index_t, S> present(cc::max_stam_valence + 1);
  index_t* valence = present.data();
  exec.for_each(cc::max_stam_valence + 1, [=] SPMESH_HD(index_t n) { valence[n] = 0; });
  exec.for_each(C, [=] SPMESH_HD(index_t c) {
    if (is_layered_net(kinds[c])) linalg::atomic_max(valence + layered_valence(offsets[c + 1] - offsets[c]), index_t(1));
  });
  out.stam = cc::stam_tables(exec, present);
  if (exec.count_if(C, [=] SPMESH_HD(index_t c) { return is_rim_net(kinds[c]); }) > 0)
    out.smooth_corner = schemes::catmull_clark::smooth_corner_tables(exec);
  return out;
}

}  // namespace spmesh::solids
