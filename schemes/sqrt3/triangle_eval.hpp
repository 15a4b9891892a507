// sqrt(3) eval on half-edge levels (triangles.hpp; paper appendix B): one thread per face makes
// its new points (Eq. 31, or Kobbelt's boundary points), one thread per face walks the rings of
// the vertices that start in it for their vertex points (Eq. 29, 30, 32, or the boundary
// masks). One writer per output, no atomics: the same bits every run.
#pragma once

#include "schemes/sqrt3/plan.hpp"
#include "schemes/sqrt3/triangles.hpp"

#include <cstdint>
#include <string>

namespace spmesh::schemes::sqrt3 {

namespace detail {

// The new points of each face on half-edges (a stencil provider, as NewPoints): the boundary
// neighbours come from the walks.
struct HalfEdgeNewPoints {
  TriangleView t;
  NewPointRows rows;

  SPMESH_HD int count(index_t f) const { return rows.split_of(f) < 0 ? 1 : 2; }

  SPMESH_HD Stencil operator()(index_t f, int which) const {
    const index_t* v = t.corners + 3 * f;
    const index_t b = rows.split_of(f);
    if (b < 0) return centroid(ldg(v), ldg(v + 1), ldg(v + 2));
    const index_t p2 = v[b], p3 = v[(b + 1) % 3];
    return boundary_point(which == 0 ? t.boundary_before(p2) : -1, p2, p3,
                          which == 1 ? t.boundary_after(p3) : -1, which);
  }
};

// The sum over a vertex's 1-ring (m <= W components from column c), its valence, and its
// boundary neighbours u (after it) and w (before it), -1 inside.
template <class T, index_t W>
struct BoundaryRing {
  index_t edges = 0, u = -1, w = -1;
  T sum[W] = {};

  SPMESH_HD BoundaryRing(const TriangleView& t, index_t first, const T* P, index_t k, index_t c,
                         index_t m) {
    index_t after = -1;
    t.for_each_edge_from(first, [&](index_t, index_t other, index_t face) {
      if (edges++ == 0) after = other;
      if (face < 0) u = after, w = other;
      const T* p = P + std::int64_t(other) * k + c;
#pragma unroll
      for (index_t j = 0; j < W; ++j)
        if (j < m) sum[j] += ldg(p + j);
    });
  }
};

// Vertex points, one thread per face for the vertices whose vertex_edge starts in it (starts),
// W components at a time: a p + b (ring) + d (p_u + p_w) with vertex_mask's weights.
template <class T, index_t W>
struct VertexPointsOnHalfEdges {
  static constexpr int min_blocks_per_sm = 8;  // as Loop's walks: bound by load latency
  TriangleView t;
  const std::uint8_t* starts;
  bool splits_boundary;
  const T* P;
  T* out;
  index_t k;

  SPMESH_HD void operator()(index_t f) const {
    const unsigned bits = starts[f];
    for (index_t a = 0; a < 3; ++a) {
      if (((bits >> a) & 1) == 0) continue;
      const index_t v = t.corners[3 * f + a];
      for (index_t c = 0; c < k; c += W) {
        const index_t m = k - c < W ? k - c : W;
        const BoundaryRing<T, W> ring(t, 3 * f + a, P, k, c, m);
        const VertexMask mask = vertex_mask(ring.edges, ring.u, ring.w, splits_boundary);
        const T self = static_cast<T>(mask.self), b = static_cast<T>(mask.ring),
                d = static_cast<T>(mask.crease);
        const T* p = P + std::int64_t(v) * k + c;
        T* y = out + std::int64_t(v) * k + c;
#pragma unroll
        for (index_t j = 0; j < W; ++j) {
          if (j >= m) continue;
          T value = self * p[j] + b * ring.sum[j];
          if (d != 0) value += d * (P[std::int64_t(ring.u) * k + c + j] + P[std::int64_t(ring.w) * k + c + j]);
          y[j] = value;
        }
      }
    }
  }
};

}  // namespace detail

// One half-edge level: P (L.vertices x k) -> the child's vertex data.
template <class Exec, class T>
linalg::Dense<T, typename Exec::space> subdivide(Exec& exec,
                                                 const TriangleLevel<typename Exec::space>& L,
                                                 const linalg::Dense<T, typename Exec::space>& P) {
  using S = typename Exec::space;
  if (P.rows != L.vertices)
    throw DimensionError("sqrt3::eval: vertex data has " + std::to_string(P.rows) +
                         " rows, the level has " + std::to_string(L.vertices) + " vertices");
  const index_t k = P.cols;
  linalg::Dense<T, S> out(L.child_vertices(), k);
  const auto t = view(L);
  const T* p = P.data.data();
  T* y = out.data.data();
  exec.for_each(L.faces, detail::ApplyNewPoints<T, detail::HalfEdgeNewPoints>{
                             {t, new_point_rows(L)}, p, y, k});
  if (k % 3 == 0)
    exec.for_each(L.faces, detail::VertexPointsOnHalfEdges<T, 3>{t, L.starts.data(),
                                                                 L.splits_boundary, p, y, k});
  else
    exec.for_each(L.faces, detail::VertexPointsOnHalfEdges<T, 4>{t, L.starts.data(),
                                                                 L.splits_boundary, p, y, k});
  copy_unused(exec, L, p, y, k);
  return out;
}

}  // namespace spmesh::schemes::sqrt3
