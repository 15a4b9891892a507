// sqrt(3) eval on half-edge levels (triangles.hpp; paper appendix A): one thread per face makes
// its new points (Eq. 31, or Kobbelt's boundary points); the vertex points (Eq. 29, 30, 32, or
// the boundary masks) come from one thread per face that walks the rings of the vertices that
// start in it, or, where the level has a half-edge parent, from one thread per parent face
// (GroupVertexPoints: two thirds of the vertices with no walk, the rest walking the parent's
// smaller rings). One writer per output, no atomics: the same bits every run.
#pragma once

#include "schemes/half_edges/points.hpp"
#include "schemes/sqrt3/plan.hpp"
#include "schemes/sqrt3/triangles.hpp"
#include "schemes/tuning.hpp"

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
    if (b < 0) return centroid(linalg::ldg(v), linalg::ldg(v + 1), linalg::ldg(v + 2));
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
        if (j < m) sum[j] += linalg::ldg(p + j);
    });
  }
};

// Vertex v's point, m <= W components from column c, from its Ring (BoundaryRing or ParentRing):
// a p + b (ring) + d (p_u + p_w) with vertex_mask's weights.
template <class T, index_t W, class Ring>
SPMESH_HD void vertex_point(const Ring& ring, bool splits_boundary, index_t v, const T* P, T* out,
                            index_t k, index_t c, index_t m) {
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

// Vertex points, one thread per face for the vertices whose vertex_edge starts in it (starts),
// W components at a time.
template <class T, index_t W>
struct VertexPointsOnHalfEdges {
  static constexpr int min_blocks_per_sm = tuning::sqrt3_ring_min_blocks_per_sm;
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
        vertex_point<T, W>(BoundaryRing<T, W>(t, 3 * f + a, P, k, c, m), splits_boundary, v, P,
                           out, k, c, m);
      }
    }
  }
};

// The ring of an old vertex of a level, walked on the level's parent q (the level's rows of
// the parent's new points, `points`): around an inner vertex, the new point beside each of its
// parent half-edges, and p_r too where the face cuts the edge opposite it; its valence; its
// boundary neighbours u (after it) and w (before it), -1 inside, which a boundary edge left
// whole keeps. (The level's rows of the parent's vertices are theirs.)
template <class T, index_t W>
struct ParentRing {
  index_t edges = 0, u = -1, w = -1;
  T sum[W] = {};

  // (The walk of HalfEdgeView::for_each_edge_from, which also loads each neighbour; here only
  // the two boundary neighbours are needed.)
  SPMESH_HD ParentRing(const TriangleView& q, const NewPointRows& points, index_t first,
                       const T* P, index_t k, index_t c, index_t m) {
    for (index_t h = first;;) {
      const index_t face = h / 3;
      add(points.beside(h), P, k, c, m);
      const int b = points.split_of(face);
      if (b >= 0 && h == 3 * face + (b + 2) % 3) add(points.first_of(face) + 1, P, k, c, m);
      const index_t p = q.prev(h), t = linalg::ldg(q.twin + p);
      if (t < 0) {
        u = linalg::ldg(q.corners + q.next(first)), w = linalg::ldg(q.corners + p);
        return;
      }
      if (t == first) return;
      h = t;
    }
  }
  SPMESH_HD void add(index_t r, const T* P, index_t k, index_t c, index_t m) {
    ++edges;
    const T* p = P + std::int64_t(r) * k + c;
#pragma unroll
    for (index_t j = 0; j < W; ++j)
      if (j < m) sum[j] += linalg::ldg(p + j);
  }
};

// A level's vertex points through its parent's faces: one thread per parent face g makes those
// of the points g made (no walk: a centroid's ring is g's corners and the points across g's
// inner edges, and it is inside; a cut edge's two points are on the boundary of a level that
// does not cut, so they stay), then walks the parent's rings of the old vertices that start in
// g (ParentRing). W components at a time.
template <class T, index_t W>
struct GroupVertexPoints {
  static constexpr int min_blocks_per_sm = tuning::sqrt3_ring_min_blocks_per_sm;
  TriangleView q;              // the parent
  NewPointRows points;         // the parent's new points: the level's rows
  const std::uint8_t* starts;  // the parent's
  bool splits_boundary;        // the level's
  const T* P;
  T* out;
  index_t k;

  SPMESH_HD const T* row(index_t r) const { return P + std::int64_t(r) * k; }

  SPMESH_HD void operator()(index_t g) const {
    const index_t x = points.first_of(g);
    if (points.split_of(g) >= 0) {
      for (index_t j = 0; j < 2 * k; ++j) out[std::int64_t(x) * k + j] = P[std::int64_t(x) * k + j];
    } else {
      index_t v[3], across[3];
      int n = 3;
      for (int a = 0; a < 3; ++a) {
        v[a] = linalg::ldg(q.corners + 3 * g + a);
        const index_t t = linalg::ldg(q.twin + 3 * g + a);
        across[a] = t < 0 ? -1 : points.beside(t);
        n += t < 0 ? 0 : 1;
      }
      const VertexMask mask = smooth_mask(n);
      const T self = static_cast<T>(mask.self), ring = static_cast<T>(mask.ring);
      for (index_t j = 0; j < k; ++j) {
        T sum =
            linalg::ldg(row(v[0]) + j) + linalg::ldg(row(v[1]) + j) + linalg::ldg(row(v[2]) + j);
        for (int a = 0; a < 3; ++a)
          if (across[a] >= 0) sum += linalg::ldg(row(across[a]) + j);
        out[std::int64_t(x) * k + j] = self * linalg::ldg(row(x) + j) + ring * sum;
      }
    }
    const unsigned bits = starts[g];
    for (index_t a = 0; a < 3; ++a)
      if ((bits >> a) & 1) old_vertex_point(3 * g + a);
  }

  SPMESH_HD void old_vertex_point(index_t h) const {
    const index_t v = q.corners[h];
    for (index_t c = 0; c < k; c += W) {
      const index_t m = k - c < W ? k - c : W;
      vertex_point<T, W>(ParentRing<T, W>(q, points, h, P, k, c, m), splits_boundary, v, P, out,
                         k, c, m);
    }
  }
};

// The vertex points of level L, W components at a time; through its parent's faces where the
// parent (non-null) is given.
template <index_t W, class Exec, class T, class S = typename Exec::space>
void vertex_points(Exec& exec, const TriangleLevel<S>& L, const TriangleLevel<S>* parent,
                   const T* P, T* out, index_t k) {
  if (parent)
    exec.for_each(parent->faces, GroupVertexPoints<T, W>{view(*parent), new_point_rows(*parent),
                                                         parent->starts.data(),
                                                         L.splits_boundary, P, out, k});
  else
    exec.for_each(L.faces, VertexPointsOnHalfEdges<T, W>{view(L), L.starts.data(),
                                                         L.splits_boundary, P, out, k});
}

}  // namespace detail

// One half-edge level: P (L.vertices x k) -> the child's vertex data; through its parent's
// faces (GroupVertexPoints) where its parent is given.
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> level_points(Exec& exec, const TriangleLevel<S>& L,
                                 const linalg::Dense<T, S>& P,
                                 const TriangleLevel<S>* parent = nullptr) {
  const index_t k = P.cols;
  linalg::Dense<T, S> out(L.child_vertices(), k);
  const T* p = P.data.data();
  T* y = out.data.data();
  exec.for_each(L.faces, detail::ApplyNewPoints<T, detail::HalfEdgeNewPoints>{
                             {view(L), new_point_rows(L)}, p, y, k});
  with_width(k, [&]<index_t W>() { detail::vertex_points<W>(exec, L, parent, p, y, k); });
  copy_unused(exec, L, p, y, k);
  return out;
}

}  // namespace spmesh::schemes::sqrt3
