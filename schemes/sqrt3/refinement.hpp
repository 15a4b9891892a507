// The sqrt(3) level matrices: a level's eval as S_l (child x parent vertices), from the same
// weights eval applies.
#pragma once

#include "linalg/convert.hpp"
#include "schemes/sqrt3/plan.hpp"
#include "schemes/sqrt3/triangle_eval.hpp"

#include <cstdint>

namespace spmesh::schemes::sqrt3 {

namespace detail {

// The face of each new point (from its rows' first points), or nothing where face f's one new
// point is V + f.
template <class Exec, class S = typename Exec::space>
linalg::Array<index_t, S> faces_of_points(Exec& exec, NewPointRows rows, index_t faces,
                                          index_t new_points) {
  linalg::Array<index_t, S> face_of_point(rows.first ? new_points : 0);
  index_t* face = face_of_point.data();
  if (rows.first)
    exec.for_each(faces, [=] SPMESH_HD(index_t f) {
      const index_t p = rows.first_of(f) - rows.vertices;
      face[p] = f;
      if (rows.split_of(f) >= 0) face[p + 1] = f;
    });
  return face_of_point;
}

// Row r of S_l for a new point: its stencil's three weights (Points: a stencil provider with
// its NewPointRows, `rows`; face_of_point as faces_of_points gives it).
template <class Points, class Sink>
SPMESH_HD void new_point_row(const Points& points, const index_t* face_of_point, index_t r,
                             Sink&& sink) {
  const index_t p = r - points.rows.vertices, f = face_of_point ? face_of_point[p] : p;
  const Stencil s = points(f, int(r - points.rows.first_of(f)));
  for (int t = 0; t < 3; ++t) sink(s.v[t], s.w[t]);
}

// The rows of S_l (an assemble_rows producer): a vertex point a at itself, b at each
// neighbour, d at its boundary neighbours; a new point its stencil's three weights.
struct LevelRows {
  VertexRows vertex;
  const index_t* face_of_point;
  NewPoints points;
  index_t vertices;

  SPMESH_HD std::int64_t bound(index_t r) const { return r < vertices ? vertex.bound(r) : 3; }

  template <class Sink>
  SPMESH_HD void operator()(index_t r, Sink&& sink) const {
    if (r < vertices) return vertex(r, sink, [](double) {});
    new_point_row(points, face_of_point, r, sink);
  }
};

// The rows of a half-edge level's S_l (LevelRows on the half-edge topology: each vertex's
// mask from its walk).
struct TriangleLevelRows {
  HalfEdgeNewPoints points;
  const index_t* face_of_point;
  bool splits_boundary;

  SPMESH_HD std::int64_t bound(index_t r) const {
    std::int64_t n = 3;
    if (r < points.t.vertices) points.t.for_each_edge(r, [&](index_t, index_t, index_t) { ++n; });
    return n;
  }

  template <class Sink>
  SPMESH_HD void operator()(index_t r, Sink&& sink) const {
    const TriangleView& t = points.t;
    if (r >= t.vertices) return new_point_row(points, face_of_point, r, sink);
    index_t n = 0, after = -1, u = -1, w = -1;
    t.for_each_edge(r, [&](index_t, index_t other, index_t face) {
      if (n++ == 0) after = other;
      if (face < 0) u = after, w = other;
    });
    const VertexMask m = vertex_mask(n, u, w, splits_boundary);
    sink(r, m.self);
    if (m.ring != 0) t.for_each_edge(r, [&](index_t, index_t other, index_t) { sink(other, m.ring); });
    if (m.crease != 0) sink(m.u, m.crease), sink(m.w, m.crease);
  }
};

}  // namespace detail

// S_l: the level's eval as a matrix (child vertices x parent vertices).
template <class Exec, class S = typename Exec::space>
linalg::Csr<double, S> level_matrix(Exec& exec, const Level<S>& L) {
  const NewPointRows points = new_point_rows(L);
  const auto face_of_point = detail::faces_of_points(exec, points, L.faces, L.new_points);
  const detail::LevelRows rows{
      .vertex = {.E = L.E.view(),
                 .self = L.vertex_self.data(),
                 .ring = L.vertex_ring.data(),
                 .crease = L.vertex_crease.data(),
                 .u = L.boundary_u.data(),
                 .w = L.boundary_w.data()},
      .face_of_point = face_of_point.data(),
      .points = {L.M.view(), points, L.boundary_u.data(), L.boundary_w.data()},
      .vertices = L.vertices};
  return linalg::assemble_rows<double>(exec, L.child_vertices(), L.vertices, rows);
}

// S_l of a half-edge level.
template <class Exec, class S = typename Exec::space>
linalg::Csr<double, S> level_matrix(Exec& exec, const TriangleLevel<S>& L) {
  const NewPointRows points = new_point_rows(L);
  const auto face_of_point = detail::faces_of_points(exec, points, L.faces, L.new_points);
  const detail::TriangleLevelRows rows{{view(L), points},
                                       points.first ? face_of_point.data() : nullptr,
                                       L.splits_boundary};
  return linalg::assemble_rows<double>(exec, L.child_vertices(), L.vertices, rows);
}

}  // namespace spmesh::schemes::sqrt3
