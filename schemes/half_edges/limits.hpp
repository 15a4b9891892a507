// Limit positions and tangents at the vertices of a half-edge level, from each vertex's limit
// masks (what OpenSubdiv's Far::PrimvarRefiner::Limit computes on its last level): the rule
// the level's sharpness gives the vertex picks the masks, the scheme gives their weights
// (Scheme::LimitMask: catmull_clark/limit_masks.hpp, loop/limit_masks.hpp), and one thread per
// vertex walks its ring for their terms: the vertex, the far end of each edge and, where the
// scheme weighs them, the corner of each face across from the vertex. The terms are summed over
// vertex data (vertex_limits) or written as the rows of sparse matrices (limit_matrices).
#pragma once

#include "linalg/convert.hpp"
#include "linalg/formats.hpp"
#include "schemes/half_edges/rules.hpp"
#include "schemes/plan.hpp"

#include <array>
#include <cstdint>
#include <utility>

namespace spmesh::schemes {

// A vertex's rule for its limit (OpenSubdiv's Sdc::Crease::Rule at the level): a corner where
// the vertex is sharp or more than two of its edges are, a crease where two are, else smooth
// (a dart, one sharp edge, takes the smooth masks).
enum class LimitRule : std::uint8_t { smooth, crease, corner };

// What a scheme's limit mask knows of a vertex's ring, walked from its vertex_edge
// counterclockwise (on the boundary from its leading boundary edge): its edges, its faces (face
// i between edges i and i + 1; one fewer than edges on the boundary), its rule, and for a
// crease the places of its two sharp edges (the first and the last of the ring).
struct LimitRing {
  int edges = 0, faces = 0;
  LimitRule rule = LimitRule::smooth;
  int crease[2] = {0, 0};
};

// One entry of a vertex's three limit masks: its weight in the position and in the two tangents.
struct LimitWeights {
  double position = 0, first = 0, second = 0;
};

// A level's vertices' limit masks as terms (the work of one thread per vertex): a first walk of
// a vertex's ring finds its rule, a second lists the masks' terms, f(u, weights) for each vertex u
// of the ring (the vertex itself last). The level's arrays: its view, C's edges placed by
// SharpPlaces, each vertex's sharpness (0 off C.special) and its ring's start (ring_starts).
template <class View, class Mask>
struct LimitTerms {
  View t;
  SharpPlaces sharp_of;
  const float *edge_sharpness, *vertex_sharpness;
  const std::uint8_t* turned;  // per vertex: its ring starts half way round

  // Where v's ring starts: its vertex_edge, or (an inner vertex) the edge half way round.
  SPMESH_HD index_t start(index_t v) const {
    index_t first = t.vertex_edge[v];
    if (turned[v]) {
      int edges = 0, at = 0;
      t.for_each_edge(v, [&](index_t, index_t, index_t) { ++edges; });
      t.for_each_edge(v, [&](index_t h, index_t, index_t) {
        if (at++ == edges / 2) first = h;
      });
    }
    return first;
  }
  // At most this many terms (a bound for the matrices' rows).
  SPMESH_HD std::int64_t bound(index_t v) const {
    std::int64_t n = 1;
    t.for_each_edge(v, [&](index_t, index_t, index_t face) { n += 1 + (Mask::face_weights && face >= 0); });
    return n;
  }
  template <class F>
  SPMESH_HD void operator()(index_t v, F&& f) const {
    const index_t first = start(v);
    LimitRing ring;
    int sharp = 0;
    t.for_each_edge_from(first, [&](index_t h, index_t, index_t face) {
      const index_t j = sharp_of(linalg::ldg(t.edge_code + h) >> 1);
      if (j >= 0 && creasing::is_sharp(linalg::ldg(edge_sharpness + j))) {
        if (sharp++ == 0) ring.crease[0] = ring.edges;
        ring.crease[1] = ring.edges;
      }
      ring.faces += face >= 0, ++ring.edges;
    });
    if (ring.edges == 0) return f(v, LimitWeights{1, 0, 0});  // an unused vertex: where it is, no tangents
    ring.rule = creasing::is_sharp(vertex_sharpness[v]) || sharp > 2 ? LimitRule::corner
                : sharp == 2                                         ? LimitRule::crease
                                                                     : LimitRule::smooth;
    const Mask mask(ring);
    int i = 0;
    t.for_each_edge_from(first, [&](index_t h, index_t other, index_t face) {
      if constexpr (Mask::face_weights)
        if (face >= 0) f(linalg::ldg(t.corners + t.next(t.next(h))), mask.face(i));
      f(other, mask.edge(i++));
    });
    f(v, mask.vertex());
  }
};

namespace detail {

// The masks summed over P, four columns at a time.
template <class Terms, class T>
struct VertexLimits {
  Terms terms;
  const T* P;
  T *position, *first, *second;
  index_t k;

  SPMESH_HD void operator()(index_t v) const {
    constexpr int block = 4;
    for (index_t c0 = 0; c0 < k; c0 += block) {
      const int n = int(k - c0 < block ? k - c0 : block);
      T sum[3][block] = {};
      terms(v, [&](index_t u, const LimitWeights& w) {
        for (int c = 0; c < n; ++c) {
          const T x = P[std::int64_t(u) * k + c0 + c];
          sum[0][c] += T(w.position) * x, sum[1][c] += T(w.first) * x, sum[2][c] += T(w.second) * x;
        }
      });
      T* out[3] = {position, first, second};
      for (int m = 0; m < 3; ++m)
        for (int c = 0; c < n; ++c) out[m][std::int64_t(v) * k + c0 + c] = sum[m][c];
    }
  }
};

// One of the masks as the rows of a matrix (linalg::assemble_rows' producer): its non-zero
// weights, `which` 0 for the position, 1 and 2 for the tangents.
template <class Terms>
struct LimitRows {
  Terms terms;
  int which;
  SPMESH_HD std::int64_t bound(index_t v) const { return terms.bound(v); }
  template <class Sink>
  SPMESH_HD void operator()(index_t v, Sink&& sink) const {
    terms(v, [&](index_t u, const LimitWeights& w) {
      const double x = which == 0 ? w.position : which == 1 ? w.first : w.second;
      if (x != 0) sink(u, x);
    });
  }
};

}  // namespace detail

// The LimitTerms of half-edge level L (its rules made) with the scheme's Mask; `places` the
// build's SharpTable at L's depth, `turned` ring_starts'. `sharpness` is scratch it fills and
// the terms read (L.vertices floats).
template <class Mask, class Exec, class Level, class S = typename Exec::space>
LimitTerms<decltype(view(std::declval<const Level&>())), Mask> limit_terms(
    Exec& exec, const Level& L, SharpPlaces places, const linalg::Array<std::uint8_t, S>& turned,
    linalg::Array<float, S>& sharpness) {
  // Each vertex's sharpness, boundary corners pinned (the rules'), 0 off C.special.
  sharpness = linalg::Array<float, S>(L.vertices);
  float* vs = sharpness.data();
  const index_t* special = L.C.special.data();
  const float* pinned = L.rules.special_sharpness.data();
  exec.for_each(L.vertices, [=] SPMESH_HD(index_t v) { vs[v] = creasing::none; });
  exec.for_each(L.C.special.size(), [=] SPMESH_HD(index_t j) { vs[special[j]] = pinned[j]; });
  return {view(L), places, L.C.edge_values.data(), vs, turned.data()};
}

// The limit positions and the two tangents of every vertex of a level (`terms`, limit_terms'),
// P its vertex data. A vertex in no face keeps its point, with zero tangents.
template <class Exec, class Terms, class T, class S = typename Exec::space>
void vertex_limits(Exec& exec, const Terms& terms, const linalg::Dense<T, S>& P, linalg::Dense<T, S>& position,
                   linalg::Dense<T, S>& first, linalg::Dense<T, S>& second) {
  const index_t V = P.rows;
  position = linalg::Dense<T, S>(V, P.cols), first = linalg::Dense<T, S>(V, P.cols),
  second = linalg::Dense<T, S>(V, P.cols);
  exec.for_each(V, detail::VertexLimits<Terms, T>{terms, P.data.data(), position.data.data(), first.data.data(),
                                                   second.data.data(), P.cols});
}

// The three masks of a level's `vertices` vertices as matrices, vertices x vertices (row v:
// vertex v's weights), canonical: vertex_limits' data is their product with P.
template <class Exec, class Terms, class S = typename Exec::space>
std::array<linalg::Csr<double, S>, 3> limit_matrices(Exec& exec, const Terms& terms, index_t vertices) {
  auto mask = [&](int which) {
    return linalg::assemble_rows<double>(exec, vertices, vertices, detail::LimitRows<Terms>{terms, which});
  };
  return {mask(0), mask(1), mask(2)};
}

}  // namespace spmesh::schemes
