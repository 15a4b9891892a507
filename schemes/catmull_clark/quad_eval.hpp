// Catmull-Clark eval and level matrix on quad levels (quads.hpp; paper section 4.3, 4.4): one
// thread per parent face makes its face point (Eq. 6) and the smooth points of the edges it
// owns (Eq. 2; fused: a two-pass split measured 10% slower), then one thread per face walks the
// rings of the vertices that start in it for their smooth vertex points (Eq. 14); the few sharp
// edges and special vertices are then redone with their crease masks.
// One writer per output, no atomics: the same bits every run.
#pragma once

#include "linalg/convert.hpp"
#include "linalg/formats.hpp"
#include "schemes/catmull_clark/plan.hpp"
#include "schemes/catmull_clark/quads.hpp"

#include <cstdint>
#include <string>

namespace spmesh::schemes::catmull_clark {

namespace detail {

// Each kernel handles W components of the vertex data at once (kept in registers; wider data
// takes several passes): W = 3 for xyz and multiples of it, else 4.

// Face points and the smooth points of the edges whose half-edge along lies in this face
// (w = 0: (p_i + p_j + f_0 + f_1) / 4; a boundary edge is a crease: (p_i + p_j) / 2). The
// neighbour's face point is 1/4 (p_i + p_j + its two other corners). Loads first, then stores.
template <class T, index_t W>
struct QuadFacePoints {
  QuadView t;
  const T* P;
  T* out;
  index_t k;

  SPMESH_HD void operator()(index_t f) const {
    const index_t first_edge_point = t.vertices + t.faces;
    const Index4 q = load4(t.quads + 4 * f), code = load4(t.edge_code + 4 * f),
                 twin = load4(t.twin + 4 * f);
    for (index_t c = 0; c < k; c += W) {
      const index_t m = k - c < W ? k - c : W;
      T p[4][W], fp[W];
#pragma unroll
      for (index_t a = 0; a < 4; ++a)
#pragma unroll
        for (index_t j = 0; j < W; ++j)
          p[a][j] = j < m ? ldg(P + std::int64_t(q.v[a]) * k + c + j) : T(0);
#pragma unroll
      for (index_t j = 0; j < W; ++j) fp[j] = T(0.25) * (p[0][j] + p[1][j] + p[2][j] + p[3][j]);
      T* y = out + std::int64_t(t.vertices + f) * k + c;
      for (index_t j = 0; j < m; ++j) y[j] = fp[j];
#pragma unroll
      for (index_t a = 0; a < 4; ++a) {
        if (code.v[a] & 1) continue;
        const T *pi = p[a], *pj = p[(a + 1) & 3];
        T* e = out + std::int64_t(first_edge_point + (code.v[a] >> 1)) * k + c;
        const index_t g = twin.v[a];
        if (g < 0) {
          for (index_t j = 0; j < m; ++j) e[j] = T(0.5) * (pi[j] + pj[j]);
          continue;
        }
        // The neighbour runs v_(a+1) -> v_a at corner b; its other corners are b + 2, b + 3.
        const index_t b = g & 3, base = g - b;
        const T *r0 = P + std::int64_t(ldg(t.quads + base + ((b + 2) & 3))) * k + c,
                *r1 = P + std::int64_t(ldg(t.quads + base + ((b + 3) & 3))) * k + c;
#pragma unroll
        for (index_t j = 0; j < W; ++j) {
          if (j >= m) continue;
          const T ends = pi[j] + pj[j];
          const T fg = T(0.25) * (ends + ldg(r0 + j) + ldg(r1 + j));
          e[j] = T(0.25) * ends + T(0.25) * (fp[j] + fg);
        }
      }
    }
  }
};

// Sums over a vertex's ring, rotating from its vertex_edge `first`: its edges' other ends and
// its faces' points (already in out).
template <class T, index_t W>
struct RingSums {
  index_t edges = 0;
  T ring[W] = {}, faces[W] = {};

  SPMESH_HD RingSums(const QuadView& t, index_t first, const T* P, const T* out, index_t k,
                     index_t c, index_t m) {
    t.for_each_edge_from(first, [&](index_t, index_t other, index_t face) {
      ++edges;
      const T* p = P + std::int64_t(other) * k + c;
#pragma unroll
      for (index_t j = 0; j < W; ++j)
        if (j < m) ring[j] += ldg(p + j);
      if (face < 0) return;
      const T* g = out + std::int64_t(t.vertices + face) * k + c;  // face points: read-only here
#pragma unroll
      for (index_t j = 0; j < W; ++j)
        if (j < m) faces[j] += ldg(g + j);
    });
  }
};

// Vertex points with the smooth mask (Eq. 14: a = (n - 2)/n, b = 1/n^2), one thread per face
// for the vertices whose vertex_edge starts in it (starts), so that neighbouring threads walk
// neighbouring faces; the special vertices are redone by QuadSpecialPoints.
template <class T, index_t W>
struct QuadVertexPoints {
  // At most 32 registers (40 uncapped): 600 us instead of 635 at ArmorGuy level 6. The face
  // kernel is better uncapped (72 registers): capped at 40 it spills, 877 us instead of 528.
  static constexpr int min_blocks_per_sm = 8;
  QuadView t;
  const std::uint8_t* starts;
  const T* P;
  T* out;
  index_t k;

  SPMESH_HD void operator()(index_t f) const {
    const unsigned bits = starts[f];
    if (bits == 0) return;
    for (index_t a = 0; a < 4; ++a) {
      if (((bits >> a) & 1) == 0) continue;
      const index_t h = 4 * f + a, v = t.quads[h];
      for (index_t c = 0; c < k; c += W) {
        const index_t m = k - c < W ? k - c : W;
        const RingSums<T, W> s(t, h, P, out, k, c, m);
        const T* p = P + std::int64_t(v) * k + c;
        T* y = out + std::int64_t(v) * k + c;
        const VertexMask mask = SmoothMask{}(s.edges);
        const T self = static_cast<T>(mask.self), ring = static_cast<T>(mask.ring);
#pragma unroll
        for (index_t j = 0; j < W; ++j)
          if (j < m) y[j] = self * p[j] + ring * s.ring[j] + ring * s.faces[j];
      }
    }
  }
};

// The special vertices' points with their masks: a p + b (ring) + d (p_u + p_w).
template <class T, index_t W>
struct QuadSpecialPoints {
  QuadView t;
  const index_t *special, *u, *w;
  const double *self, *ring, *crease;
  const T* P;
  T* out;
  index_t k;

  SPMESH_HD void operator()(index_t s) const {
    const index_t v = special[s];
    const T a = static_cast<T>(self[s]), b = static_cast<T>(ring[s]),
            d = static_cast<T>(crease[s]);
    for (index_t c = 0; c < k; c += W) {
      const index_t m = k - c < W ? k - c : W;
      const T* p = P + std::int64_t(v) * k + c;
      T* y = out + std::int64_t(v) * k + c;
      for (index_t j = 0; j < m; ++j) y[j] = a * p[j];
      if (b != 0) {
        const RingSums<T, W> sums(t, t.vertex_edge[v], P, out, k, c, m);
#pragma unroll
        for (index_t j = 0; j < W; ++j)
          if (j < m) y[j] += b * sums.ring[j] + b * sums.faces[j];
      }
      if (d == 0) continue;
      const T *pu = P + std::int64_t(u[s]) * k + c, *pw = P + std::int64_t(w[s]) * k + c;
      for (index_t j = 0; j < m; ++j) y[j] += d * (pu[j] + pw[j]);
    }
  }
};

// The sharp edges' points with their crease weight w (EdgeWeights).
template <class T>
struct QuadSharpEdgePoints {
  QuadView t;
  const index_t *edges, *halves;
  const double* crease;
  const T* P;
  T* out;
  index_t k;

  SPMESH_HD void operator()(index_t s) const {
    const index_t h = halves[s], tw = t.twin[h];
    const EdgeMask mask = EdgeWeights{}(crease[s]);
    const T a = static_cast<T>(mask.end), b = static_cast<T>(mask.other);
    const T *pi = P + std::int64_t(t.quads[h]) * k, *pj = P + std::int64_t(t.quads[next_half(h)]) * k;
    const T* f0 = out + std::int64_t(t.vertices + (h >> 2)) * k;
    const T* f1 = tw < 0 ? nullptr : out + std::int64_t(t.vertices + (tw >> 2)) * k;
    T* y = out + std::int64_t(t.vertices + t.faces + edges[s]) * k;
    for (index_t c = 0; c < k; ++c) {
      T e = a * (pi[c] + pj[c]);
      if (b != 0) e += b * f0[c] + (f1 ? b * f1[c] : T(0));
      y[c] = e;
    }
  }
};

// Face, edge and vertex points with the smooth masks, W components at a time.
template <index_t W, class Exec, class T>
void smooth_points(Exec& exec, const QuadLevel<typename Exec::space>& L, const T* P, T* out,
                   index_t k) {
  exec.for_each(L.faces, QuadFacePoints<T, W>{view(L), P, out, k});
  exec.for_each(L.faces, QuadVertexPoints<T, W>{view(L), L.starts.data(), P, out, k});
}

}  // namespace detail

// One quad level: P (L.vertices x k) -> the child's vertex data.
template <class Exec, class T>
linalg::Dense<T, typename Exec::space> subdivide(Exec& exec,
                                                 const QuadLevel<typename Exec::space>& L,
                                                 const linalg::Dense<T, typename Exec::space>& P) {
  using S = typename Exec::space;
  if (P.rows != L.vertices)
    throw DimensionError("catmull_clark::eval: vertex data has " + std::to_string(P.rows) +
                         " rows, the level has " + std::to_string(L.vertices) + " vertices");
  const index_t k = P.cols;
  linalg::Dense<T, S> out(L.child_vertices(), k);
  const QuadView t = view(L);
  const T* p = P.data.data();
  T* y = out.data.data();
  if (k % 3 == 0) detail::smooth_points<3>(exec, L, p, y, k);
  else detail::smooth_points<4>(exec, L, p, y, k);
  const index_t* unused = L.unused.data();  // vertices in no face stay where they are
  exec.for_each(L.unused.size() * k, [=] SPMESH_HD(index_t i) {
    const std::int64_t r = std::int64_t(unused[i / k]) * k + i % k;
    y[r] = p[r];
  });
  const auto& r = L.rules;
  exec.for_each(L.C.special.size(),
                detail::QuadSpecialPoints<T, 4>{t, L.C.special.data(), r.crease_u.data(),
                                             r.crease_w.data(), r.self.data(), r.ring.data(),
                                             r.crease.data(), p, y, k});
  exec.for_each(L.C.edges.size(), detail::QuadSharpEdgePoints<T>{t, L.C.edges.data(),
                                                                 L.C.halves.data(),
                                                                 r.edge_crease.data(), p, y, k});
  return out;
}

namespace detail {

// The rows of a quad level's S_l (an assemble_rows producer; LevelRows of refinement.hpp on
// the quad topology).
struct QuadLevelRows {
  QuadView t;
  const index_t* edge_half;  // per edge: its half-edge along
  const index_t *special, *u, *w, *sharp_edges;
  const double *self, *ring, *crease, *edge_crease;
  index_t special_count, sharp_count;

  SPMESH_HD std::int64_t bound(index_t r) const {
    if (r < t.vertices) {
      std::int64_t n = 3;
      t.for_each_edge(r, [&](index_t, index_t, index_t face) { n += face < 0 ? 1 : 5; });
      return n;
    }
    return r < t.vertices + t.faces ? 4 : 10;
  }

  template <class Sink>
  SPMESH_HD void face(index_t f, double weight, Sink& sink) const {
    for (index_t a = 0; a < 4; ++a) sink(t.quads[4 * f + a], 0.25 * weight);
  }

  template <class Sink>
  SPMESH_HD void operator()(index_t r, Sink&& sink) const {
    if (r < t.vertices) {
      VertexMask m;
      const index_t s = find_sorted(special, special_count, r);
      if (s >= 0) {
        m.self = self[s], m.ring = ring[s], m.crease = crease[s], m.u = u[s], m.w = w[s];
      } else {
        index_t n = 0;
        t.for_each_edge(r, [&](index_t, index_t, index_t) { ++n; });
        if (n > 0) m = SmoothMask{}(n);
      }
      sink(r, m.self);
      if (m.ring != 0)
        t.for_each_edge(r, [&](index_t, index_t other, index_t f) {
          sink(other, m.ring);
          if (f >= 0) face(f, m.ring, sink);
        });
      if (m.crease != 0) sink(m.u, m.crease), sink(m.w, m.crease);
    } else if (r < t.vertices + t.faces) {
      face(r - t.vertices, 1.0, sink);
    } else {
      const index_t e = r - t.vertices - t.faces, h = edge_half[e], tw = t.twin[h];
      const index_t j = find_sorted(sharp_edges, sharp_count, e);
      const EdgeMask mask = EdgeWeights{}(j < 0 ? 0.0 : edge_crease[j]);
      sink(t.quads[h], mask.end), sink(t.quads[next_half(h)], mask.end);
      if (mask.other == 0) return;
      face(h >> 2, mask.other, sink);
      if (tw >= 0) face(tw >> 2, mask.other, sink);
    }
  }
};

}  // namespace detail

// S_l of a quad level: its eval as a matrix (child vertices x parent vertices).
template <class Exec>
linalg::Csr<double, typename Exec::space> level_matrix(Exec& exec,
                                                       const QuadLevel<typename Exec::space>& L) {
  linalg::Array<index_t, typename Exec::space> edge_half(L.edges);
  index_t* eh = edge_half.data();
  const index_t* code = L.edge_code.data();
  exec.for_each(4 * L.faces, [=] SPMESH_HD(index_t h) {
    if ((code[h] & 1) == 0) eh[code[h] >> 1] = h;
  });
  const auto& r = L.rules;
  const detail::QuadLevelRows rows{view(L),         eh,
                                   L.C.special.data(), r.crease_u.data(),
                                   r.crease_w.data(), L.C.edges.data(),
                                   r.self.data(),    r.ring.data(),
                                   r.crease.data(),  r.edge_crease.data(),
                                   L.C.special.size(), L.C.edges.size()};
  return linalg::assemble_rows<double>(exec, L.child_vertices(), L.vertices, rows);
}

}  // namespace spmesh::schemes::catmull_clark
