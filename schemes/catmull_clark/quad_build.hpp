// Catmull-Clark build on half-edge levels (quads.hpp): the first level from the base mesh, quads
// or polygons (twins paired by one sort of half-edge keys: the oriented adjacency of Eq. 12
// without its product), then each child quad level from its parent by local rules, one thread
// per child face; the crease
// rules (crease_rules.hpp, Eq. 18-21) on the sparse C, one thread per special vertex and per
// sharp edge.
#pragma once

#include "schemes/catmull_clark/plan.hpp"
#include "schemes/catmull_clark/quads.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace spmesh::schemes::catmull_clark {

namespace detail {

// The sort key of the edge between vertices i and j: (lower, upper).
SPMESH_HD inline std::uint64_t edge_key(index_t i, index_t j) {
  return i < j ? (std::uint64_t(i) << 32) | std::uint64_t(j) : (std::uint64_t(j) << 32) | std::uint64_t(i);
}

// The edge of crease matrix entry k (vertices i[k], j[k]), looked up among the sorted half-edge
// keys; -1 if none.
struct EdgeOfPair {
  const std::uint64_t* keys;  // sorted
  const index_t *order, *edge_code, *i, *j;
  index_t halves;
  SPMESH_HD index_t operator()(index_t k) const {
    const index_t p = find_sorted(keys, halves, edge_key(i[k], j[k]));
    return p < 0 ? -1 : edge_code[order[p]] / 2;
  }
};

// Functors, not lambdas, inside functions templated on a lambda's type (nvcc allows no
// extended lambda there).
struct Iota {
  index_t* out;
  SPMESH_HD void operator()(index_t p) const { out[p] = p; }
};
template <class T>
struct Gather {  // out[k] = in[positions[k]] (in null: the position itself)
  const index_t* positions;
  const T* in;
  T* out;
  SPMESH_HD void operator()(index_t k) const {
    out[k] = in ? in[positions[k]] : T(positions[k]);
  }
};

// Selections of positions whose counts come back together, with one wait: add() each, read(),
// then count() and positions() (increasing).
template <class Exec, class S = typename Exec::space>
class Selections {
public:
  static constexpr int capacity = 4;
  explicit Selections(Exec& exec) : exec_(exec), counts_(capacity) {}

  // The positions p in [0, n) where keep(p) holds; returns the selection's number.
  template <class Keep>
  int add(index_t n, Keep keep) {
    linalg::Array<index_t, S> all(n);
    chosen_[added_] = linalg::Array<index_t, S>(n);
    exec_.for_each(n, Iota{all.data()});
    exec_.select_if(all.data(), n, chosen_[added_].data(), counts_.data() + added_, keep);
    return added_++;
  }
  void read() { exec_.read(counts_.data(), added_, host_); }
  index_t count(int s) const { return host_[s]; }
  const index_t* positions(int s) const { return chosen_[s].data(); }
  // in[p] for the chosen positions p (in null: p itself), as an array of their count.
  template <class T>
  linalg::Array<T, S> gather(int s, const T* in) {
    linalg::Array<T, S> out(count(s));
    exec_.for_each(count(s), Gather<T>{positions(s), in, out.data()});
    return out;
  }

private:
  Exec& exec_;
  linalg::Array<index_t, S> counts_;
  linalg::Array<index_t, S> chosen_[capacity];
  index_t host_[capacity] = {};
  int added_ = 0;
};

// A level's `starts`: bit a of face f set when half-edge 4 f + a is its vertex's vertex_edge.
template <class Exec, class S = typename Exec::space>
void set_starts(Exec& exec, QuadLevel<S>& L, const index_t* quads) {
  L.starts = linalg::Array<std::uint8_t, S>(L.faces);
  const index_t* ve = L.vertex_edge.data();
  std::uint8_t* st = L.starts.data();
  exec.for_each(L.faces, [=] SPMESH_HD(index_t f) {
    std::uint8_t bits = 0;
    for (index_t a = 0; a < 4; ++a) bits |= ve[quads[4 * f + a]] == 4 * f + a ? 1 << a : 0;
    st[f] = bits;
  });
}

// The special vertices of a level's C: both ends of every sharp edge and every sharp vertex,
// sorted and unique.
template <class Exec, class Faces, class S = typename Exec::space>
linalg::Array<index_t, S> special_vertices(Exec& exec, const QuadSharpness<S>& C,
                                           const index_t* corners, Faces fc) {
  const index_t sharp = C.edges.size(), sharp_vertices = C.vertices.size();
  linalg::Array<index_t, S> candidates(2 * sharp + sharp_vertices);
  index_t* c = candidates.data();
  const index_t *h = C.halves.data(), *sv = C.vertices.data();
  exec.for_each(sharp, [=] SPMESH_HD(index_t j) {
    c[2 * j] = corners[h[j]], c[2 * j + 1] = corners[fc.next(h[j])];
  });
  exec.for_each(sharp_vertices, [=] SPMESH_HD(index_t k) { c[2 * sharp + k] = sv[k]; });
  exec.sort_keys(c, candidates.size());
  linalg::Array<index_t, S> unique(candidates.size());
  linalg::Array<index_t, S> special(exec.unique(c, candidates.size(), unique.data()));
  const index_t* u = unique.data();
  index_t* sp = special.data();
  exec.for_each(special.size(), [=] SPMESH_HD(index_t k) { sp[k] = u[k]; });
  return special;
}

}  // namespace detail

// The first level on half-edges (QuadLevel for a quad mesh, else PolygonLevel): twins by
// sorting the half-edges by their end vertices (an edge whose two half-edges run the same way,
// or that has more than two, counts as boundary on every one of them: check_mesh rejects such
// meshes), edges numbered in half-edge order (an edge runs along its half-edge from the lower
// vertex, or its only one), and C made sparse. Throws InputError if C names a vertex pair that
// shares no edge.
template <class Level, class Exec, class S = typename Exec::space>
Level half_edge_level(Exec& exec, linalg::MeshMatrix<S> M, const Sharpness<S>& C) {
  using linalg::Array;
  Level L;
  L.vertices = M.vertices, L.faces = M.faces;
  const index_t halves = M.nnz(), V = M.vertices, F = M.faces;
  L.twin = Array<index_t, S>(halves), L.edge_code = Array<index_t, S>(halves);
  Array<index_t, S> face_of(halves);
  index_t *tw = L.twin.data(), *code = L.edge_code.data(), *fo = face_of.data();
  const index_t *q = M.indices.data(), *offsets = M.offsets.data();
  exec.for_each(F, [=] SPMESH_HD(index_t f) {
    for (index_t h = offsets[f]; h < offsets[f + 1]; ++h) fo[h] = f;
  });
  const PolygonFaces fc{offsets, fo};
  // Half-edges sorted by (lower end, upper end): an edge's half-edges end up side by side.
  Array<std::uint64_t, S> keys(halves);
  Array<index_t, S> order(halves);
  std::uint64_t* key = keys.data();
  index_t* o = order.data();
  exec.for_each(halves, [=] SPMESH_HD(index_t h) {
    key[h] = detail::edge_key(q[h], q[fc.next(h)]), o[h] = h;
  });
  int bits = 1;
  while (bits < 31 && (index_t(1) << bits) < V) ++bits;
  exec.sort_pairs(key, o, halves, 32 + bits);
  exec.for_each(halves, [=] SPMESH_HD(index_t p) {
    const bool first = p + 1 < halves && key[p + 1] == key[p] && (p == 0 || key[p - 1] != key[p]) &&
                       (p + 2 == halves || key[p + 2] != key[p]);
    const bool second = p > 0 && key[p - 1] == key[p] && (p == 1 || key[p - 2] != key[p]) &&
                        (p + 1 == halves || key[p + 1] != key[p]);
    const index_t h = o[p], g = first ? o[p + 1] : second ? o[p - 1] : -1;
    tw[h] = g >= 0 && q[g] == q[fc.next(h)] ? g : -1;
  });
  // An edge runs along its half-edge from the lower vertex, or along its only one; edges are
  // numbered in the order of those half-edges.
  Array<index_t, S> along(halves);
  index_t* id = along.data();
  exec.for_each(halves, [=] SPMESH_HD(index_t h) {
    id[h] = tw[h] < 0 || q[h] < q[fc.next(h)] ? 1 : 0;
  });
  exec.for_each(halves, [=] SPMESH_HD(index_t h) { code[h] = id[h]; });
  L.edges = exec.exclusive_scan(id, id, halves);
  Array<index_t, S> edge_half(L.edges);
  index_t* eh = edge_half.data();
  exec.for_each(halves, [=] SPMESH_HD(index_t h) {
    if (code[h]) eh[id[h]] = h;
  });
  exec.for_each(halves, [=] SPMESH_HD(index_t h) {
    code[h] = code[h] ? 2 * id[h] : 2 * id[tw[h]] + 1;
  });
  // vertex_edge: the first outgoing half-edge without a twin, else the first (a minimum over
  // keys that put the twinless ones first).
  checked_index(2 * std::int64_t(halves), "Catmull-Clark first level half-edge keys");
  L.vertex_edge = Array<index_t, S>(V);
  index_t* ve = L.vertex_edge.data();
  exec.for_each(V, [=] SPMESH_HD(index_t v) { ve[v] = 2 * halves; });
  exec.scatter_min(q, halves, ve, [=] SPMESH_HD(index_t h) { return tw[h] < 0 ? h : halves + h; });
  exec.for_each(V, [=] SPMESH_HD(index_t v) {
    ve[v] = ve[v] == 2 * halves ? -1 : ve[v] % halves;
  });

  // C: boundary edges infinitely sharp, then the tagged edges (the sharper value wins).
  Array<float, S> sharpness(L.edges);
  float* es = sharpness.data();
  exec.for_each(L.edges, [=] SPMESH_HD(index_t e) {
    es[e] = tw[eh[e]] < 0 ? creasing::infinite : creasing::none;
  });
  const index_t *ci = C.edges.row_indices.data(), *cj = C.edges.col_indices.data();
  const detail::EdgeOfPair edge_of{key, o, code, ci, cj, halves};
  const float* cs = C.edges.values.data();
  exec.for_each(C.edges.nnz(), [=] SPMESH_HD(index_t k) {
    const index_t e = edge_of(k);
    if (e < 0) return;
    float& s = es[e];
    s = cs[k] > s ? cs[k] : s;
  });
  // Unused vertices, sharp edges and vertices, and the crease entries that name no edge.
  const float* vs = C.vertices.data();
  detail::Selections<Exec> select(exec);
  const int unused = select.add(V, [=] SPMESH_HD(index_t v) { return ve[v] < 0; });
  const int sharp = select.add(L.edges, [=] SPMESH_HD(index_t e) { return creasing::is_sharp(es[e]); });
  const int sharp_vertices = select.add(V, [=] SPMESH_HD(index_t v) { return creasing::is_sharp(vs[v]); });
  const int missing = select.add(C.edges.nnz(), [=] SPMESH_HD(index_t k) { return edge_of(k) < 0; });
  select.read();
  if (select.count(missing) > 0)
    throw InputError("subdivision build: the crease matrix names " +
                     std::to_string(select.count(missing)) + " vertex pairs that share no edge");
  L.unused = select.gather(unused, static_cast<const index_t*>(nullptr));
  L.C.edges = select.gather(sharp, static_cast<const index_t*>(nullptr));
  L.C.halves = select.gather(sharp, edge_half.data());
  L.C.edge_values = select.gather(sharp, es);
  L.C.vertices = select.gather(sharp_vertices, static_cast<const index_t*>(nullptr));
  L.C.vertex_values = select.gather(sharp_vertices, vs);
  L.C.special = detail::special_vertices(exec, L.C, q, fc);
  if constexpr (std::is_same_v<Level, QuadLevel<S>>) {
    detail::set_starts(exec, L, q);
    L.M = linalg::ReducedMeshMatrix<S>(V, 4, std::move(M.indices));
  } else {
    L.M = std::move(M);
    L.face_of = std::move(face_of);
  }
  return L;
}

namespace detail {

// vertex_rules (crease_rules.hpp) at one special vertex, walking the level's edges: its mask,
// its pinned sharpness, and the children's sharpness at this end of every sharp edge on it.
template <class View>
struct QuadVertexRules {
  View t;
  const index_t *sharp_edges, *sharp_halves, *sharp_vertices;
  const float *sharp_values, *vertex_values;
  index_t sharp_count, sharp_vertex_count;
  Options options;
  const index_t* special;
  float* special_sharpness;
  double *self, *ring, *crease;
  index_t *crease_u, *crease_w;
  float* child_at;

  SPMESH_HD void operator()(index_t k) const {
    const index_t v = special[k];
    const index_t sv = find_sorted(sharp_vertices, sharp_vertex_count, v);
    float vs = sv < 0 ? creasing::none : vertex_values[sv];
    // p: the edge's place in the sharp list, or -1.
    auto edges = [&](auto&& f) {
      t.for_each_edge(v, [&](index_t h, index_t other, index_t) {
        const index_t j = find_sorted(sharp_edges, sharp_count, t.edge_code[h] >> 1);
        f(j < 0 ? creasing::none : sharp_values[j], t.twin[h] < 0, other, j);
      });
    };
    const VertexMask m = vertex_rules(vs, options, SmoothMask{}, edges, [&](index_t j, float c) {
      if (j >= 0) child_at[2 * j + (t.corners[sharp_halves[j]] == v ? 0 : 1)] = c;
    });
    special_sharpness[k] = vs;
    self[k] = m.self, ring[k] = m.ring, crease[k] = m.crease;
    crease_u[k] = m.u, crease_w[k] = m.w;
  }
};

}  // namespace detail

// The crease rules of a half-edge level (its C must be set).
template <class Exec, class Level, class S = typename Exec::space>
QuadRules<S> quad_rules(Exec& exec, const Level& L, const Options& options) {
  using linalg::Array;
  const auto t = view(L);
  const auto& C = L.C;
  const index_t sharp = C.edges.size(), n = C.special.size();
  QuadRules<S> r;
  r.special_sharpness = Array<float, S>(n);
  r.self = Array<double, S>(n), r.ring = Array<double, S>(n), r.crease = Array<double, S>(n);
  r.crease_u = Array<index_t, S>(n), r.crease_w = Array<index_t, S>(n);
  r.child_at = Array<float, S>(2 * sharp);
  exec.for_each(n, detail::QuadVertexRules<decltype(t)>{
                       t, C.edges.data(), C.halves.data(), C.vertices.data(),
                       C.edge_values.data(), C.vertex_values.data(), sharp, C.vertices.size(),
                       options, C.special.data(), r.special_sharpness.data(), r.self.data(),
                       r.ring.data(), r.crease.data(), r.crease_u.data(), r.crease_w.data(),
                       r.child_at.data()});
  // Edge rules: a sharp edge whose two children stay sharp is a crease (w = 1), else w = s.
  r.edge_crease = Array<double, S>(sharp);
  const float *ca = r.child_at.data(), *s = C.edge_values.data();
  double* w = r.edge_crease.data();
  exec.for_each(sharp, [=] SPMESH_HD(index_t j) {
    w[j] = creasing::is_sharp(ca[2 * j]) && creasing::is_sharp(ca[2 * j + 1])
               ? 1.0
               : static_cast<double>(s[j]);
  });
  return r;
}

namespace detail {

// Half-edge k (0: from the vertex point, along the parent half-edge; 1, 2: the inner edges; 3:
// into the vertex point) of the child quad at parent corner h.
template <class Faces>
SPMESH_HD index_t child_half(const Faces& fc, index_t h, index_t k) {
  return 4 * h + ((fc.slot(h) + k) & 3);
}

// One child face per thread (see HalfEdgeLevel for the numbering): child face h has corners
// (vertex point of h's start, edge point of h, face point of h's face, edge point of h's
// previous half-edge) from slot(h) on. Its twins, edge codes and starts follow from the
// parent's alone, as do the outgoing half-edges of face and edge points; `twin` null stops at
// the faces (the last level). Writes are 16 bytes per array and thread.
template <class View>
struct RefineQuads {
  View t;
  const std::uint8_t* starts;  // the parent's; null: found from its vertex_edge
  index_t* quads;
  index_t *twin, *edge_code, *vertex_edge;  // unused unless topology
  std::uint8_t* child_starts;

  SPMESH_HD void operator()(index_t h) const {
    const index_t V = t.vertices, F = t.faces, E = t.edges, first_edge_point = V + F;
    const index_t f = t.face(h), a = t.slot(h), hn = t.next(h), hp = t.prev(h);
    const index_t c = t.edge_code[h], cp = t.edge_code[hp];
    store4(quads + 4 * h, rotated(a, t.corners[h], first_edge_point + (c >> 1), V + f,
                                  first_edge_point + (cp >> 1)));
    if (!twin) return;
    // The twin of half-edge 0 lies in the child after h's twin, of 1 in the next corner's
    // child, of 2 in the previous one's, of 3 in the child of hp's twin.
    const index_t th = t.twin[h], tp = t.twin[hp];
    store4(twin + 4 * h, rotated(a, th < 0 ? -1 : child_half(t, t.next(th), 3),
                                 child_half(t, hn, 2), child_half(t, hp, 1),
                                 tp < 0 ? -1 : child_half(t, tp, 0)));
    store4(edge_code + 4 * h, rotated(a, 2 * c + (c & 1), 2 * (2 * E + h),
                                      2 * (2 * E + hp) + 1, 2 * (cp ^ 1) + (cp & 1)));
    // Outgoing half-edges: a face point's in the child of the face's first corner; an edge
    // point's in the child at the end of its half-edge along. starts marks them and the vertex
    // points'.
    if ((c & 1) == 0) vertex_edge[first_edge_point + (c >> 1)] = child_half(t, hn, 3);
    const bool first = h == t.begin(f);
    if (first) vertex_edge[V + f] = child_half(t, h, 2);
    const bool start = starts ? (starts[f] >> a) & 1 : t.vertex_edge[t.corners[h]] == h;
    child_starts[h] = (start ? 1 << a : 0) | (first ? 1 << ((a + 2) & 3) : 0) |
                      ((cp & 1) == 0 ? 1 << ((a + 3) & 3) : 0);
  }
};

template <class S>
const std::uint8_t* starts_of(const QuadLevel<S>& L) { return L.starts.data(); }
template <class S>
const std::uint8_t* starts_of(const PolygonLevel<S>&) { return nullptr; }

}  // namespace detail

// The child of L (a QuadLevel or PolygonLevel): its quad mesh and, with `topology`, the rest of
// its level (twins, edge codes, outgoing half-edges, sharp edges and vertices; its rules are
// left to quad_rules).
template <class Exec, class Level, class S = typename Exec::space>
QuadLevel<S> refine_quads(Exec& exec, const Level& L, bool topology) {
  using linalg::Array;
  const auto t = view(L);
  const index_t faces = L.edge_code.size();  // one per parent corner
  const index_t halves = checked_index(4 * std::int64_t(faces), "Catmull-Clark child corners");
  const index_t V1 = checked_index(std::int64_t(L.vertices) + L.faces + L.edges,
                                   "Catmull-Clark child vertices");
  Array<index_t, S> quads(halves);
  QuadLevel<S> child;
  child.vertices = V1, child.faces = faces;
  if (topology) {
    child.edges = checked_index(2 * std::int64_t(L.edges) + faces, "Catmull-Clark child edges");
    child.twin = Array<index_t, S>(halves), child.edge_code = Array<index_t, S>(halves);
    child.vertex_edge = Array<index_t, S>(V1);
    child.starts = Array<std::uint8_t, S>(faces);
    child.unused = Array<index_t, S>(L.unused.size());  // their vertex points stay unused
    const index_t* u = L.unused.data();
    index_t* cu = child.unused.data();
    exec.for_each(L.unused.size(), [=] SPMESH_HD(index_t k) { cu[k] = u[k]; });
    const index_t* ve = L.vertex_edge.data();
    index_t* cve = child.vertex_edge.data();
    exec.for_each(L.vertices, [=] SPMESH_HD(index_t v) {
      const index_t h = ve[v];
      cve[v] = h < 0 ? -1 : detail::child_half(t, h, 0);
    });
  }
  exec.for_each(faces, detail::RefineQuads<decltype(t)>{t, detail::starts_of(L), quads.data(),
                                                         child.twin.data(), child.edge_code.data(),
                                                         child.vertex_edge.data(),
                                                         child.starts.data()});
  if (topology) {
    // Sharp children of sharp edges (2 e at the start of the half-edge along e, 2 e + 1 at its
    // end) and vertex points of special vertices still sharp, selected with one wait.
    const index_t sharp = L.C.edges.size(), special = L.C.special.size();
    Array<index_t, S> ids(2 * sharp), along(2 * sharp);
    Array<float, S> values(2 * sharp), decayed(special);
    const index_t *e = L.C.edges.data(), *h = L.C.halves.data();
    const float *ca = L.rules.child_at.data(), *ss = L.rules.special_sharpness.data();
    index_t *id = ids.data(), *al = along.data();
    float *val = values.data(), *d = decayed.data();
    exec.for_each(sharp, [=] SPMESH_HD(index_t j) {
      id[2 * j] = 2 * e[j], id[2 * j + 1] = 2 * e[j] + 1;
      al[2 * j] = detail::child_half(t, h[j], 0);
      al[2 * j + 1] = detail::child_half(t, t.next(h[j]), 3);
      val[2 * j] = ca[2 * j], val[2 * j + 1] = ca[2 * j + 1];
    });
    exec.for_each(special, [=] SPMESH_HD(index_t k) { d[k] = creasing::decrement(ss[k]); });
    detail::Selections<Exec> select(exec);
    const int edges = select.add(2 * sharp, [=] SPMESH_HD(index_t p) { return creasing::is_sharp(val[p]); });
    const int vertices = select.add(special, [=] SPMESH_HD(index_t k) { return creasing::is_sharp(d[k]); });
    select.read();
    child.C.edges = select.gather(edges, id);
    child.C.halves = select.gather(edges, al);
    child.C.edge_values = select.gather(edges, val);
    child.C.vertices = select.gather(vertices, L.C.special.data());
    child.C.vertex_values = select.gather(vertices, d);
    // The child's special vertices: the parent's special vertex points, then its sharp edge
    // points (a superset, in increasing order, with no search).
    child.C.special = Array<index_t, S>(special + sharp);
    const index_t *sp = L.C.special.data(), first_edge_point = L.vertices + L.faces;
    index_t* csp = child.C.special.data();
    exec.for_each(special + sharp, [=] SPMESH_HD(index_t k) {
      csp[k] = k < special ? sp[k] : first_edge_point + e[k - special];
    });
  }
  child.M = linalg::ReducedMeshMatrix<S>(V1, 4, std::move(quads));
  return child;
}

}  // namespace spmesh::schemes::catmull_clark
