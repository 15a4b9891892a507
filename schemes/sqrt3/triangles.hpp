// sqrt(3) on half-edge levels (half_edges/level.hpp; paper section 4.1): every level is all
// triangles, so its mesh matrix is the reduced one (three vertex indices per face, no offsets,
// no values), and a child level's half-edges follow from its parent's by fixed local rules
// (triangle_build.hpp). sqrt(3) has no edge points and no crease rules, so a level keeps only
// twins and outgoing half-edges: no edge numbering, no crease matrix.
#pragma once

#include "linalg/mesh_matrix.hpp"
#include "schemes/half_edges/level.hpp"

#include <cstdint>

namespace spmesh::schemes::sqrt3 {

// A sqrt(3) level on half-edges: h = 3 f + a runs from corner a of face f to corner a + 1.
// Child vertex and face order are the general Level's: the smoothed vertices [0, V), then the
// new points face by face; child face 3 f + c is the child at corner c of face f.
template <class S>
struct TriangleLevel {
  index_t vertices = 0, faces = 0, edges = 0, new_points = 0;
  index_t boundary_edges = 0;  // half-edges without a twin
  bool splits_boundary = false;
  linalg::ReducedMeshMatrix<S> M;  // order 3
  linalg::Array<index_t, S> twin;  // per half-edge: the opposite one, -1 on the boundary
  linalg::Array<index_t, S> vertex_edge;  // per vertex: an outgoing half-edge, the one without
                                          // a twin on the boundary; -1 for an unused vertex
  linalg::Array<index_t, S> unused;       // vertices in no face (kept where they are)
  linalg::Array<std::uint8_t, S> starts;  // VertexStarts (half_edges/first_level.hpp)
  // On a level that splits the boundary: each face's first new point, and the corner whose edge
  // it cuts in three (-1: none; the face's boundary edge, at most one). Empty on other levels,
  // where face f's one new point is V + f.
  linalg::Array<index_t, S> first_point;
  linalg::Array<std::int8_t, S> split_corner;

  index_t child_vertices() const { return vertices + new_points; }
  index_t child_faces() const { return 3 * faces; }
};

template <class S>
TriangleView view(const TriangleLevel<S>& L) {
  return {{}, L.M.indices.data(), L.twin.data(), nullptr, L.vertex_edge.data(),
          L.vertices, L.faces, 0};
}

// Where each face's new points are: its centroid's row, or on a face that splits its boundary
// edge, the rows of its two points p_l (near the edge's start) and p_r = p_l + 1.
struct NewPointRows {
  const index_t* first;        // null: V + f
  const std::int8_t* split;    // null: no face splits
  index_t vertices;

  SPMESH_HD index_t first_of(index_t f) const {
    return first ? linalg::ldg(first + f) : vertices + f;
  }
  SPMESH_HD int split_of(index_t f) const { return split ? split[f] : -1; }
  // The new point of face f beside its half-edge h = 3 f + c: p_r beside the edge after the
  // split one, else the first.
  SPMESH_HD index_t beside(index_t h) const {
    const index_t f = h / 3, b = split_of(f);
    return first_of(f) + (b >= 0 && h - 3 * f == (b + 1) % 3 ? 1 : 0);
  }
};

template <class S>
NewPointRows new_point_rows(const TriangleLevel<S>& L) {
  return {L.first_point.size() ? L.first_point.data() : nullptr,
          L.split_corner.size() ? L.split_corner.data() : nullptr, L.vertices};
}

// Child face h of a level (the child at parent half-edge h = 3 f + c), from the parent's view
// t and new points: (v_c, A_c, S_c), A_c the new point across edge c (v_(c+1) where the edge is
// a boundary edge left whole), S_c f's new point beside edge c; on a face that cuts edge c, the
// middle (p_l, p_r, v_(c+2)).
struct Triangle {
  index_t v[3];
};
SPMESH_HD inline Triangle child_triangle(const TriangleView& t, const NewPointRows& points,
                                         index_t h) {
  const index_t f = h / 3, x = points.first_of(f);
  if (points.split_of(f) == h - 3 * f) return {{x, x + 1, linalg::ldg(t.corners + t.prev(h))}};
  const index_t g = linalg::ldg(t.twin + h);
  return {{linalg::ldg(t.corners + h),
           g >= 0 ? points.beside(g) : linalg::ldg(t.corners + t.next(h)), points.beside(h)}};
}

}  // namespace spmesh::schemes::sqrt3
