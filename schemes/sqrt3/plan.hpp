// What a sqrt(3) build hands to eval (Kobbelt 2000; paper appendix B): per level the triangle
// mesh matrix M, the vertex adjacency E, each vertex's smoothing weights (Eq. 29, 30 and
// Kobbelt's boundary rule) and where each face's new points go; no vertex data.
#pragma once

#include "linalg/formats.hpp"
#include "linalg/mesh_matrix.hpp"
#include "schemes/crease_rules.hpp"
#include "schemes/levels.hpp"

#include <cmath>
#include <cstdint>

namespace spmesh::schemes::sqrt3 {

// One level, from a triangle mesh of `vertices` and `faces` to its child.
//
// Every face gets one new point, its centroid, except on levels that split the boundary
// (every second level, Kobbelt section 4): there a face with a boundary edge gets instead two
// points that cut that edge in three. Child vertex order: the smoothed vertices [0, V), then
// the new points face by face from `first_point[f]`. Child face order: three children per
// face, at its corners 0, 1, 2.
template <class S>
struct Level {
  index_t vertices = 0, faces = 0, new_points = 0;
  bool splits_boundary = false;  // this level cuts boundary edges in three
  linalg::MeshMatrix<S> M;       // the parent triangles
  linalg::Csr<index_t, S> E;     // vertex adjacency, values = faces per edge (1: boundary)
  linalg::Array<index_t, S> first_point;  // the child vertex id of each face's first new point
  // The corner c whose edge v_c v_{c+1} a face cuts in three (-1: the face gets its centroid).
  linalg::Array<index_t, S> split_corner;
  // Vertex points a p_i + b (sum of 1-ring neighbours) + d (p_u + p_w), u and w the boundary
  // neighbours (VertexPoints): inside (1 - alpha_n) p_i + alpha_n / n (sum), Eq. 29, 30; on the
  // boundary p_i, or (19 p_i + 4 (p_u + p_w)) / 27 on a level that splits the boundary.
  linalg::Array<double, S> vertex_self, vertex_ring, vertex_crease;
  linalg::Array<index_t, S> boundary_u, boundary_w;

  index_t child_vertices() const { return vertices + new_points; }
};

template <class S>
using Plan = LevelPlan<Level<S>, S>;

// Sizes of every level before any work, from the base triangle mesh's counts: a level of V
// vertices, F triangles, E edges and B boundary edges gives V + F, 3F, E + 3F and B, and on a
// level that splits the boundary B more vertices and edges and 3B boundary edges.
inline SizeEstimate estimate_size(std::int64_t vertices, std::int64_t faces, std::int64_t edges,
                                  std::int64_t boundary_edges, int levels, int columns,
                                  int scalar_bytes) {
  SizeEstimate s("sqrt3");
  s.levels.push_back({vertices, faces, 3 * faces, edges});
  std::int64_t B = boundary_edges;
  for (int l = 0; l < levels; ++l) {
    const auto c = s.levels.back();
    s.bytes += 24 * c.faces + 32 * c.edges + 40 * c.vertices;  // M, E, H, face and vertex arrays
    const std::int64_t split = l % 2 == 1 ? B : 0;
    s.levels.push_back({c.vertices + c.faces + split, 3 * c.faces, 9 * c.faces,
                        c.edges + 3 * c.faces + split});
    B += 2 * split;
  }
  s.add_eval(columns, scalar_bytes, 2);
  return s;
}

namespace detail {

// Eq. 30: alpha_n = (4 - 2 cos(2 pi / n)) / 9, as a VertexMask of valence n.
SPMESH_HD inline VertexMask smooth_mask(index_t n) {
  const double alpha = (4.0 - 2.0 * cos(2.0 * 3.14159265358979323846 / n)) / 9.0;
  VertexMask m;
  m.self = 1.0 - alpha, m.ring = alpha / n;
  return m;
}

// A new point as a weighted sum of three parent vertices.
struct Stencil {
  index_t v[3];
  double w[3];
};

// The new points of each face: its centroid, or on a boundary-splitting level the two points
// cutting its boundary edge p2 p3 in three (Kobbelt section 4): (p1 + 16 p2 + 10 p3) / 27 and
// (10 p2 + 16 p3 + p4) / 27, p1 and p4 the boundary vertices before p2 and after p3.
struct NewPoints {
  linalg::MeshView M;
  const index_t *split_corner, *boundary_u, *boundary_w;

  SPMESH_HD int count(index_t f) const { return split_corner[f] < 0 ? 1 : 2; }

  SPMESH_HD Stencil operator()(index_t f, int which) const {
    const index_t* v = M.indices + M.begin(f);
    const index_t b = split_corner[f];
    if (b < 0) return {{v[0], v[1], v[2]}, {1.0 / 3, 1.0 / 3, 1.0 / 3}};
    const index_t p2 = v[b], p3 = v[(b + 1) % 3];
    if (which == 0) return {{other_boundary_neighbour(p2, p3), p2, p3}, {1.0 / 27, 16.0 / 27, 10.0 / 27}};
    return {{p2, p3, other_boundary_neighbour(p3, p2)}, {10.0 / 27, 16.0 / 27, 1.0 / 27}};
  }
  SPMESH_HD index_t other_boundary_neighbour(index_t i, index_t not_this) const {
    return boundary_u[i] != not_this ? boundary_u[i] : boundary_w[i];
  }
};

}  // namespace detail

}  // namespace spmesh::schemes::sqrt3
