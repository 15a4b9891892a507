// Catmull-Clark eval and level matrix on half-edge levels (quads.hpp; paper section 4.3, 4.4): one
// thread per parent face (on the GPU four, a lane per corner) makes its face point (Eq. 6) and
// the smooth points of the edges it owns (Eq. 2; in one kernel: bench/RESULTS.md, Tuning choices),
// then one thread per face walks the rings of the vertices that start in it for their smooth
// vertex points (Eq. 14); the few sharp edges and special vertices are then redone with their
// crease masks. A polygon base level
// (small by nature) takes plain kernels: face points, edge points, vertex points one by one.
// One writer per output, no atomics: the same bits every run.
#pragma once

#include "linalg/convert.hpp"
#include "linalg/formats.hpp"
#include "linalg/lanes.hpp"
#include "linalg/search.hpp"
#include "schemes/catmull_clark/group_eval.hpp"
#include "schemes/catmull_clark/plan.hpp"
#include "schemes/catmull_clark/quads.hpp"
#include "schemes/catmull_clark/region.hpp"
#include "schemes/tuning.hpp"

#include <cstdint>
#include <string>
#include <type_traits>

namespace spmesh::schemes::catmull_clark {

namespace detail {

// Each kernel handles W components of the vertex data at once (with_width).

// The corners of half-edge g's quad off its edge (slots b + 2 and b + 3 of g = 4 f + b; none
// for g = -1): with the edge's ends, the neighbour whose face point an edge point needs.
struct OffEdge {
  index_t r0 = 0, r1 = 0;
};
SPMESH_HD inline OffEdge off_edge(const QuadView& t, index_t g) {
  if (g < 0) return {};
  const index_t b = g & 3, base = g - b;
  return {linalg::ldg(t.corners + base + ((b + 2) & 3)),
          linalg::ldg(t.corners + base + ((b + 3) & 3))};
}

// The smooth point of an edge with ends pi, pj (m components from column c) in a face whose
// point is fp: (p_i + p_j + f_0 + f_1) / 4, the neighbour's face point f_1 being 1/4 (p_i +
// p_j + its corners off the edge in P). P null: a boundary edge, a crease, (p_i + p_j) / 2.
template <class T, index_t W>
SPMESH_HD void smooth_edge_point(T* e, const T* pi, const T* pj, const T* fp, const T* P,
                                 OffEdge n, index_t k, index_t c, index_t m) {
  if (!P) {
    for (index_t j = 0; j < m; ++j) e[j] = T(0.5) * (pi[j] + pj[j]);
    return;
  }
  const T *r0 = P + std::int64_t(n.r0) * k + c, *r1 = P + std::int64_t(n.r1) * k + c;
#pragma unroll
  for (index_t j = 0; j < W; ++j) {
    if (j >= m) continue;
    const T ends = pi[j] + pj[j];
    const T fg = T(0.25) * (ends + linalg::ldg(r0 + j) + linalg::ldg(r1 + j));
    e[j] = T(0.25) * ends + T(0.25) * (fp[j] + fg);
  }
}

// Face points and the smooth points (smooth_edge_point) of the edges whose half-edge along
// lies in this face, one thread per face. Loads first, then stores.
template <class T, index_t W>
struct QuadFacePoints {
  QuadView t;
  const T* P;
  T* out;
  index_t k;

  SPMESH_HD void operator()(index_t f) const {
    const index_t first_edge_point = t.vertices + t.faces;
    const linalg::Index4 q = linalg::load4(t.corners + 4 * f),
                         code = linalg::load4(t.edge_code + 4 * f),
                         twin = linalg::load4(t.twin + 4 * f);
    for (index_t c = 0; c < k; c += W) {
      const index_t m = k - c < W ? k - c : W;
      T p[4][W], fp[W];
#pragma unroll
      for (index_t a = 0; a < 4; ++a)
#pragma unroll
        for (index_t j = 0; j < W; ++j)
          p[a][j] = j < m ? linalg::ldg(P + std::int64_t(q.v[a]) * k + c + j) : T(0);
#pragma unroll
      for (index_t j = 0; j < W; ++j)
        fp[j] = T(0.25) * ((p[0][j] + p[1][j]) + (p[2][j] + p[3][j]));  // QuadFacePointLanes' order
      T* y = out + std::int64_t(t.vertices + f) * k + c;
      for (index_t j = 0; j < m; ++j) y[j] = fp[j];
#pragma unroll
      for (index_t a = 0; a < 4; ++a) {
        if (code.v[a] & 1) continue;
        const T *pi = p[a], *pj = p[(a + 1) & 3];
        T* e = out + std::int64_t(first_edge_point + (code.v[a] >> 1)) * k + c;
        const index_t g = twin.v[a];
        smooth_edge_point<T, W>(e, pi, pj, fp, g < 0 ? nullptr : P, off_edge(t, g), k, c, m);
      }
    }
  }
};

// QuadFacePoints with a lane per corner (executors with 4 or more lanes, the GPU): the four
// threads of a face load a corner each, share the face sum by shuffles, and each makes the
// point of its half-edge's edge if it owns it. Four times the threads of QuadFacePoints, each
// with a quarter of its dependent loads in flight: the kernel is bound by load latency. It runs
// uncapped, with no min_blocks_per_sm: capped, it spills.
template <class T, index_t W>
struct QuadFacePointLanes {
  QuadView t;
  const T* P;
  T* out;
  index_t k;

  SPMESH_HD void operator()(index_t f, int a) const {
    const bool live = f < t.faces;  // lanes past the end only take part in the shuffles
    const index_t h = 4 * f + a, first_edge_point = t.vertices + t.faces;
    const index_t q = live ? linalg::ldg(t.corners + h) : 0,
                  code = live ? linalg::ldg(t.edge_code + h) : 1,
                  g = live ? linalg::ldg(t.twin + h) : -1;
    const bool owns = (code & 1) == 0;
    const OffEdge neighbour = owns ? off_edge(t, g) : OffEdge{};
    for (index_t c = 0; c < k; c += W) {
      const index_t m = k - c < W ? k - c : W;
      T p[W], fp[W], pj[W];
#pragma unroll
      for (index_t j = 0; j < W; ++j) {
        p[j] = live && j < m ? linalg::ldg(P + std::int64_t(q) * k + c + j) : T(0);
        fp[j] = T(0.25) * linalg::lane_all_sum<4>(p[j]);
        pj[j] = linalg::lane_get<4>(p[j], (a + 1) & 3);
      }
      if (!live) continue;
      T* y = out + std::int64_t(t.vertices + f) * k + c;
#pragma unroll
      for (index_t j = 0; j < W; ++j)
        if (j < m && j % 4 == a) y[j] = fp[j];
      if (!owns) continue;
      T* e = out + std::int64_t(first_edge_point + (code >> 1)) * k + c;
      smooth_edge_point<T, W>(e, p, pj, fp, g < 0 ? nullptr : P, neighbour, k, c, m);
    }
  }
};

// Sums over a vertex's ring, rotating from its vertex_edge `first`: its edges' other ends and
// its faces' points (already in out).
template <class T, index_t W>
struct RingSums {
  static constexpr int min_blocks_per_sm = tuning::quad_ring_min_blocks_per_sm;
  index_t edges = 0;
  T ring[W] = {}, faces[W] = {};
  SPMESH_HD T total(index_t j) const { return ring[j] + faces[j]; }  // what the ring weight takes

  template <class View>
  SPMESH_HD RingSums(const View& t, index_t first, const T* P, const T* out, index_t k,
                     index_t c, index_t m) {
    t.for_each_edge_from(first, [&](index_t, index_t other, index_t face) {
      ++edges;
      const T* p = P + std::int64_t(other) * k + c;
#pragma unroll
      for (index_t j = 0; j < W; ++j)
        if (j < m) ring[j] += linalg::ldg(p + j);
      if (face < 0) return;
      const T* g = out + std::int64_t(t.vertices + face) * k + c;  // face points: read-only here
#pragma unroll
      for (index_t j = 0; j < W; ++j)
        if (j < m) faces[j] += linalg::ldg(g + j);
    });
  }
};

// The smooth vertex point (Eq. 14: a = (n - 2)/n, b = 1/n^2) of v, whose vertex_edge is h.
template <class T, index_t W, class View>
SPMESH_HD void smooth_vertex_point(const View& t, index_t h, index_t v, const T* P, T* out,
                                   index_t k) {
  schemes::smooth_vertex_point<T, W, RingSums<T, W>, SmoothMask>(t, h, v, P, out, k);
}

// Smooth vertex points on a quad level (Eq. 14); Ring: RingSums, or ParentRingSums on a parent
// level (group_eval.hpp).
template <class T, index_t W, class Ring = RingSums<T, W>>
using QuadVertexPoints = SmoothVertexPoints<T, W, Ring, SmoothMask, QuadView, 4>;

// What Catmull-Clark's sharp edge points take (SharpEdgePoints): Eq. 2's masks with the crease
// blend, and the face points on either side.
struct EdgeFacePoints {
  SPMESH_HD static EdgeMask mask(double w) { return EdgeWeights{}(w); }
  template <class View, class T>
  SPMESH_HD static const T* beside(const View& t, index_t h, const T*, const T* out, index_t k) {
    return out + std::int64_t(t.vertices + t.face(h)) * k;
  }
  template <class View>
  SPMESH_HD static index_t first_edge_point(const View& t) { return t.vertices + t.faces; }
};

// Face, edge and vertex points of a quad level with the smooth masks, W components at a time;
// by its groups where its parent (non-null) is a quad level too (group_eval.hpp).
template <index_t W, class Exec, class T, class S = typename Exec::space>
void smooth_points(Exec& exec, const QuadLevel<S>& L, const QuadLevel<S>* parent, const T* P,
                   T* out, index_t k, const Region& region) {
  if (parent) {
    const auto q = view(*parent);
    const FaceSet groups(region, parent->faces, region.depth - 1);
    const GroupPoints<T, W> group{{q, P, out, k}};
    if constexpr (Exec::lanes >= 4)
      exec.template for_each_grouped<4>(groups.size(), on_faces(groups, QuadGroupLanes<T, W>{group}));
    else
      exec.for_each(groups.size(), on_faces(groups, QuadGroupPoints<T, W>{group}));
    exec.for_each(groups.size(), on_faces(groups, QuadVertexPoints<T, W, ParentRingSums<T, W>>{
                                                      q, parent->starts.data(), P, out, k}));
    return;
  }
  const FaceSet faces(region, L.faces, region.depth);
  if constexpr (Exec::lanes >= 4)
    exec.template for_each_grouped<4>(faces.size(), on_faces(faces, QuadFacePointLanes<T, W>{view(L), P, out, k}));
  else
    exec.for_each(faces.size(), on_faces(faces, QuadFacePoints<T, W>{view(L), P, out, k}));
  exec.for_each(faces.size(), on_faces(faces, QuadVertexPoints<T, W>{view(L), L.starts.data(), P, out, k}));
}

// A polygon level (the base mesh only, so simple kernels): face points, the mean of the
// corners (Eq. 6)...
template <class T>
struct PolygonFacePoints {
  PolygonView t;
  const T* P;
  T* out;
  index_t k;
  SPMESH_HD void operator()(index_t f) const {
    const index_t lo = t.begin(f), n = t.size(f);
    T* y = out + std::int64_t(t.vertices + f) * k;
    for (index_t c = 0; c < k; ++c) {
      T sum(0);
      for (index_t h = lo; h < lo + n; ++h) sum += P[std::int64_t(t.corners[h]) * k + c];
      y[c] = sum / T(n);
    }
  }
};
// ... then the smooth edge points from them (a boundary edge is a crease) ...
template <class T>
struct PolygonEdgePoints {
  PolygonView t;
  const T* P;
  T* out;
  index_t k;
  SPMESH_HD void operator()(index_t h) const {
    const index_t code = t.edge_code[h], g = t.twin[h];
    if (code & 1) return;  // the edge's point is made at its half-edge along
    const T *pi = P + std::int64_t(t.corners[h]) * k, *pj = P + std::int64_t(t.corners[t.next(h)]) * k;
    const T* f0 = out + std::int64_t(t.vertices + t.face(h)) * k;
    const T* f1 = g < 0 ? nullptr : out + std::int64_t(t.vertices + t.face(g)) * k;
    T* e = out + std::int64_t(t.vertices + t.faces + (code >> 1)) * k;
    for (index_t c = 0; c < k; ++c)
      e[c] = f1 ? T(0.25) * (pi[c] + pj[c] + f0[c] + f1[c]) : T(0.5) * (pi[c] + pj[c]);
  }
};
// ... and the smooth vertex points, one thread per vertex.
template <class T, index_t W>
struct PolygonVertexPoints {
  PolygonView t;
  const T* P;
  T* out;
  index_t k;
  SPMESH_HD void operator()(index_t v) const {
    const index_t h = t.vertex_edge[v];
    if (h >= 0) smooth_vertex_point<T, W>(t, h, v, P, out, k);
  }
};

// One half-edge level: P (L.vertices x k) -> the child's vertex data, into `out`
// (L.child_vertices() x k); `parent`: L's parent, a quad level, or null; a quad level may be
// refined in a region only.
template <class Exec, class Level, class T, class S = typename Exec::space>
void subdivide_into(Exec& exec, const Level& L, const linalg::Dense<T, S>& P,
                    const QuadLevel<S>* parent, const Region& region, linalg::Dense<T, S>& out) {
  const index_t k = P.cols;
  const auto t = view(L);
  const T* p = P.data.data();
  T* y = out.data.data();
  if constexpr (std::is_same_v<Level, QuadLevel<S>>) {
    with_width(k, [&]<index_t W>() { smooth_points<W>(exec, L, parent, p, y, k, region); });
  } else {
    exec.for_each(L.faces, PolygonFacePoints<T>{t, p, y, k});
    exec.for_each(L.edge_code.size(), PolygonEdgePoints<T>{t, p, y, k});
    exec.for_each(L.vertices, PolygonVertexPoints<T, 4>{t, p, y, k});
  }
  copy_unused(exec, L, p, y, k);
  const auto crease = crease_points<EdgeFacePoints, RingSums<T, 4>>(t, L, p, y, k);
  if constexpr (std::is_same_v<Level, QuadLevel<S>>) {
    if (region.listed) {
      exec.for_each(crease_items(L), OwnedInRegion<decltype(crease)>{
                                         .kernel = crease,
                                         .special = L.C.special.data(),
                                         .vertex_edge = L.vertex_edge.data(),
                                         .halves = L.C.halves.data(),
                                         .specials = L.C.special.size(),
                                         .kind = region.kind,
                                         .shift = 2 * region.depth,
                                         .least = region.least});
      return;
    }
  }
  exec.for_each(crease_items(L), crease);
}

}  // namespace detail

// One quad or polygon level: P (L.vertices x k) -> the child's vertex data; a quad level by
// its groups (group_eval.hpp) where its parent, a quad level, is given.
template <class Exec, class Level, class T, class S = typename Exec::space>
  requires std::is_same_v<Level, QuadLevel<S>> || std::is_same_v<Level, PolygonLevel<S>>
linalg::Dense<T, S> level_points(Exec& exec, const Level& L, const linalg::Dense<T, S>& P,
                                 const QuadLevel<S>* parent = nullptr) {
  linalg::Dense<T, S> out(L.child_vertices(), P.cols);
  detail::subdivide_into(exec, L, P, parent, detail::Region{}, out);
  return out;
}

namespace detail {

// The rows of a half-edge level's S_l (an assemble_rows producer; LevelRows of
// refinement.hpp on the half-edge topology).
template <class View>
struct HalfEdgeLevelRows {
  View t;
  const index_t* edge_half;  // per edge: its half-edge along
  SparseRules<SmoothMask> rules;

  SPMESH_HD std::int64_t bound(index_t r) const {
    if (r < t.vertices) {
      std::int64_t n = 3;
      t.for_each_edge(r, [&](index_t, index_t, index_t f) { n += 1 + (f < 0 ? 0 : t.size(f)); });
      return n;
    }
    if (r < t.vertices + t.faces) return t.size(r - t.vertices);
    const index_t h = edge_half[r - t.vertices - t.faces], g = t.twin[h];
    return 2 + t.size(t.face(h)) + (g < 0 ? 0 : t.size(t.face(g)));
  }

  template <class Sink>
  SPMESH_HD void face(index_t f, double weight, Sink& sink) const {
    const index_t lo = t.begin(f), n = t.size(f);
    for (index_t h = lo; h < lo + n; ++h) sink(t.corners[h], weight / n);
  }

  template <class Sink>
  SPMESH_HD void operator()(index_t r, Sink&& sink) const {
    if (r < t.vertices) {
      const VertexMask m = rules.vertex_mask(t, r);
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
      const EdgeMask mask = EdgeWeights{}(rules.edge_weight(e));
      sink(t.corners[h], mask.end), sink(t.corners[t.next(h)], mask.end);
      if (mask.other == 0) return;
      face(t.face(h), mask.other, sink);
      if (tw >= 0) face(t.face(tw), mask.other, sink);
    }
  }
};

}  // namespace detail

// S_l of a quad or polygon level: its eval as a matrix (child vertices x parent vertices).
template <class Exec, class Level, class S = typename Exec::space>
  requires std::is_same_v<Level, QuadLevel<S>> || std::is_same_v<Level, PolygonLevel<S>>
linalg::Csr<double, S> level_matrix(Exec& exec, const Level& L) {
  const auto edge_half = edge_halves(exec, L);
  const auto t = view(L);
  const detail::HalfEdgeLevelRows<decltype(t)> rows{
      t, edge_half.data(), sparse_rules<detail::SmoothMask>(L)};
  return linalg::assemble_rows<double>(exec, L.child_vertices(), L.vertices, rows);
}

}  // namespace spmesh::schemes::catmull_clark
