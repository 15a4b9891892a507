// The crease rules of one level, shared by every scheme that inserts a point per edge and moves
// every vertex (Catmull-Clark, Loop): the crease matrix C on the level's edges (paper section
// 3.3, Eq. 18-21), each vertex's rule and mask as OpenSubdiv decides them (rules.md "Semi-sharp
// creases"), each edge's crease weight, and the child level's C. Only the smooth vertex mask
// differs between schemes: a functor of the valence. VertexMask, VertexPoints and VertexRows
// serve sqrt(3) as well, whose boundary rule has the same form.
#pragma once

#include "linalg/formats.hpp"
#include "schemes/creasing.hpp"
#include "schemes/tags.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace spmesh::schemes {

// A vertex point as a_i p_i + b_i (ring) + d_i (p_u + p_w): the ring is the 1-ring
// neighbours (and, for Catmull-Clark, the adjacent face points); u and w are the ends of the
// crease (or -1). Corner: a = 1; crease: a = 3/4, d = 1/8; smooth: the scheme's mask.
struct VertexMask {
  double self = 1, ring = 0, crease = 0;
  index_t u = -1, w = -1;

  // parent_weight * this + (1 - parent_weight) * child (OpenSubdiv's blend of two rules).
  SPMESH_HD void blend(const VertexMask& child, double parent_weight) {
    const double c = 1.0 - parent_weight;
    self = parent_weight * self + c * child.self;
    ring = parent_weight * ring + c * child.ring;
    crease = parent_weight * crease + c * child.crease;
    if (child.u >= 0) u = child.u, w = child.w;
  }
};

// Per-level results of the rules, in the level's edge order (E's upper triangle) and vertex order.
template <class S>
struct CreaseRules {
  linalg::Array<float, S> edge_sharpness, vertex_sharpness;  // this level's C
  linalg::Array<double, S> edge_crease;  // edge point blend: 0 smooth, 1 crease, between: w
  linalg::Array<double, S> vertex_self, vertex_ring, vertex_crease;  // a, b, d of VertexMask
  linalg::Array<index_t, S> crease_u, crease_w;
};

// The rules at one vertex (OpenSubdiv's): the parent rule from this level's sharpness, the
// child rule from the decayed sharpness, and their blend by the fractional weight. `edges(f)`
// calls f(s, boundary, other, p) for every incident edge in a fixed order (s its sharpness,
// other its far end, p an id), and child(p, c) receives each edge's child sharpness at this
// vertex. vs is the vertex's sharpness, pinned here for a boundary corner under
// edge_and_corner; smooth(n) is the scheme's smooth mask. Any walk over a vertex's edges (E's
// row, a quad level's half-edges) gives the same rules.
template <class SmoothMask, class Edges, class Child>
SPMESH_HD VertexMask vertex_rules(float& vs, const Options& options, SmoothMask smooth,
                                  Edges&& edges, Child&& child) {
  int n = 0, sharp = 0, semi = 0, boundary = 0;
  float semi_sum = 0;
  edges([&](float s, bool on_boundary, index_t, index_t) {
    ++n;
    sharp += creasing::is_sharp(s) ? 1 : 0;
    if (creasing::is_semi_sharp(s)) ++semi, semi_sum += s;
    boundary += on_boundary ? 1 : 0;
  });
  // A boundary vertex with two edges has one face: a corner under edge-and-corner.
  if (options.boundary == Boundary::edge_and_corner && n == 2 && boundary > 0)
    vs = creasing::infinite;

  auto child_of = [&](float s) {
    return creasing::child_edge_sharpness(options.crease, s, n, semi, semi_sum);
  };
  int child_sharp = 0;
  creasing::FractionalWeight fraction;
  const float child_vs = creasing::decrement(vs);
  fraction.add(vs, child_vs);
  edges([&](float s, bool, index_t, index_t p) {
    const float c = child_of(s);
    child(p, c);
    child_sharp += creasing::is_sharp(c) ? 1 : 0;
    fraction.add(s, c);
  });

  // The mask of a rule; crease ends are the first two edges whose sharpness (parent's or
  // child's, as sharpness_of gives it) is non-zero, as OpenSubdiv picks them.
  auto mask = [&](creasing::Rule rule, auto sharpness_of) {
    if (rule == creasing::Rule::smooth || rule == creasing::Rule::dart) return smooth(n);
    VertexMask m;
    if (rule == creasing::Rule::crease) {
      m.self = 0.75, m.crease = 0.125;
      edges([&](float s, bool, index_t other, index_t) {
        if (!creasing::is_sharp(sharpness_of(s))) return;
        if (m.u < 0) m.u = other;
        else if (m.w < 0) m.w = other;
      });
    }
    return m;
  };
  const auto parent_rule = creasing::vertex_rule(vs, sharp);
  const auto child_rule = creasing::vertex_rule(child_vs, child_sharp);
  VertexMask m;  // an isolated vertex (n = 0) stays where it is
  if (n == 0) return m;
  m = mask(parent_rule, [](float s) { return s; });
  const bool smooth_parent =
      parent_rule == creasing::Rule::smooth || parent_rule == creasing::Rule::dart;
  if (!smooth_parent && child_rule != parent_rule)
    m.blend(mask(child_rule, child_of), fraction.value());
  return m;
}

namespace detail {

// vertex_rules over E's rows; also writes the child sharpness of every incident edge at this
// vertex (one per entry of E).
template <class SmoothMask>
struct VertexRules {
  linalg::CompressedView<index_t> E;  // values: face sides of each edge (1 = boundary)
  const index_t* edge_of;             // edge index of every entry of E
  const float* edge_sharpness;
  float* vertex_sharpness;  // in: from C; out: with boundary corners pinned
  Options options;
  SmoothMask smooth;
  float* child_at;  // out: child sharpness of the edge of entry p at its row's vertex
  double *self, *ring, *crease;
  index_t *crease_u, *crease_w;

  SPMESH_HD void operator()(index_t i) const {
    auto edges = [&](auto&& f) {
      for (index_t p = E.begin(i); p < E.end(i); ++p)
        f(edge_sharpness[edge_of[p]], E.values[p] == 1, E.indices[p], p);
    };
    const VertexMask m = vertex_rules(vertex_sharpness[i], options, smooth, edges,
                                      [&](index_t p, float c) { child_at[p] = c; });
    self[i] = m.self, ring[i] = m.ring, crease[i] = m.crease;
    crease_u[i] = m.u, crease_w[i] = m.w;
  }
};

// Edge rules and the child crease matrix: an edge with sharpness s > 0 whose two children stay
// sharp is a crease (w = 1); otherwise it blends with w = s, as OpenSubdiv does. The children
// of edge e = {i, j} are {i, e'} and {j, e'}, e' = first_edge_point + e its edge point.
struct EdgeRules {
  linalg::CompressedView<index_t> E;
  const index_t *from, *to;
  const float *edge_sharpness, *child_at;
  index_t first_edge_point;
  double* crease;
  index_t *child_row, *child_col;  // 2 per edge
  float* child_sharpness;

  SPMESH_HD void operator()(index_t e) const {
    const float s = edge_sharpness[e];
    const float c0 = child_at[E.find(from[e], to[e])], c1 = child_at[E.find(to[e], from[e])];
    crease[e] = !creasing::is_sharp(s) ? 0.0
                : creasing::is_sharp(c0) && creasing::is_sharp(c1) ? 1.0
                                                                  : static_cast<double>(s);
    const index_t mid = first_edge_point + e;
    child_row[2 * e] = from[e], child_col[2 * e] = mid, child_sharpness[2 * e] = c0;
    child_row[2 * e + 1] = to[e], child_col[2 * e + 1] = mid, child_sharpness[2 * e + 1] = c1;
  }
};

// The crease matrix C on this level's edges (E's order); boundary edges (one face side) are
// infinitely sharp whatever C says.
template <class Exec, class S = typename Exec::space>
linalg::Array<float, S> edge_sharpness(Exec& exec, const linalg::Csr<index_t, S>& E,
                                       const linalg::Array<index_t, S>& edge_of,
                                       const linalg::Array<index_t, S>& sides,
                                       const linalg::Coo<float, S>& C) {
  linalg::Array<float, S> sharpness(sides.size());
  const index_t* sd = sides.data();
  float* es = sharpness.data();
  exec.for_each(sides.size(), [=] SPMESH_HD(index_t e) {
    es[e] = sd[e] == 1 ? creasing::infinite : creasing::none;
  });
  const auto ev = E.view();
  const index_t *ci = C.row_indices.data(), *cj = C.col_indices.data(), *eo = edge_of.data();
  const index_t missing =
      exec.count_if(C.nnz(), [=] SPMESH_HD(index_t k) { return ev.find(ci[k], cj[k]) < 0; });
  if (missing > 0)
    throw InputError("subdivision build: the crease matrix names " + std::to_string(missing) +
                     " vertex pairs that share no edge");
  const float* cs = C.values.data();
  exec.for_each(C.nnz(), [=] SPMESH_HD(index_t k) {
    float& s = es[eo[ev.find(ci[k], cj[k])]];
    s = cs[k] > s ? cs[k] : s;
  });
  return sharpness;
}

// The child's crease matrix: the entries of (rows, cols, values) whose sharpness is non-zero.
template <class Exec, class S = typename Exec::space>
linalg::Coo<float, S> sharp_entries(Exec& exec, index_t vertices,
                                    const linalg::Array<index_t, S>& rows,
                                    const linalg::Array<index_t, S>& cols,
                                    const linalg::Array<float, S>& values) {
  const index_t n = values.size();
  const float* v = values.data();
  auto sharp = [=] SPMESH_HD(index_t k) { return creasing::is_sharp(v[k]); };
  const index_t kept = exec.count_if(n, sharp);
  // select_if's predicate sees the element; an array of positions gives it the index.
  linalg::Array<index_t, S> position(n), chosen(kept);
  index_t* ps = position.data();
  exec.for_each(n, [=] SPMESH_HD(index_t k) { ps[k] = k; });
  exec.select_if(ps, n, chosen.data(), sharp);
  linalg::Coo<float, S> C{vertices, vertices, linalg::Array<index_t, S>(kept),
                          linalg::Array<index_t, S>(kept), linalg::Array<float, S>(kept)};
  const index_t *ch = chosen.data(), *r = rows.data(), *c = cols.data();
  index_t *ri = C.row_indices.data(), *ci = C.col_indices.data();
  float* cv = C.values.data();
  exec.for_each(kept, [=] SPMESH_HD(index_t t) {
    ri[t] = r[ch[t]], ci[t] = c[ch[t]], cv[t] = v[ch[t]];
  });
  return C;
}

}  // namespace detail

// The rules of one level with edges (from, to, sides) enumerated from E (edge_of: the edge of
// every entry of E) and sharpness C; returns them and the child's sharpness, for a child whose
// vertex points come first (same ids) and whose edge points are first_edge_point + e, out of
// child_vertices. `smooth(n)` gives the scheme's smooth VertexMask for valence n.
template <class Exec, class SmoothMask, class S = typename Exec::space>
std::pair<CreaseRules<S>, Sharpness<S>> crease_rules(
    Exec& exec, const linalg::Csr<index_t, S>& E, const linalg::Array<index_t, S>& edge_of,
    const linalg::Array<index_t, S>& from, const linalg::Array<index_t, S>& to,
    const linalg::Array<index_t, S>& sides, const Sharpness<S>& C, const Options& options,
    SmoothMask smooth, index_t first_edge_point, index_t child_vertices) {
  using linalg::Array;
  const index_t V = E.rows, edges = from.size();
  CreaseRules<S> r;
  r.edge_sharpness = detail::edge_sharpness(exec, E, edge_of, sides, C.edges);
  r.vertex_sharpness = Array<float, S>(V);
  {
    const float* in = C.vertices.data();
    float* out = r.vertex_sharpness.data();
    exec.for_each(V, [=] SPMESH_HD(index_t i) { out[i] = in[i]; });
  }
  Array<float, S> child_at(E.nnz());
  r.vertex_self = Array<double, S>(V), r.vertex_ring = Array<double, S>(V);
  r.vertex_crease = Array<double, S>(V);
  r.crease_u = Array<index_t, S>(V), r.crease_w = Array<index_t, S>(V);
  exec.for_each(V, detail::VertexRules<SmoothMask>{
                       E.view(), edge_of.data(), r.edge_sharpness.data(),
                       r.vertex_sharpness.data(), options, smooth, child_at.data(),
                       r.vertex_self.data(), r.vertex_ring.data(), r.vertex_crease.data(),
                       r.crease_u.data(), r.crease_w.data()});

  // Edge rules; the child's crease matrix (Eq. 20, 21) from its sharp child edges, and the
  // child's vertex sharpness (decremented; new vertices are smooth).
  r.edge_crease = Array<double, S>(edges);
  const index_t halves = checked_index(2 * std::int64_t(edges), "child crease edges");
  Array<index_t, S> rows(halves), cols(halves);
  Array<float, S> values(halves);
  exec.for_each(edges, detail::EdgeRules{E.view(), from.data(), to.data(),
                                         r.edge_sharpness.data(), child_at.data(),
                                         first_edge_point, r.edge_crease.data(), rows.data(),
                                         cols.data(), values.data()});
  Sharpness<S> child{detail::sharp_entries(exec, child_vertices, rows, cols, values),
                     Array<float, S>(child_vertices)};
  const float* vs = r.vertex_sharpness.data();
  float* out = child.vertices.data();
  exec.for_each(child_vertices, [=] SPMESH_HD(index_t i) {
    out[i] = i < V ? creasing::decrement(vs[i]) : creasing::none;
  });
  return {std::move(r), std::move(child)};
}

// An edge point as end (p_i + p_j) + other (q_0 + q_1): the q are the faces' points
// (Catmull-Clark) or the opposite vertices (Loop); the weights follow from the edge's crease
// weight w (CreaseRules::edge_crease).
struct EdgeMask {
  double end, other;
};

// Applies the edge masks (eval): out_e = end (P_i + P_j) + other (Q_q0 + Q_q1), q = -1 skipped.
template <class T, class Weights>
struct EdgePoints {
  const index_t *from, *to, *q0, *q1;
  const double* crease;
  Weights weights;
  const T *P, *Q;
  T* out;
  index_t k;

  SPMESH_HD void operator()(index_t e) const {
    const EdgeMask m = weights(crease[e]);
    const T a = static_cast<T>(m.end), b = static_cast<T>(m.other);
    const T *pi = P + std::int64_t(from[e]) * k, *pj = P + std::int64_t(to[e]) * k;
    T* y = out + std::int64_t(e) * k;
    for (index_t c = 0; c < k; ++c) y[c] = a * (pi[c] + pj[c]);
    if (b == 0) return;
    const index_t others[2] = {q0[e], q1[e]};
    for (const index_t q : others) {
      if (q < 0) continue;
      const T* pq = Q + std::int64_t(q) * k;
      for (index_t c = 0; c < k; ++c) y[c] += b * pq[c];
    }
  }
};

// Applies the vertex masks (eval): out_i += a_i p_i + extra_i + d_i (p_u + p_w), where out
// already holds the ring sum b_i (E P)_i and `extra` (may be null) the rest of the ring, e.g.
// Catmull-Clark's b_i (M f)_i. P, out, extra: n x k row-major.
template <class T>
struct VertexPoints {
  const double *self, *crease;
  const index_t *u, *w;
  const T *P, *extra;
  T* out;
  index_t k;

  SPMESH_HD void operator()(index_t i) const {
    const T a = static_cast<T>(self[i]), d = static_cast<T>(crease[i]);
    const std::int64_t r = std::int64_t(i) * k;
    for (index_t c = 0; c < k; ++c) out[r + c] += a * P[r + c];
    if (extra)
      for (index_t c = 0; c < k; ++c) out[r + c] += extra[r + c];
    if (d == 0) return;
    const T *pu = P + std::int64_t(u[i]) * k, *pw = P + std::int64_t(w[i]) * k;
    for (index_t c = 0; c < k; ++c) out[r + c] += d * (pu[c] + pw[c]);
  }
};

// What the edge rows of a general level's S_l read: each edge's ends, what lies on its two
// sides (Catmull-Clark: the faces; Loop: the opposite vertices; -1: none) and its crease
// weight w (CreaseRules::edge_crease).
struct EdgeEnds {
  const index_t *from, *to, *side0, *side1;
  const double* crease;
};
template <class S>
EdgeEnds edge_ends(const linalg::Array<index_t, S>& from, const linalg::Array<index_t, S>& to,
                   const linalg::Array<index_t, S>& side0, const linalg::Array<index_t, S>& side1,
                   const CreaseRules<S>& r) {
  return {.from = from.data(),
          .to = to.data(),
          .side0 = side0.data(),
          .side1 = side1.data(),
          .crease = r.edge_crease.data()};
}

// The vertex rows of a general level's S_l (an assemble_rows producer's part): row i is a_i at
// itself, b_i at each neighbour in E, d_i at u_i and w_i (VertexPoints' rule as a matrix).
struct VertexRows {
  linalg::CompressedView<index_t> E;
  const double *self, *ring, *crease;
  const index_t *u, *w;

  SPMESH_HD std::int64_t bound(index_t i) const { return 3 + E.end(i) - E.begin(i); }
  // Row i into sink; ring_more(b_i) adds what else the ring weight takes (Catmull-Clark: the
  // adjacent face points).
  template <class Sink, class RingMore>
  SPMESH_HD void operator()(index_t i, Sink& sink, RingMore&& ring_more) const {
    sink(i, self[i]);
    if (ring[i] != 0) {
      for (index_t p = E.begin(i); p < E.end(i); ++p) sink(E.indices[p], ring[i]);
      ring_more(ring[i]);
    }
    if (crease[i] != 0) sink(u[i], crease[i]), sink(w[i], crease[i]);
  }
};
template <class S>
VertexRows vertex_rows(const linalg::Csr<index_t, S>& E, const CreaseRules<S>& r) {
  return {.E = E.view(),
          .self = r.vertex_self.data(),
          .ring = r.vertex_ring.data(),
          .crease = r.vertex_crease.data(),
          .u = r.crease_u.data(),
          .w = r.crease_w.data()};
}

}  // namespace spmesh::schemes
