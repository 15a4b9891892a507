// Limit positions and tangents at the vertices of a half-edge level, from each vertex's limit
// masks (what OpenSubdiv's Far::PrimvarRefiner::Limit computes on its last level): the rule
// the level's sharpness gives the vertex picks the masks, the scheme gives their weights
// (Scheme::LimitMask: catmull_clark/limit_masks.hpp, loop/limit_masks.hpp), and one thread per
// vertex sums them over its ring: the vertex, the far end of each edge and, where the scheme
// weighs them, the corner of each face across from the vertex.
#pragma once

#include "linalg/formats.hpp"
#include "schemes/half_edges/rules.hpp"
#include "schemes/plan.hpp"

#include <cstdint>

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

namespace detail {

// One thread per vertex: a first walk of the ring finds its rule, a second sums the masks, up
// to four columns of the data at a time.
template <class View, class Mask, class T>
struct VertexLimits {
  View t;
  SharpPlaces sharp_of;
  const float *edge_sharpness, *vertex_sharpness;  // C.edge_values; per vertex (0: none)
  const std::uint8_t* turned;  // per vertex: its ring starts half way round (ring_starts)
  const T* P;
  T *position, *first, *second;
  index_t k;

  SPMESH_HD void operator()(index_t v) const {
    // Where the ring starts: v's vertex_edge, or (an inner vertex) the edge half way round.
    index_t start = t.vertex_edge[v];
    if (turned[v]) {
      int edges = 0, at = 0;
      t.for_each_edge(v, [&](index_t, index_t, index_t) { ++edges; });
      t.for_each_edge(v, [&](index_t h, index_t, index_t) {
        if (at++ == edges / 2) start = h;
      });
    }
    LimitRing ring;
    int sharp = 0;
    t.for_each_edge_from(start, [&](index_t h, index_t, index_t face) {
      const index_t j = sharp_of(linalg::ldg(t.edge_code + h) >> 1);
      if (j >= 0 && creasing::is_sharp(linalg::ldg(edge_sharpness + j))) {
        if (sharp++ == 0) ring.crease[0] = ring.edges;
        ring.crease[1] = ring.edges;
      }
      ring.faces += face >= 0, ++ring.edges;
    });
    ring.rule = creasing::is_sharp(vertex_sharpness[v]) || sharp > 2 ? LimitRule::corner
                : sharp == 2                                         ? LimitRule::crease
                                                                     : LimitRule::smooth;
    constexpr int block = 4;
    for (index_t c0 = 0; c0 < k; c0 += block) {
      const int n = int(k - c0 < block ? k - c0 : block);
      T sum[3][block] = {};
      auto add = [&](index_t u, const LimitWeights& w) {
        for (int c = 0; c < n; ++c) {
          const T x = P[std::int64_t(u) * k + c0 + c];
          sum[0][c] += T(w.position) * x, sum[1][c] += T(w.first) * x, sum[2][c] += T(w.second) * x;
        }
      };
      if (ring.edges == 0) {  // an unused vertex: where it is, no tangents
        add(v, {1, 0, 0});
      } else {
        const Mask mask(ring);
        int i = 0;
        t.for_each_edge_from(start, [&](index_t h, index_t other, index_t face) {
          if constexpr (Mask::face_weights)
            if (face >= 0) add(linalg::ldg(t.corners + t.next(t.next(h))), mask.face(i));
          add(other, mask.edge(i++));
        });
        add(v, mask.vertex());
      }
      T* out[3] = {position, first, second};
      for (int m = 0; m < 3; ++m)
        for (int c = 0; c < n; ++c) out[m][std::int64_t(v) * k + c0 + c] = sum[m][c];
    }
  }
};

}  // namespace detail

// The limit positions and the two tangents of every vertex of half-edge level L (its rules
// made), P its vertex data, with the scheme's Mask; `places` the build's SharpTable at L's depth,
// `turned` ring_starts'. A vertex in no face keeps its point, with zero tangents.
template <class Mask, class Exec, class Level, class T, class S = typename Exec::space>
void vertex_limits(Exec& exec, const Level& L, SharpPlaces places, const linalg::Array<std::uint8_t, S>& turned,
                   const linalg::Dense<T, S>& P, linalg::Dense<T, S>& position, linalg::Dense<T, S>& first,
                   linalg::Dense<T, S>& second) {
  check_vertex_data(P.rows, L.vertices, "vertex_limits");
  position = linalg::Dense<T, S>(L.vertices, P.cols), first = linalg::Dense<T, S>(L.vertices, P.cols),
  second = linalg::Dense<T, S>(L.vertices, P.cols);
  // Each vertex's sharpness, boundary corners pinned (the rules'), 0 off C.special.
  linalg::Array<float, S> sharpness(L.vertices);
  float* vs = sharpness.data();
  const index_t* special = L.C.special.data();
  const float* pinned = L.rules.special_sharpness.data();
  exec.for_each(L.vertices, [=] SPMESH_HD(index_t v) { vs[v] = creasing::none; });
  exec.for_each(L.C.special.size(), [=] SPMESH_HD(index_t j) { vs[special[j]] = pinned[j]; });
  const auto t = view(L);
  exec.for_each(L.vertices, detail::VertexLimits<decltype(t), Mask, T>{
                                t, places, L.C.edge_values.data(), vs, turned.data(), P.data.data(),
                                position.data.data(), first.data.data(), second.data.data(), P.cols});
}

}  // namespace spmesh::schemes
