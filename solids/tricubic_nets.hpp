// The control nets of the cells whose limit is the tricubic B-spline (seed 000, Eq. 1), with no
// sharpness at their corners or on the corners' edges:
//   inside:   a hexahedron whose eight corners each have the grid's star: 6 edges inside the
//             volume, each in 4 quads, and round the corner only hexahedra;
//   boundary: a hexahedron with one face on the boundary, whose four corners there have the
//             boundary grid's star (5 edges: 4 on the boundary, each in 3 quads, and one inside
//             in 4; 4 hexahedra round it), the other four the grid's star.
// Catmull-Clark solids refine such a block as the tricubic B-spline does (the children's nets are
// the corners' vertex points, their edges' edge points, face and cell points, all from the block
// by the grid's rules, and the children's corners have the same stars again), so the cell's limit
// is the B-spline of its 4 x 4 x 4 net at any depth. At the boundary the rules are Catmull-Clark's
// surface rules along it and, across the layers, the cubic B-spline's with an interpolated end,
// which is the B-spline whose layer beyond the boundary is the reflection 2 P_1 - P_2 of the two
// layers inside (docs/rules.md).
//
// A cell's net: point (i, j, k), i, j, k in 0..3, at entry i + 4 j + 16 k; the cell's corner of
// VTK coordinates (a, b, c) (cells.hpp; u along corner 0 to 1, v 0 to 3, w 0 to 4) is point
// (1 + a, 1 + b, 1 + c). A point beyond the cell is reached from its nearest corner along the
// edges that continue the cell's edges there (the corner's edge that shares no face with the
// cell's edge along that axis): one step along one, the quad's far corner across two, the
// hexahedron's far corner through three. A boundary cell's layer beyond its boundary face is -1.
#pragma once

#include "solids/cells.hpp"
#include "solids/sharpness.hpp"
#include "solids/topology.hpp"

#include <cstdint>

namespace spmesh::solids {

inline constexpr int tricubic_net_points = 64;

// A cell's kind of net: none; inside; or at the boundary, its boundary face across axis a (0 u,
// 1 v, 2 w) at coordinate s (0 or 1) of that axis: boundary_net(a, s).
inline constexpr std::uint8_t no_net = 0, inside_net = 1;
SPMESH_HD constexpr std::uint8_t boundary_net(int axis, int side) { return std::uint8_t(2 + 2 * axis + side); }

namespace detail {

// The hexahedron corner (VTK's order) at coordinates (a, b, c), each 0 or 1, and back.
SPMESH_HD inline int hexahedron_corner(int a, int b, int c) { return 4 * c + (b ? 3 - a : a); }
SPMESH_HD inline int hexahedron_coordinate(int corner, int axis) {
  const int in_quad = corner & 3;
  return axis == 0 ? (in_quad == 1 || in_quad == 2) : axis == 1 ? in_quad >= 2 : corner >> 2;
}

// One cell's net and its kind, a thread a cell.
struct TricubicNet {
  CellsView cells;
  linalg::TernaryView d1, d2, d3, t1, t2, t3;
  const char *face_on_boundary, *edge_on_boundary, *vertex_on_boundary;
  const float *edge_sharpness, *vertex_sharpness;  // null: none
  index_t* nets;
  std::uint8_t* kinds;

  SPMESH_HD index_t other_end(index_t e, index_t v) const {
    const index_t low = linalg::column_of(d1.columns[2 * e]), high = d1.columns[2 * e + 1];
    return low == v ? high : low;
  }
  SPMESH_HD bool is_hexahedron(index_t c) const { return cells.corners(c) == 8 && !cells.shape(c).polyhedron(); }
  // A face holding both edges, or -1 (also for an edge -1).
  SPMESH_HD index_t common_face(index_t e, index_t g) const {
    if (e < 0 || g < 0) return -1;
    for (index_t p = t2.begin(e); p < t2.end(e); ++p)
      for (index_t q = t2.begin(g); q < t2.end(g); ++q)
        if (t2.index(p) == t2.index(q)) return t2.index(p);
    return -1;
  }
  // Vertex v's star (above): 1 the grid's, 2 the boundary grid's, 0 neither.
  SPMESH_HD int star(index_t v) const {
    const bool on_boundary = vertex_on_boundary[v];
    if (t1.end(v) - t1.begin(v) != (on_boundary ? 5 : 6)) return 0;
    if (vertex_sharpness && vertex_sharpness[v] != 0) return 0;
    int boundary_edges = 0;
    for (index_t p = t1.begin(v); p < t1.end(v); ++p) {
      const index_t e = t1.index(p);
      boundary_edges += edge_on_boundary[e];
      if (t2.end(e) - t2.begin(e) != (edge_on_boundary[e] ? 3 : 4)) return 0;
      if (edge_sharpness && edge_sharpness[e] != 0) return 0;
      for (index_t q = t2.begin(e); q < t2.end(e); ++q) {
        const index_t f = t2.index(q);
        if (d2.end(f) - d2.begin(f) != 4) return 0;
        for (index_t r = t3.begin(f); r < t3.end(f); ++r)
          if (!is_hexahedron(t3.index(r))) return 0;
      }
    }
    return !on_boundary ? 1 : boundary_edges == 4 ? 2 : 0;
  }

  SPMESH_HD void operator()(index_t c) const {
    index_t* net = nets + std::int64_t(tricubic_net_points) * c;
    kinds[c] = no_net;
    if (!is_hexahedron(c)) return;
    // The corners' stars: all the grid's, or the four of one face the boundary grid's, and that
    // face the cell's one face on the boundary (the others have inner corners).
    int boundary_faces = 0;
    for (index_t p = d3.begin(c); p < d3.end(c); ++p) boundary_faces += face_on_boundary[d3.index(p)];
    int on_boundary = 0, shared[3] = {1, 1, 1}, seen[3] = {0, 0, 0};  // the first boundary corner's coordinates
    for (int corner = 0; corner < 8; ++corner) {
      const int kind = star(cells.vertex(c, corner));
      if (kind == 0) return;
      if (kind == 2) {
        for (int axis = 0; axis < 3; ++axis) {
          const int x = hexahedron_coordinate(corner, axis);
          if (on_boundary == 0) seen[axis] = x;
          else shared[axis] &= x == seen[axis];
        }
        ++on_boundary;
      }
    }
    int normal = -1;  // the axis across the boundary face
    if (on_boundary == 4)
      for (int axis = 0; axis < 3; ++axis)
        if (shared[axis]) normal = axis;
    if ((on_boundary != 0 && normal < 0) || boundary_faces != (normal < 0 ? 0 : 1)) return;
    const int side = normal < 0 ? 0 : seen[normal];
    for (int corner = 0; corner < 8; ++corner) {
      const index_t v = cells.vertex(c, corner);
      int at[3];
      index_t outward[3] = {-1, -1, -1};  // the edges continuing the cell's edges at v, per axis
      for (int axis = 0; axis < 3; ++axis) at[axis] = hexahedron_coordinate(corner, axis);
      for (int axis = 0; axis < 3; ++axis) {
        int to[3] = {at[0], at[1], at[2]};
        to[axis] = 1 - to[axis];
        const index_t along = edge_between(v, cells.vertex(c, hexahedron_corner(to[0], to[1], to[2])));
        for (index_t p = t1.begin(v); p < t1.end(v); ++p) {
          const index_t e = t1.index(p);
          if (e != along && common_face(e, along) < 0) outward[axis] = e;
        }
      }
      // Every point of the octant beyond corner v: axes in `beyond` stepped outward; beyond the
      // boundary face none.
      for (int beyond = 0; beyond < 8; ++beyond) {
        index_t point = v;
        const int count = (beyond & 1) + (beyond >> 1 & 1) + (beyond >> 2);
        const bool past_boundary = normal >= 0 && (beyond >> normal & 1) && at[normal] == side;
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
        if (point < 0 && !past_boundary) return void(kinds[c] = no_net);  // not walked as a grid (kept safe)
        int ijk[3];
        for (int axis = 0; axis < 3; ++axis) {
          const bool out = beyond >> axis & 1;
          ijk[axis] = at[axis] ? (out ? 3 : 2) : (out ? 0 : 1);
        }
        net[ijk[0] + 4 * ijk[1] + 16 * ijk[2]] = point;
      }
    }
    kinds[c] = normal < 0 ? inside_net : boundary_net(normal, side);
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
        for (int corner = 0; corner < 8; ++corner)
          if (cells.vertex(cell, corner) == v)
            return cells.vertex(cell, hexahedron_corner(1 - hexahedron_coordinate(corner, 0),
                                                        1 - hexahedron_coordinate(corner, 1),
                                                        1 - hexahedron_coordinate(corner, 2)));
      }
    return -1;
  }
};

}  // namespace detail

// Every cell's 4 x 4 x 4 net (64 entries a cell, meaningful where its kind is not no_net; above,
// with the sharpness given where the mesh has sharp features), its kind, and how many cells have
// one.
template <class S = linalg::Host>
struct TricubicNets {
  linalg::Array<index_t, S> points;
  linalg::Array<std::uint8_t, S> kinds;
  index_t cells = 0;
};

template <class Exec, class S = typename Exec::space>
TricubicNets<S> tricubic_nets(Exec& exec, const CellMesh<S>& mesh, const BoundaryOperators<S>& ops,
                              const SolidSharpness<S>* sharpness = nullptr) {
  const auto transposed = transposes(exec, ops);
  const auto flags = boundary_flags(exec, ops, transposed);
  const index_t C = ops.cells();
  TricubicNets<S> out{linalg::Array<index_t, S>(
                          checked_index(std::int64_t(tricubic_net_points) * C, "the cells' tricubic nets")),
                      linalg::Array<std::uint8_t, S>(C)};
  exec.for_each(C, detail::TricubicNet{mesh.view(), ops.d1.view(), ops.d2.view(), ops.d3.view(),
                                       transposed.t1.view(), transposed.t2.view(), transposed.t3.view(),
                                       flags.faces.data(), flags.edges.data(),
                                       flags.vertices.data(), sharpness ? sharpness->edges.data() : nullptr,
                                       sharpness ? sharpness->vertices.data() : nullptr, out.points.data(),
                                       out.kinds.data()});
  const std::uint8_t* kinds = out.kinds.data();
  out.cells = exec.count_if(C, [=] SPMESH_HD(index_t c) { return kinds[c] != no_net; });
  return out;
}

}  // namespace spmesh::solids
