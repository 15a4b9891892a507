// What a sqrt(3) build hands to eval (Kobbelt 2000; paper appendix A): per level the triangle
// mesh matrix M, the vertex adjacency E, each vertex's smoothing weights (Eq. 29, 30 and
// Kobbelt's boundary rule) and where each face's new points go; no vertex data.
#pragma once

#include "linalg/formats.hpp"
#include "linalg/mesh_matrix.hpp"
#include "schemes/crease_rules.hpp"
#include "schemes/plan.hpp"
#include "schemes/sqrt3/triangles.hpp"

#include <cmath>
#include <cstdint>
#include <variant>

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
  index_t vertices = 0, faces = 0, edges = 0, boundary_edges = 0, new_points = 0;
  bool splits_boundary = false;  // this level cuts boundary edges in three
  linalg::MeshMatrix<S> M;       // the parent triangles
  linalg::Csr<index_t, S> E;     // vertex adjacency, values = faces per edge (1: boundary)
  linalg::Array<index_t, S> first_point;  // the child vertex id of each face's first new point
  // The corner c whose edge v_c v_{c+1} a face cuts in three (-1: the face gets its centroid).
  linalg::Array<std::int8_t, S> split_corner;
  // Vertex points a p_i + b (sum of 1-ring neighbours) + d (p_u + p_w), u and w the boundary
  // neighbours (VertexPoints): inside (1 - alpha_n) p_i + alpha_n / n (sum), Eq. 29, 30; on the
  // boundary p_i, or (19 p_i + 4 (p_u + p_w)) / 27 on a level that splits the boundary.
  linalg::Array<double, S> vertex_self, vertex_ring, vertex_crease;
  linalg::Array<index_t, S> boundary_u, boundary_w;

  index_t child_vertices() const { return vertices + new_points; }
};

template <class S>
NewPointRows new_point_rows(const Level<S>& L) {
  return {L.first_point.data(), L.split_corner.data(), L.vertices};
}

// A plan's levels: the general path's (Level) or half-edge levels (TriangleLevel).
template <class S>
using AnyLevel = std::variant<Level<S>, TriangleLevel<S>>;

namespace detail {

// Eq. 30: alpha_n = (4 - 2 cos(2 pi / n)) / 9, as a VertexMask of valence n.
SPMESH_HD inline VertexMask smooth_mask(index_t n) {
  const double alpha = (4.0 - 2.0 * cos(2.0 * 3.14159265358979323846 / n)) / 9.0;
  VertexMask m;
  m.self = 1.0 - alpha, m.ring = alpha / n;
  return m;
}

// A vertex's mask from its valence n and its boundary neighbours u and w (-1 inside): Eq. 29,
// 30 inside; on the boundary it stays, or takes Kobbelt's (4, 19, 4) / 27 on a level that
// splits the boundary. An isolated vertex (n = 0) stays.
SPMESH_HD inline VertexMask vertex_mask(index_t n, index_t u, index_t w, bool splits_boundary) {
  if (u < 0) return n > 0 ? smooth_mask(n) : VertexMask{};
  VertexMask m;
  m.u = u, m.w = w;
  if (splits_boundary) m.self = 19.0 / 27, m.crease = 4.0 / 27;
  return m;
}

// A new point as a weighted sum of three parent vertices.
struct Stencil {
  index_t v[3];
  double w[3];

  // y = the point, from vertex data P of k columns.
  template <class T>
  SPMESH_HD void apply(const T* P, T* y, index_t k) const {
    const T *a = P + std::int64_t(v[0]) * k, *b = P + std::int64_t(v[1]) * k,
            *c = P + std::int64_t(v[2]) * k;
    const T wa = static_cast<T>(w[0]), wb = static_cast<T>(w[1]), wc = static_cast<T>(w[2]);
    for (index_t j = 0; j < k; ++j) y[j] = wa * a[j] + wb * b[j] + wc * c[j];
  }
};

// Eq. 31: the centroid of a face (v0, v1, v2).
SPMESH_HD inline Stencil centroid(index_t v0, index_t v1, index_t v2) {
  return {{v0, v1, v2}, {1.0 / 3, 1.0 / 3, 1.0 / 3}};
}

// The two points cutting boundary edge p2 p3 in three (Kobbelt section 4), p1 and p4 the
// boundary vertices before p2 and after p3: (p1 + 16 p2 + 10 p3) / 27 (which = 0) and
// (10 p2 + 16 p3 + p4) / 27.
SPMESH_HD inline Stencil boundary_point(index_t p1, index_t p2, index_t p3, index_t p4, int which) {
  if (which == 0) return {{p1, p2, p3}, {1.0 / 27, 16.0 / 27, 10.0 / 27}};
  return {{p2, p3, p4}, {10.0 / 27, 16.0 / 27, 1.0 / 27}};
}

// The new points of each face (a stencil provider: count(f) and the stencil of each), on the
// general path: its centroid, or the two points cutting its split edge.
struct NewPoints {
  linalg::MeshView M;
  NewPointRows rows;
  const index_t *boundary_u, *boundary_w;

  SPMESH_HD int count(index_t f) const { return rows.split_of(f) < 0 ? 1 : 2; }

  SPMESH_HD Stencil operator()(index_t f, int which) const {
    const index_t* v = M.indices + M.begin(f);
    const index_t b = rows.split_of(f);
    if (b < 0) return centroid(v[0], v[1], v[2]);
    const index_t p2 = v[b], p3 = v[(b + 1) % 3];
    return boundary_point(other_boundary_neighbour(p2, p3), p2, p3,
                          other_boundary_neighbour(p3, p2), which);
  }
  SPMESH_HD index_t other_boundary_neighbour(index_t i, index_t not_this) const {
    return boundary_u[i] != not_this ? boundary_u[i] : boundary_w[i];
  }
};

// Writes each face's new points (the stencils of Points: NewPoints, or HalfEdgeNewPoints) into
// their child rows (Points' `rows`).
template <class T, class Points>
struct ApplyNewPoints {
  Points points;
  const T* P;
  T* out;
  index_t k;

  SPMESH_HD void operator()(index_t f) const {
    for (int which = 0; which < points.count(f); ++which)
      points(f, which).apply(P, out + std::int64_t(points.rows.first_of(f) + which) * k, k);
  }
};
}  // namespace detail

}  // namespace spmesh::schemes::sqrt3
