// Catmull-Clark build (paper section 3.2, 3.3): all topology work for L levels, as a sequence of
// mapped products and element-wise maps on the executor. Per level: face orders (Eq. 5), the
// edge matrix E and its enumeration (Eq. 8-11), the oriented adjacency F (Eq. 12, 13), the
// crease rules of every edge and vertex from the crease matrix C (Eq. 18-21, as OpenSubdiv
// applies them), the refined mesh matrix and the child's C. No vertex data is touched.
#pragma once

#include "linalg/convert.hpp"
#include "meshops/topology.hpp"
#include "schemes/catmull_clark/plan.hpp"
#include "schemes/tags.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace spmesh::schemes::catmull_clark {

namespace detail {

// The mask of one vertex rule (see Level): weights of p_i, of the ring, of the crease ends.
struct VertexMask {
  double self = 1, ring = 0, crease = 0;
  index_t u = -1, w = -1;

  SPMESH_HD void blend(const VertexMask& child, double parent_weight) {
    const double c = 1.0 - parent_weight;
    self = parent_weight * self + c * child.self;
    ring = parent_weight * ring + c * child.ring;
    crease = parent_weight * crease + c * child.crease;
    if (child.u >= 0) u = child.u, w = child.w;
  }
};

// Vertex rules (rules.md "Semi-sharp creases"): the parent rule from this level's sharpness,
// the child rule from the decayed sharpness, and their blend by the fractional weight. Also
// writes the child sharpness of every incident edge at this vertex (one per entry of E).
struct VertexRules {
  linalg::CompressedView<index_t> E;
  const index_t* edge_of;      // edge index of every entry of E
  const index_t* faces_before; // M_rows offsets: faces around each vertex
  const float* edge_sharpness;
  float* vertex_sharpness;     // in: from C; out: with boundary corners pinned
  Options options;
  float* child_at;             // out: child sharpness of the edge of entry p at its row's vertex
  double *self, *ring, *crease;
  index_t *crease_u, *crease_w;

  // The mask of `rule` at vertex i; crease ends are the first two entries whose sharpness
  // (parent's or child's) is non-zero, as OpenSubdiv picks them.
  template <class SharpnessOf>
  SPMESH_HD VertexMask mask(creasing::Rule rule, index_t i, SharpnessOf sharpness) const {
    VertexMask m;
    const index_t lo = E.begin(i), n = E.end(i) - lo;
    if (rule == creasing::Rule::smooth || rule == creasing::Rule::dart) {
      m.self = (n - 2.0) / n, m.ring = 1.0 / (double(n) * n);
    } else if (rule == creasing::Rule::crease) {
      m.self = 0.75, m.crease = 0.125;
      for (index_t p = lo; p < lo + n; ++p) {
        if (!creasing::is_sharp(sharpness(p))) continue;
        if (m.u < 0) m.u = E.indices[p];
        else if (m.w < 0) m.w = E.indices[p];
      }
    }
    return m;
  }

  SPMESH_HD void operator()(index_t i) const {
    const index_t lo = E.begin(i), hi = E.end(i), n = hi - lo;
    float vs = vertex_sharpness[i];
    const bool topological_corner = faces_before[i + 1] - faces_before[i] == 1 && n == 2;
    if (options.boundary == Boundary::edge_and_corner && topological_corner)
      vs = creasing::infinite;
    vertex_sharpness[i] = vs;

    int sharp = 0, semi = 0;
    float semi_sum = 0;
    for (index_t p = lo; p < hi; ++p) {
      const float s = edge_sharpness[edge_of[p]];
      sharp += creasing::is_sharp(s) ? 1 : 0;
      if (creasing::is_semi_sharp(s)) ++semi, semi_sum += s;
    }
    int child_sharp = 0;
    creasing::FractionalWeight fraction;
    const float child_vs = creasing::decrement(vs);
    fraction.add(vs, child_vs);
    for (index_t p = lo; p < hi; ++p) {
      const float s = edge_sharpness[edge_of[p]];
      const float c = creasing::child_edge_sharpness(options.crease, s, n, semi, semi_sum);
      child_at[p] = c;
      child_sharp += creasing::is_sharp(c) ? 1 : 0;
      fraction.add(s, c);
    }

    const auto parent_rule = creasing::vertex_rule(vs, sharp);
    const auto child_rule = creasing::vertex_rule(child_vs, child_sharp);
    VertexMask m;  // an isolated vertex (n = 0) stays where it is
    if (n > 0) {
      const float* es = edge_sharpness;
      const index_t* eo = edge_of;
      const float* ca = child_at;
      m = mask(parent_rule, i, [=](index_t p) { return es[eo[p]]; });
      const bool smooth_parent =
          parent_rule == creasing::Rule::smooth || parent_rule == creasing::Rule::dart;
      if (!smooth_parent && child_rule != parent_rule)
        m.blend(mask(child_rule, i, [=](index_t p) { return ca[p]; }), fraction.value());
    }
    self[i] = m.self, ring[i] = m.ring, crease[i] = m.crease;
    crease_u[i] = m.u, crease_w[i] = m.w;
  }
};

// Edge rules and the child crease matrix: an edge with sharpness s > 0 whose two children stay
// sharp is a crease (w = 1); otherwise it blends with w = s, as OpenSubdiv does. The children
// of edge e = {i, j} are {i, e'} and {j, e'}, e' = V + F + e its edge point.
struct EdgeRules {
  linalg::CompressedView<index_t> E;
  const index_t *from, *to;
  const float *edge_sharpness, *child_at;
  index_t first_edge_point;  // V + F
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

// The refined mesh matrix (paper 3.2 "Topology refinement"): corner a of face f becomes the
// quad (vertex point of v_a, edge point of v_a v_(a+1), face point of f, edge point of
// v_(a-1) v_a). Quads keep each child's corner at its parent corner's slot (OpenSubdiv's
// orientation); other polygons start every child at its vertex point.
struct RefineFaces {
  linalg::MeshView M;
  linalg::CompressedView<index_t> E;
  const index_t* edge_of;
  index_t vertices, faces;
  index_t* child;  // 4 per corner

  SPMESH_HD void operator()(index_t f) const {
    const index_t lo = M.begin(f), c = M.end(f) - lo;
    for (index_t a = 0; a < c; ++a) {
      const index_t v = M.indices[lo + a], next = M.indices[lo + (a + 1) % c],
                    prev = M.indices[lo + (a + c - 1) % c];
      const index_t q[4] = {v, edge_point(v, next), vertices + f, edge_point(prev, v)};
      const index_t turn = c == 4 ? a : 0;
      for (int k = 0; k < 4; ++k) child[4 * (lo + a) + (turn + k) % 4] = q[k];
    }
  }
  SPMESH_HD index_t edge_point(index_t i, index_t j) const {
    return vertices + faces + edge_of[E.find(i, j)];
  }
};

template <class S>
struct LevelResult {
  Level<S> level;
  linalg::MeshMatrix<S> child;
  Sharpness<S> child_sharpness;
};

}  // namespace detail

namespace detail {

// Eq. 12, 13: the faces F(i, j) and F(j, i) on the two sides of every edge (-1: none).
template <class Exec, class S = typename Exec::space>
void edge_faces(Exec& exec, const linalg::MeshMatrix<S>& M, Level<S>& L) {
  const auto F = meshops::oriented_adjacency(exec, M);
  const auto f = F.view();
  L.edge_face0 = linalg::Array<index_t, S>(L.edges), L.edge_face1 = linalg::Array<index_t, S>(L.edges);
  const index_t *from = L.edge_from.data(), *to = L.edge_to.data();
  index_t *f0 = L.edge_face0.data(), *f1 = L.edge_face1.data();
  exec.for_each(L.edges, [=] SPMESH_HD(index_t e) {
    const index_t p = f.find(from[e], to[e]), q = f.find(to[e], from[e]);
    f0[e] = p >= 0 ? f.values[p] : -1;
    f1[e] = q >= 0 ? f.values[q] : -1;
  });
}

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
    throw InputError("catmull_clark::build: the crease matrix names " + std::to_string(missing) +
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

// The refined mesh matrix: one quad per corner of M (RefineFaces).
template <class Exec, class S = typename Exec::space>
linalg::MeshMatrix<S> refined_mesh(Exec& exec, const linalg::MeshMatrix<S>& M, const Level<S>& L,
                                   const linalg::Array<index_t, S>& edge_of) {
  const index_t corners = M.nnz();
  const index_t nnz = checked_index(4 * std::int64_t(corners), "Catmull-Clark child faces");
  linalg::Array<index_t, S> offsets(corners + 1), indices(nnz);
  index_t* o = offsets.data();
  exec.for_each(corners + 1, [=] SPMESH_HD(index_t p) { o[p] = 4 * p; });
  exec.for_each(L.faces, RefineFaces{M.view(), L.E.view(), edge_of.data(), L.vertices, L.faces,
                                     indices.data()});
  return linalg::MeshMatrix<S>(L.child_vertices(), std::move(offsets), std::move(indices));
}

}  // namespace detail

// One level: the topology of M and its sharpness -> the level's operators, the child mesh and
// the child's sharpness.
template <class Exec>
detail::LevelResult<typename Exec::space> build_level(Exec& exec,
                                                      linalg::MeshMatrix<typename Exec::space> M,
                                                      const Sharpness<typename Exec::space>& C,
                                                      const Options& options) {
  using S = typename Exec::space;
  using linalg::Array;
  Level<S> L;
  L.vertices = M.vertices, L.faces = M.faces;

  // Eq. 5, 6: face orders and their inverses (the per-column map of the face points).
  const Array<index_t, S> c = meshops::face_orders(exec, M);
  L.inv_order = Array<double, S>(L.faces);
  {
    const index_t* co = c.data();
    double* inv = L.inv_order.data();
    exec.for_each(L.faces, [=] SPMESH_HD(index_t f) { inv[f] = 1.0 / co[f]; });
  }

  // Eq. 8-11: E and the edge enumeration from its upper triangle; Eq. 12, 13: faces per edge.
  L.E = meshops::edge_matrix(exec, M);
  auto edges = meshops::enumerate_edges(exec, L.E);
  L.edges = edges.count();
  L.edge_from = std::move(edges.from), L.edge_to = std::move(edges.to);
  const Array<index_t, S> edge_of = meshops::edge_index_of_entries(exec, L.E);
  detail::edge_faces(exec, M, L);
  L.M_rows = linalg::to_csr(exec, M);
  const index_t first_edge_point =
      checked_index(std::int64_t(L.vertices) + L.faces, "Catmull-Clark child vertices");
  const index_t V1 = checked_index(std::int64_t(first_edge_point) + L.edges,
                                   "Catmull-Clark child vertices");

  // This level's crease matrix, then the vertex rules and masks (Eq. 18, 19 and the rules of
  // rules.md), which also give the child sharpness of every edge at each of its ends.
  L.edge_sharpness = detail::edge_sharpness(exec, L.E, edge_of, edges.sides, C.edges);
  L.vertex_sharpness = Array<float, S>(L.vertices);
  {
    const float* in = C.vertices.data();
    float* out = L.vertex_sharpness.data();
    exec.for_each(L.vertices, [=] SPMESH_HD(index_t i) { out[i] = in[i]; });
  }
  Array<float, S> child_at(L.E.nnz());
  L.vertex_self = Array<double, S>(L.vertices), L.vertex_ring = Array<double, S>(L.vertices);
  L.vertex_crease = Array<double, S>(L.vertices);
  L.crease_u = Array<index_t, S>(L.vertices), L.crease_w = Array<index_t, S>(L.vertices);
  exec.for_each(L.vertices,
                detail::VertexRules{L.E.view(), edge_of.data(), L.M_rows.offsets.data(),
                                    L.edge_sharpness.data(), L.vertex_sharpness.data(), options,
                                    child_at.data(), L.vertex_self.data(), L.vertex_ring.data(),
                                    L.vertex_crease.data(), L.crease_u.data(),
                                    L.crease_w.data()});

  // Edge rules; the child's crease matrix (Eq. 20, 21) from its sharp child edges, and the
  // child's vertex sharpness (decremented; new vertices are smooth).
  L.edge_crease = Array<double, S>(L.edges);
  const index_t halves = checked_index(2 * std::int64_t(L.edges), "child crease edges");
  Array<index_t, S> rows(halves), cols(halves);
  Array<float, S> values(halves);
  exec.for_each(L.edges, detail::EdgeRules{L.E.view(), L.edge_from.data(), L.edge_to.data(),
                                           L.edge_sharpness.data(), child_at.data(),
                                           first_edge_point, L.edge_crease.data(), rows.data(),
                                           cols.data(), values.data()});
  Sharpness<S> child_C{detail::sharp_entries(exec, V1, rows, cols, values), Array<float, S>(V1)};
  {
    const float* vs = L.vertex_sharpness.data();
    float* out = child_C.vertices.data();
    const index_t V = L.vertices;
    exec.for_each(V1, [=] SPMESH_HD(index_t i) {
      out[i] = i < V ? creasing::decrement(vs[i]) : creasing::none;
    });
  }

  auto child = detail::refined_mesh(exec, M, L, edge_of);
  L.M = std::move(M);
  return {std::move(L), std::move(child), std::move(child_C)};
}

// All topology work for `levels` levels of mesh M with level-0 sharpness C. Throws
// CapacityError after the first level (which gives the edge count) if a later level would
// exceed 32-bit indices; estimate_size (plan.hpp) says the same, and the bytes, before any work.
template <class Exec>
Plan<typename Exec::space> build(Exec& exec, linalg::MeshMatrix<typename Exec::space> M,
                                 Sharpness<typename Exec::space> C, int levels,
                                 Options options = {}) {
  if (levels < 0) throw InputError("catmull_clark::build: negative level count");
  Plan<typename Exec::space> plan;
  plan.options = options;
  for (int l = 0; l < levels; ++l) {
    auto r = build_level(exec, std::move(M), C, options);
    if (l == 0) {  // the first level knows the edge count: check every level's size up front
      const Level<typename Exec::space>& L = r.level;
      estimate_size(L.vertices, L.faces, L.M.nnz(), L.edges, levels, 0, 0).check_indices();
    }
    plan.levels.push_back(std::move(r.level));
    M = std::move(r.child);
    C = std::move(r.child_sharpness);
  }
  plan.refined = std::move(M);
  return plan;
}

}  // namespace spmesh::schemes::catmull_clark
