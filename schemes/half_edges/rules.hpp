// The crease rules on a half-edge level's sparse C (crease_rules.hpp's vertex_rules, Eq. 18-21
// as OpenSubdiv applies them), one thread per special vertex, and where each level's edges sit
// in C without a search.
#pragma once

#include "linalg/intrinsics.hpp"
#include "schemes/crease_rules.hpp"
#include "schemes/half_edges/level.hpp"
#include "schemes/tuning.hpp"

namespace spmesh::schemes {

// Where each edge of a level sits in its C.edges (-1: not there). A child level's list holds the
// descendants of the first level's entries in order (entry j's children at 2 j and 2 j + 1),
// and edge c of the level `depth` levels down descends from first-level edge c >> depth if
// c < E_0 << depth (inner edges are numbered after the halves). So the first level's table
// places every level's edges, with no table per level.
struct SharpPlaces {
  const index_t* first;  // per first-level edge: its place in that level's C.edges, or -1
  index_t first_edges;
  int depth;
  SPMESH_HD index_t operator()(index_t c) const {
    if (std::int64_t(c) >= (std::int64_t(first_edges) << depth)) return -1;
    const index_t p = first[c >> depth];
    return p < 0 ? -1 : (p << depth) | (c & ((index_t(1) << depth) - 1));
  }
};

// The first level's table of SharpPlaces, kept while a build runs.
template <class S>
struct SharpTable {
  linalg::Array<index_t, S> first;
  SharpPlaces at(int depth) const { return {first.data(), first.size(), depth}; }
};
template <class Exec, class S = typename Exec::space>
SharpTable<S> sharp_table(Exec& exec, const HalfEdgeLevel<S>& first) {
  SharpTable<S> table{linalg::Array<index_t, S>(first.edges)};
  index_t* p = table.first.data();
  const index_t* e = first.C.edges.data();
  exec.for_each(first.edges, [=] SPMESH_HD(index_t c) { p[c] = -1; });
  exec.for_each(first.C.edges.size(), [=] SPMESH_HD(index_t j) { p[e[j]] = j; });
  return table;
}

namespace detail {

// vertex_rules (crease_rules.hpp) at one special vertex, walking the level's edges: its mask,
// its pinned sharpness, and the children's sharpness at this end of every sharp edge on it.
// One thread per special vertex, bound by load latency: the ring's half-edges are found first
// (the chain of twins alone), then what each edge needs in rounds of independent loads (its
// code, far end and twin; its place in C; its sharpness), kept in registers for vertex_rules'
// passes. A vertex of more than `kept` edges walks the ring on every pass instead.
template <class View, class SmoothMask>
struct HalfEdgeVertexRules {
  View t;
  SharpPlaces sharp_of;  // per edge, its place in C.edges, or -1 (without a search)
  const float* sharp_values;
  Options options;
  const index_t* special;
  const float* special_values;
  float* special_sharpness;
  double *self, *ring, *crease;
  index_t *crease_u, *crease_w;
  float* child_at;
  std::uint8_t* smooth;

  static constexpr int kept = tuning::vertex_rules_kept_edges;

  // What vertex_rules sees of the edge of ring half-edge g (out of v, or into v for the last
  // edge of a boundary vertex): f(sharpness, boundary, far end, where child_at keeps this end's
  // child sharpness or -1). The edge's half-edge along starts at v when g runs out of v along
  // it (even code), or into v against it.
  SPMESH_HD index_t child_slot(index_t j, index_t code, bool into) const {
    return j < 0 ? -1 : 2 * j + ((code & 1) ^ (into ? 1 : 0));
  }
  template <class F>
  SPMESH_HD void walk(index_t v, F&& f) const {
    t.for_each_edge(v, [&](index_t g, index_t other, index_t face) {
      const index_t code = t.edge_code[g], j = sharp_of(code >> 1);
      f(j < 0 ? creasing::none : sharp_values[j], t.twin[g] < 0, other,
        child_slot(j, code, face < 0));
    });
  }

  SPMESH_HD void operator()(index_t k) const {
    const index_t v = special[k];
    float vs = special_values[k];
    index_t half[kept];
    int n = 0;
    bool into = false;  // the last edge's half-edge runs into v (a boundary vertex's)
    t.for_each_edge(v, [&](index_t g, index_t, index_t face) {
      if (n < kept) half[n] = g;
      ++n, into = face < 0;
    });
    index_t code[kept], other[kept], slot[kept];
    bool boundary[kept];
    float sharpness[kept];
#pragma unroll
    for (int i = 0; i < kept; ++i) {
      if (i >= n) continue;
      const bool in = into && i == n - 1;
      code[i] = linalg::ldg(t.edge_code + half[i]), boundary[i] = linalg::ldg(t.twin + half[i]) < 0;
      other[i] = linalg::ldg(t.corners + (in ? half[i] : t.next(half[i])));
    }
#pragma unroll
    for (int i = 0; i < kept; ++i)
      if (i < n) slot[i] = child_slot(sharp_of(code[i] >> 1), code[i], into && i == n - 1);
#pragma unroll
    for (int i = 0; i < kept; ++i)
      if (i < n)
        sharpness[i] = slot[i] < 0 ? creasing::none : linalg::ldg(sharp_values + slot[i] / 2);
    bool on_boundary = false;
#pragma unroll
    for (int i = 0; i < kept; ++i) on_boundary = on_boundary || (i < n && boundary[i]);
    auto edges = [&](auto&& f) {
      if (n > kept) return walk(v, f);
#pragma unroll
      for (int i = 0; i < kept; ++i)
        if (i < n) f(sharpness[i], boundary[i], other[i], slot[i]);
    };
    if (n > kept) walk(v, [&](float, bool b, index_t, index_t) { on_boundary = on_boundary || b; });
    const VertexMask m = vertex_rules(vs, options, SmoothMask{}, edges, [&](index_t p, float c) {
      if (p >= 0) child_at[p] = c;
    });
    special_sharpness[k] = vs;
    self[k] = m.self, ring[k] = m.ring, crease[k] = m.crease;
    crease_u[k] = m.u, crease_w[k] = m.w;
    const VertexMask s = SmoothMask{}(n);
    smooth[k] = !on_boundary && m.crease == 0 && m.self == s.self && m.ring == s.ring ? 1 : 0;
  }
};

}  // namespace detail

// The crease rules of a half-edge level (its C must be set) with the scheme's smooth mask;
// view(L) is the scheme's view of its level, `places` the table of its build's first level at
// this level's depth.
template <class SmoothMask, class Exec, class Level, class S = typename Exec::space>
HalfEdgeRules<S> half_edge_rules(Exec& exec, const Level& L, const Options& options,
                                 SharpPlaces places) {
  using linalg::Array;
  const auto t = view(L);
  const auto& C = L.C;
  const index_t sharp = C.edges.size(), n = C.special.size();
  HalfEdgeRules<S> r;
  r.special_sharpness = Array<float, S>(n);
  r.self = Array<double, S>(n), r.ring = Array<double, S>(n), r.crease = Array<double, S>(n);
  r.crease_u = Array<index_t, S>(n), r.crease_w = Array<index_t, S>(n);
  r.child_at = Array<float, S>(2 * sharp);
  r.smooth = Array<std::uint8_t, S>(n);
  exec.for_each(n, detail::HalfEdgeVertexRules<decltype(t), SmoothMask>{
                       .t = t,
                       .sharp_of = places,
                       .sharp_values = C.edge_values.data(),
                       .options = options,
                       .special = C.special.data(),
                       .special_values = C.special_values.data(),
                       .special_sharpness = r.special_sharpness.data(),
                       .self = r.self.data(),
                       .ring = r.ring.data(),
                       .crease = r.crease.data(),
                       .crease_u = r.crease_u.data(),
                       .crease_w = r.crease_w.data(),
                       .child_at = r.child_at.data(),
                       .smooth = r.smooth.data()});
  return r;
}

// The rules step of a half-edge build (a scheme's level_rules, subdivision.hpp): level l's
// crease rules with the scheme's smooth mask, its edges placed by its first level's table.
template <class SmoothMask, class S>
struct CreaseRulesByLevel {
  SharpTable<S> table;
  Options options;
  template <class Exec, class Level>
  void operator()(Exec& exec, Level& L, int l) const {
    L.rules = half_edge_rules<SmoothMask>(exec, L, options, table.at(l));
  }
};
template <class SmoothMask, class Exec, class Level, class S = typename Exec::space>
CreaseRulesByLevel<SmoothMask, S> crease_rules_by_level(Exec& exec, const Level& first,
                                                        const Options& options) {
  return {sharp_table(exec, first), options};
}

}  // namespace spmesh::schemes
