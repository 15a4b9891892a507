// The sqrt(3) refinement matrix: each level's eval as S_l (child x parent vertices) and
// R = S_L ... S_1, from the same weights eval applies.
#pragma once

#include "linalg/convert.hpp"
#include "schemes/levels.hpp"
#include "schemes/sqrt3/plan.hpp"

#include <cstdint>

namespace spmesh::schemes::sqrt3 {

namespace detail {

// The rows of S_l (an assemble_rows producer): a vertex point a at itself, b at each
// neighbour, d at its boundary neighbours; a new point its stencil's three weights.
struct LevelRows {
  linalg::CompressedView<index_t> E;
  const double *self, *ring, *crease;
  const index_t *u, *w, *first_point, *face_of_point;
  NewPoints points;
  index_t vertices;

  SPMESH_HD std::int64_t bound(index_t r) const {
    return r < vertices ? 3 + E.end(r) - E.begin(r) : 3;
  }

  template <class Sink>
  SPMESH_HD void operator()(index_t r, Sink&& sink) const {
    if (r < vertices) {
      sink(r, self[r]);
      if (ring[r] != 0)
        for (index_t p = E.begin(r); p < E.end(r); ++p) sink(E.indices[p], ring[r]);
      if (crease[r] != 0) sink(u[r], crease[r]), sink(w[r], crease[r]);
      return;
    }
    const index_t f = face_of_point[r - vertices];
    const Stencil s = points(f, r - first_point[f]);
    for (int t = 0; t < 3; ++t) sink(s.v[t], s.w[t]);
  }
};

}  // namespace detail

// S_l: the level's eval as a matrix (child vertices x parent vertices).
template <class Exec>
linalg::Csr<double, typename Exec::space> level_matrix(Exec& exec,
                                                       const Level<typename Exec::space>& L) {
  linalg::Array<index_t, typename Exec::space> face_of_point(L.new_points);
  {
    const index_t *first = L.first_point.data(), *split = L.split_corner.data();
    index_t* face = face_of_point.data();
    const index_t V = L.vertices;
    exec.for_each(L.faces, [=] SPMESH_HD(index_t f) {
      face[first[f] - V] = f;
      if (split[f] >= 0) face[first[f] - V + 1] = f;
    });
  }
  const detail::LevelRows rows{
      L.E.view(),         L.vertex_self.data(),  L.vertex_ring.data(), L.vertex_crease.data(),
      L.boundary_u.data(), L.boundary_w.data(),  L.first_point.data(), face_of_point.data(),
      {L.M.view(), L.split_corner.data(), L.boundary_u.data(), L.boundary_w.data()},
      L.vertices};
  return linalg::assemble_rows<double>(exec, L.child_vertices(), L.vertices, rows);
}

// R = S_L ... S_1, composed in double and stored as T; zero levels give the identity.
template <class T, class Exec>
linalg::Csr<T, typename Exec::space> refinement_matrix(Exec& exec,
                                                       const Plan<typename Exec::space>& plan) {
  return compose_levels<T>(exec, plan);
}

}  // namespace spmesh::schemes::sqrt3
