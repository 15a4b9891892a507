// Loop eval and level matrix on half-edge levels (triangles.hpp; paper appendix B, section
// 4.3): one thread per half-edge along an edge makes its smooth edge point (Eq. 35, 36's
// weights), one thread per face walks the rings of the vertices that start in it for their
// smooth vertex points (Eq. 33, 37); the few sharp edges and special vertices are then redone
// with their crease masks. One writer per output, no atomics: the same bits every run.
#pragma once

#include "linalg/convert.hpp"
#include "linalg/search.hpp"
#include "schemes/loop/group_eval.hpp"
#include "schemes/loop/plan.hpp"
#include "schemes/loop/triangles.hpp"
#include "schemes/tuning.hpp"

#include <cstdint>
#include <string>

namespace spmesh::schemes::loop {

namespace detail {

// Smooth edge points, one thread per half-edge: the one along its edge makes 3/8 (p_i + p_j) +
// 1/8 (o_0 + o_1), o the vertices opposite the edge in its two triangles; on the boundary
// (p_i + p_j) / 2.
template <class T>
struct TriangleEdgePoints {
  TriangleView t;
  const T* P;
  T* out;
  index_t k;

  SPMESH_HD void operator()(index_t h) const {
    const index_t code = linalg::ldg(t.edge_code + h);
    if (code & 1) return;
    const index_t g = linalg::ldg(t.twin + h);
    const T *pi = P + std::int64_t(linalg::ldg(t.corners + h)) * k,
            *pj = P + std::int64_t(linalg::ldg(t.corners + t.next(h))) * k;
    T* y = out + std::int64_t(t.vertices + (code >> 1)) * k;
    if (g < 0) {
      for (index_t c = 0; c < k; ++c) y[c] = T(0.5) * (linalg::ldg(pi + c) + linalg::ldg(pj + c));
      return;
    }
    const T *o0 = P + std::int64_t(linalg::ldg(t.corners + t.prev(h))) * k,
            *o1 = P + std::int64_t(linalg::ldg(t.corners + t.prev(g))) * k;
    for (index_t c = 0; c < k; ++c)
      y[c] = T(0.375) * (linalg::ldg(pi + c) + linalg::ldg(pj + c)) +
             T(0.125) * (linalg::ldg(o0 + c) + linalg::ldg(o1 + c));
  }
};

// The sum over a vertex's 1-ring (Eq. 37's E P row), m <= W components from column c, rotating
// from its vertex_edge `first`; and the valence (`out` is not read).
template <class T, index_t W>
struct RingSum {
  static constexpr int min_blocks_per_sm = tuning::triangle_ring_min_blocks_per_sm;  // its walks
  index_t edges = 0;
  T sum[W] = {};
  SPMESH_HD T total(index_t j) const { return sum[j]; }  // what the ring weight takes

  SPMESH_HD RingSum(const TriangleView& t, index_t first, const T* P, const T*, index_t k,
                    index_t c, index_t m) {
    t.for_each_edge_from(first, [&](index_t, index_t other, index_t) {
      ++edges;
      const T* p = P + std::int64_t(other) * k + c;
#pragma unroll
      for (index_t j = 0; j < W; ++j)
        if (j < m) sum[j] += linalg::ldg(p + j);
    });
  }
};

// Smooth vertex points (Eq. 33 with Loop's smooth mask); Ring: RingSum, or ParentRingSum on a
// parent level (group_eval.hpp).
template <class T, index_t W, class Ring = RingSum<T, W>>
using TriangleVertexPoints = SmoothVertexPoints<T, W, Ring, SmoothMask, TriangleView, 3>;

// What Loop's sharp edge points take (SharpEdgePoints): Eq. 35's masks with the crease blend,
// and the vertices opposite the edge.
struct EdgeOppositeVertices {
  SPMESH_HD static EdgeMask mask(double w) { return EdgeWeights{}(w); }
  template <class T>
  SPMESH_HD static const T* beside(const TriangleView& t, index_t h, const T* P, const T*,
                                   index_t k) {
    return P + std::int64_t(t.corners[t.prev(h)]) * k;
  }
  SPMESH_HD static index_t first_edge_point(const TriangleView& t) { return t.vertices; }
};

// The rows of a triangle level's S_l (an assemble_rows producer; LevelRows of refinement.hpp
// on the half-edge topology).
struct TriangleLevelRows {
  TriangleView t;
  const index_t* edge_half;  // per edge: its half-edge along
  SparseRules<SmoothMask> rules;

  SPMESH_HD std::int64_t bound(index_t r) const {
    if (r >= t.vertices) return 4;
    std::int64_t n = 3;
    t.for_each_edge(r, [&](index_t, index_t, index_t) { ++n; });
    return n;
  }

  template <class Sink>
  SPMESH_HD void operator()(index_t r, Sink&& sink) const {
    if (r < t.vertices) {
      const VertexMask m = rules.vertex_mask(t, r);
      sink(r, m.self);
      if (m.ring != 0) t.for_each_edge(r, [&](index_t, index_t other, index_t) { sink(other, m.ring); });
      if (m.crease != 0) sink(m.u, m.crease), sink(m.w, m.crease);
      return;
    }
    const index_t e = r - t.vertices, h = edge_half[e], g = t.twin[h];
    const EdgeMask mask = EdgeWeights{}(rules.edge_weight(e));
    sink(t.corners[h], mask.end), sink(t.corners[t.next(h)], mask.end);
    if (mask.other == 0) return;
    sink(t.corners[t.prev(h)], mask.other);
    if (g >= 0) sink(t.corners[t.prev(g)], mask.other);
  }
};

// The smooth edge and vertex points of level L, W components at a time; by its groups where
// its parent (non-null) is given (group_eval.hpp).
template <index_t W, class Exec, class T, class S = typename Exec::space>
void smooth_points(Exec& exec, const TriangleLevel<S>& L, const TriangleLevel<S>* parent,
                   const T* P, T* out, index_t k) {
  if (!parent) {
    const auto t = view(L);
    exec.for_each(L.edge_code.size(), TriangleEdgePoints<T>{t, P, out, k});
    exec.for_each(L.faces, TriangleVertexPoints<T, W>{t, L.starts.data(), P, out, k});
    return;
  }
  const auto q = view(*parent);
  const GroupPoints<T, W> group{{q, P, out, k}};
  if constexpr (Exec::lanes >= 4)
    exec.template for_each_grouped<4>(parent->faces, TriangleGroupLanes<T, W>{group});
  else
    exec.for_each(parent->faces, TriangleGroupPoints<T, W>{group});
  exec.for_each(parent->faces, TriangleVertexPoints<T, W, ParentRingSum<T, W>>{
                                   q, parent->starts.data(), P, out, k});
}

}  // namespace detail

// One triangle level: P (L.vertices x k) -> the child's vertex data; by its groups
// (group_eval.hpp) where its parent is given.
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> level_points(Exec& exec, const TriangleLevel<S>& L,
                                 const linalg::Dense<T, S>& P,
                                 const TriangleLevel<S>* parent = nullptr) {
  const index_t k = P.cols;
  linalg::Dense<T, S> out(L.child_vertices(), k);
  const auto t = view(L);
  const T* p = P.data.data();
  T* y = out.data.data();
  with_width(k, [&]<index_t W>() { detail::smooth_points<W>(exec, L, parent, p, y, k); });
  copy_unused(exec, L, p, y, k);
  exec.for_each(crease_items(L),
                crease_points<detail::EdgeOppositeVertices, detail::RingSum<T, 4>>(t, L, p, y, k));
  return out;
}

// S_l of a triangle level: its eval as a matrix (child vertices x parent vertices).
template <class Exec, class S = typename Exec::space>
linalg::Csr<double, S> level_matrix(Exec& exec, const TriangleLevel<S>& L) {
  const auto edge_half = edge_halves(exec, L);
  const detail::TriangleLevelRows rows{view(L), edge_half.data(),
                                       sparse_rules<detail::SmoothMask>(L)};
  return linalg::assemble_rows<double>(exec, L.child_vertices(), L.vertices, rows);
}

}  // namespace spmesh::schemes::loop
