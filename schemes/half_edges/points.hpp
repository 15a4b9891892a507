// What every scheme's eval on half-edge levels shares: the smooth and special vertex points
// over a ring sum, the vertices in no face, each edge's half-edge along, and what the rows of
// a level's matrix S_l read of its sparse crease rules.
#pragma once

#include "linalg/fuse.hpp"
#include "linalg/intrinsics.hpp"
#include "linalg/search.hpp"
#include "schemes/crease_rules.hpp"
#include "schemes/half_edges/level.hpp"

namespace spmesh::schemes {

// f.template operator()<W>() with the width W that eval's kernels take vertex data of k
// columns in: W components at a time, kept in registers (wider data takes several passes):
// 3 for xyz and its multiples, else 4.
template <class F>
decltype(auto) with_width(index_t k, F&& f) {
  if (k % 3 == 0) return f.template operator()<3>();
  return f.template operator()<4>();
}

// What an eval by groups works on (catmull_clark/ and loop/group_eval.hpp): the parent level's
// view q, the level's vertex data P of k columns and the child's, out; W components at a time.
template <class View, class T, index_t W>
struct GroupData {
  View q;
  const T* P;
  T* out;
  index_t k;

  SPMESH_HD const T* row(index_t r) const { return P + std::int64_t(r) * k; }
  SPMESH_HD T* out_row(index_t r) const { return out + std::int64_t(r) * k; }
  // x = components [c, c + m) of row r (zero past m).
  SPMESH_HD void load(T* x, index_t r, index_t c, index_t m) const {
#pragma unroll
    for (index_t j = 0; j < W; ++j) x[j] = j < m ? linalg::ldg(row(r) + c + j) : T(0);
  }

  // What a parent edge e that a group owns writes, from column c (Rows: the scheme's GroupRows,
  // which place the children's edges and the edge points): its halves' points and its point's
  // vertex point ...
  struct EdgeRows {
    T *first, *second, *vertex;
  };
  template <class Rows>
  SPMESH_HD EdgeRows edge_rows(const Rows& at, index_t e, index_t c) const {
    T* first = out_row(at.child_edges + 2 * e) + c;
    return {first, first + k, out_row(at.edge_points + e) + c};
  }
  // ... which, on the boundary (a crease, redone with its mask by SharpEdgePoints and
  // SpecialPoints), are the halves' midpoints and the edge's point itself, Ee, between U0 and U1.
  SPMESH_HD static void boundary_edge(const EdgeRows& r, const T* U0, const T* U1, const T* Ee,
                                      index_t m) {
    for (index_t j = 0; j < m; ++j)
      r.first[j] = T(0.5) * (U0[j] + Ee[j]), r.second[j] = T(0.5) * (Ee[j] + U1[j]),
      r.vertex[j] = Ee[j];
  }
};

// The smooth vertex point of v, whose vertex_edge is h: self p + ring (the Ring sum, as
// SpecialPoints'), with the scheme's SmoothMask of the valence the walk counts.
template <class T, index_t W, class Ring, class SmoothMask, class View>
SPMESH_HD void smooth_vertex_point(const View& t, index_t h, index_t v, const T* P, T* out,
                                   index_t k) {
  for (index_t c = 0; c < k; c += W) {
    const index_t m = k - c < W ? k - c : W;
    const Ring s(t, h, P, out, k, c, m);
    const VertexMask mask = SmoothMask{}(s.edges);
    const T self = static_cast<T>(mask.self), ring = static_cast<T>(mask.ring);
    const T* p = P + std::int64_t(v) * k + c;
    T* y = out + std::int64_t(v) * k + c;
#pragma unroll
    for (index_t j = 0; j < W; ++j)
      if (j < m) y[j] = self * p[j] + ring * s.total(j);
  }
}

// Smooth vertex points on a level of faces of `Order` corners (smooth_vertex_point with the
// scheme's Ring sum and SmoothMask), one thread per face for the vertices whose vertex_edge
// starts in it (starts), so that neighbouring threads walk neighbouring faces; W components at
// a time. The special vertices are redone by SpecialPoints.
template <class T, index_t W, class Ring, class SmoothMask, class View, index_t Order>
struct SmoothVertexPoints {
  static constexpr int min_blocks_per_sm = Ring::min_blocks_per_sm;  // the walks'
  View t;
  const std::uint8_t* starts;
  const T* P;
  T* out;
  index_t k;

  SPMESH_HD void operator()(index_t f) const {
    const unsigned bits = starts[f];
    if (bits == 0) return;
    for (index_t a = 0; a < Order; ++a)
      if ((bits >> a) & 1)
        smooth_vertex_point<T, W, Ring, SmoothMask>(t, Order * f + a, t.corners[Order * f + a], P,
                                                    out, k);
  }
};

// The special vertices' points with their masks: a p + b (ring) + d (p_u + p_w), the ring being
// the scheme's Ring sum (Ring(t, first, P, out, k, c, m).total(j), m <= W components from
// column c); those whose mask is the smooth one keep the smooth kernel's point.
template <class T, index_t W, class View, class Ring>
struct SpecialPoints {
  View t;
  const index_t *special, *u, *w;
  const double *self, *ring, *crease;
  const std::uint8_t* smooth;
  const T* P;
  T* out;
  index_t k;

  SPMESH_HD void operator()(index_t s) const {
    if (smooth[s]) return;
    const index_t v = special[s];
    const T a = static_cast<T>(self[s]), b = static_cast<T>(ring[s]),
            d = static_cast<T>(crease[s]);
    for (index_t c = 0; c < k; c += W) {
      const index_t m = k - c < W ? k - c : W;
      const T* p = P + std::int64_t(v) * k + c;
      T* y = out + std::int64_t(v) * k + c;
      for (index_t j = 0; j < m; ++j) y[j] = a * p[j];
      if (b != 0) {
        const Ring sums(t, t.vertex_edge[v], P, out, k, c, m);
#pragma unroll
        for (index_t j = 0; j < W; ++j)
          if (j < m) y[j] += b * sums.total(j);
      }
      if (d == 0) continue;
      const T *pu = P + std::int64_t(u[s]) * k + c, *pw = P + std::int64_t(w[s]) * k + c;
      for (index_t j = 0; j < m; ++j) y[j] += d * (pu[j] + pw[j]);
    }
  }
};

// The sharp edges' points with their crease weight w: end (p_i + p_j) + other (q_0 + q_1), the
// scheme's Edges giving the masks (Edges::mask(w)), the point beside each side of the edge
// (Edges::beside(t, h, ...) for its half-edge h and, but on the boundary, h's twin:
// Catmull-Clark's face points, Loop's opposite vertices) and the first edge point's row.
template <class T, class View, class Edges>
struct SharpEdgePoints {
  View t;
  const index_t *edges, *halves;
  EdgeCrease crease;
  const T* P;
  T* out;
  index_t k;

  SPMESH_HD void operator()(index_t s) const {
    const index_t h = halves[s], g = t.twin[h];
    const EdgeMask mask = Edges::mask(crease[s]);
    const T a = static_cast<T>(mask.end), b = static_cast<T>(mask.other);
    const T *pi = P + std::int64_t(t.corners[h]) * k,
            *pj = P + std::int64_t(t.corners[t.next(h)]) * k;
    const T* q0 = Edges::beside(t, h, P, out, k);
    const T* q1 = g < 0 ? nullptr : Edges::beside(t, g, P, out, k);
    T* y = out + std::int64_t(Edges::first_edge_point(t) + edges[s]) * k;
    for (index_t c = 0; c < k; ++c) {
      T e = a * (pi[c] + pj[c]);
      if (b != 0) e += b * q0[c] + (q1 ? b * q1[c] : T(0));
      y[c] = e;
    }
  }
};

// The kernel that redoes level L's special vertices (SpecialPoints over the scheme's Ring sum)
// and sharp edges (SharpEdgePoints with the scheme's Edges) with their crease masks, in one
// launch of crease_items(L) items.
template <class Edges, class Ring, class View, class Level, class T>
auto crease_points(const View& t, const Level& L, const T* P, T* out, index_t k) {
  const auto& r = L.rules;
  return linalg::fuse(SpecialPoints<T, 4, View, Ring>{.t = t,
                                                      .special = L.C.special.data(),
                                                      .u = r.crease_u.data(),
                                                      .w = r.crease_w.data(),
                                                      .self = r.self.data(),
                                                      .ring = r.ring.data(),
                                                      .crease = r.crease.data(),
                                                      .smooth = r.smooth.data(),
                                                      .P = P,
                                                      .out = out,
                                                      .k = k},
                      L.C.special.size(),
                      SharpEdgePoints<T, View, Edges>{t, L.C.edges.data(), L.C.halves.data(),
                                                      L.edge_crease(), P, out, k});
}
template <class Level>
index_t crease_items(const Level& L) {
  return L.C.special.size() + L.C.edges.size();
}

// Per edge of L: its half-edge along.
template <class Exec, class S = typename Exec::space>
linalg::Array<index_t, S> edge_halves(Exec& exec, const HalfEdgeLevel<S>& L) {
  linalg::Array<index_t, S> edge_half(L.edges);
  index_t* eh = edge_half.data();
  const index_t* code = L.edge_code.data();
  exec.for_each(L.edge_code.size(), [=] SPMESH_HD(index_t h) {
    if ((code[h] & 1) == 0) eh[code[h] >> 1] = h;
  });
  return edge_half;
}

// Eval's copy of the vertices in no face, which stay where they are: P (L.vertices x k) into
// the child's data y.
template <class Exec, class Level, class T>
void copy_unused(Exec& exec, const Level& L, const T* P, T* y, index_t k) {
  const index_t* unused = L.unused.data();
  exec.for_each(L.unused.size() * k, [=] SPMESH_HD(index_t i) {
    const std::int64_t r = std::int64_t(unused[i / k]) * k + i % k;
    y[r] = P[r];
  });
}

// What the rows of a half-edge level's S_l read of its sparse crease rules (C and rules): each
// special vertex's mask, every other vertex taking the scheme's smooth mask of its valence;
// each sharp edge's weight, every other edge's being 0.
template <class SmoothMask>
struct SparseRules {
  const index_t *special, *u, *w, *sharp_edges;
  const double *self, *ring, *crease;
  EdgeCrease edge_crease;
  index_t special_count, sharp_count;

  template <class View>
  SPMESH_HD VertexMask vertex_mask(const View& t, index_t v) const {
    VertexMask m;
    const index_t s = linalg::find_sorted(special, special_count, v);
    if (s >= 0) {
      m.self = self[s], m.ring = ring[s], m.crease = crease[s], m.u = u[s], m.w = w[s];
      return m;
    }
    index_t n = 0;
    t.for_each_edge(v, [&](index_t, index_t, index_t) { ++n; });
    return n > 0 ? SmoothMask{}(n) : m;
  }
  SPMESH_HD double edge_weight(index_t e) const {
    const index_t j = linalg::find_sorted(sharp_edges, sharp_count, e);
    return j < 0 ? 0.0 : edge_crease[j];
  }
};
template <class SmoothMask, class Level>
SparseRules<SmoothMask> sparse_rules(const Level& L) {
  const auto& r = L.rules;
  return {.special = L.C.special.data(),
          .u = r.crease_u.data(),
          .w = r.crease_w.data(),
          .sharp_edges = L.C.edges.data(),
          .self = r.self.data(),
          .ring = r.ring.data(),
          .crease = r.crease.data(),
          .edge_crease = L.edge_crease(),
          .special_count = L.C.special.size(),
          .sharp_count = L.C.edges.size()};
}

}  // namespace spmesh::schemes
