// What every scheme's eval on half-edge levels shares: the smooth and special vertex points
// over a ring sum, the vertices in no face, and each edge's half-edge along.
#pragma once

#include "linalg/intrinsics.hpp"
#include "schemes/crease_rules.hpp"
#include "schemes/half_edges/level.hpp"

namespace spmesh::schemes {

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

}  // namespace spmesh::schemes
