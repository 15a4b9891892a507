// Half-edge levels, shared by the schemes that insert a point per edge and refine every face
// into children of its own kind (Catmull-Clark's quads, quads.hpp; Loop's triangles,
// loop/triangles.hpp; paper section 4.1). A level keeps, per half-edge, its twin and its edge,
// and per vertex an outgoing half-edge; a child level follows from its parent by fixed local
// rules with no sort and no search. The crease matrix C is kept sparse: only sharp edges and
// vertices, and the special vertices whose mask may not be the smooth one. Here: the level,
// its view and ring walk, the first level from any polygon mesh (a hash table of half-edge keys:
// the oriented adjacency of Eq. 12 without its product), the crease rules on the sparse C
// (crease_rules.hpp, Eq. 18-21) and the child's C.
#pragma once

#include "linalg/atomics.hpp"
#include "linalg/formats.hpp"
#include "linalg/mesh_matrix.hpp"
#include "schemes/crease_rules.hpp"

#include <bit>
#include <cstdint>
#include <string>
#include <utility>

namespace spmesh::schemes {

// A load through the GPU's read-only cache (the array must not change during the kernel), so
// that the compiler may reorder it past the kernel's stores.
template <class T>
SPMESH_HD inline T ldg(const T* p) {
#if defined(__CUDA_ARCH__)
  return __ldg(p);
#else
  return *p;
#endif
}

// The number of trailing zero bits of x > 0.
SPMESH_HD inline int trailing_zeros(unsigned x) {
#if defined(__CUDA_ARCH__)
  return __ffs(x) - 1;
#else
  return std::countr_zero(x);
#endif
}

// Four consecutive values (a quad's vertices, twins or edge codes; a third of a triangle's
// four children), as one 16-byte access on the GPU (p must be 16-byte aligned).
struct Index4 {
  index_t v[4];
};
SPMESH_HD inline Index4 load4(const index_t* p) {
#if defined(__CUDA_ARCH__)
  const int4 x = __ldg(reinterpret_cast<const int4*>(p));
  return {{x.x, x.y, x.z, x.w}};
#else
  return {{p[0], p[1], p[2], p[3]}};
#endif
}
SPMESH_HD inline void store4(index_t* p, const Index4& x) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<int4*>(p) = make_int4(x.v[0], x.v[1], x.v[2], x.v[3]);
#else
  for (int s = 0; s < 4; ++s) p[s] = x.v[s];
#endif
}
// The position of `key` in the increasing keys[0, n), or -1.
template <class K>
SPMESH_HD index_t find_sorted(const K* keys, index_t n, K key) {
  index_t lo = 0, hi = n;
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && keys[lo] == key ? lo : -1;
}

// Two kernels' independent work in one launch (launches bound small levels): a(i) for i in
// [0, n), then b(i - n) for i past n.
template <class A, class B>
struct Both {
  A a;
  index_t n;
  B b;
  SPMESH_HD void operator()(index_t i) const {
    if (i < n) a(i);
    else b(i - n);
  }
};
template <class A, class B>
Both<A, B> both(A a, index_t n, B b) {
  return {a, n, b};
}

// The sparse crease matrix C of a half-edge level. `edges` (increasing ids, each with the
// half-edge that runs along it and its sharpness) holds every sharp edge, boundary edges among
// them, infinitely sharp. `special` (increasing, each with its vertex sharpness) holds every
// sharp vertex and every vertex at an end of a sharp edge, the only ones whose mask may not be
// the smooth one. The first level holds exactly those. A child level holds both children of
// every parent entry and the special vertex points and sharp edge points: supersets, in order,
// known without a search or a count, whose extra entries have sharpness 0 and take the smooth
// rules. So a child level is built with no host wait; the entries grow by 2 per level while the
// mesh grows by 4.
template <class S>
struct HalfEdgeSharpness {
  linalg::Array<index_t, S> edges, halves;
  linalg::Array<float, S> edge_values;
  linalg::Array<index_t, S> special;
  linalg::Array<float, S> special_values;
};

// The weight w of the point of sharp edge j of C.edges (the edge rule, read where it is used,
// so it takes no kernel of its own): a sharp edge whose two children stay sharp is a crease
// (w = 1), else w = s, its sharpness.
struct EdgeCrease {
  const float *child_at, *sharpness;
  SPMESH_HD double operator[](index_t j) const {
    return creasing::is_sharp(child_at[2 * j]) && creasing::is_sharp(child_at[2 * j + 1])
               ? 1.0
               : static_cast<double>(sharpness[j]);
  }
};

// The crease rules of a half-edge level (crease_rules.hpp's, on the sparse C): a VertexMask per
// special vertex (C.special; every other vertex takes the smooth mask) and each sharp edge's
// children's sharpness, from which edge_crease() gives the weight of its point.
template <class S>
struct HalfEdgeRules {
  linalg::Array<float, S> special_sharpness;  // vertex sharpness, boundary corners pinned
  linalg::Array<double, S> self, ring, crease;
  linalg::Array<index_t, S> crease_u, crease_w;
  linalg::Array<float, S> child_at;  // 2 per sharp edge: its children's sharpness (from, to end)
  // Per special vertex: 1 if its mask is the smooth one and it is not on the boundary, so that
  // eval's smooth vertex point stands (most of a child level's special vertices: their creases
  // decayed, or they are points of smooth edges kept in C).
  linalg::Array<std::uint8_t, S> smooth;
};

// A level on half-edges: each face corner is the half-edge from its vertex to the next corner's.
// Edge numbering is local: edge e's children are 2 e (at the start of its half-edge along) and
// 2 e + 1, then come the edges inside the parent's faces. Each scheme derives its levels from
// this (with their mesh matrix and child counts).
template <class S>
struct HalfEdgeLevel {
  index_t vertices = 0, faces = 0, edges = 0;
  linalg::Array<index_t, S> twin;       // per half-edge: the opposite half-edge, -1 on the boundary
  linalg::Array<index_t, S> edge_code;  // per half-edge: 2 e + 1 if it runs against edge e, else 2 e
  linalg::Array<index_t, S> vertex_edge;  // per vertex: an outgoing half-edge, the one without a
                                          // twin on the boundary; -1 for an unused vertex
  linalg::Array<index_t, S> unused;  // vertices in no face (kept where they are)
  HalfEdgeSharpness<S> C;
  HalfEdgeRules<S> rules;

  EdgeCrease edge_crease() const { return {rules.child_at.data(), C.edge_values.data()}; }
};

// How half-edges sit in faces of any size: through offsets and a face per half-edge (the first
// level's, and Catmull-Clark's polygon base level). Each scheme adds its fixed-order faces
// (found by arithmetic) with the same members.
struct PolygonFaces {
  const index_t *offsets, *face_of;
  SPMESH_HD index_t face(index_t h) const { return ldg(face_of + h); }
  SPMESH_HD index_t begin(index_t f) const { return ldg(offsets + f); }
  SPMESH_HD index_t size(index_t f) const { return ldg(offsets + f + 1) - ldg(offsets + f); }
  SPMESH_HD index_t next(index_t h) const {
    const index_t f = face(h);
    return h + 1 == ldg(offsets + f + 1) ? begin(f) : h + 1;
  }
  SPMESH_HD index_t prev(index_t h) const {
    const index_t f = face(h);
    return h == begin(f) ? ldg(offsets + f + 1) - 1 : h - 1;
  }
  // The slot of corner h's vertex point in its Catmull-Clark child quad: quads keep the parent
  // corner's slot (OpenSubdiv's orientation), other polygons start at slot 0.
  SPMESH_HD index_t slot(index_t h) const {
    const index_t f = face(h);
    return size(f) == 4 ? h - begin(f) : 0;
  }
};

// What kernels read of a level's topology.
template <class Faces>
struct HalfEdgeView : Faces {
  const index_t *corners, *twin, *edge_code, *vertex_edge;  // corners: the vertex of each corner
  index_t vertices, faces, edges;

  // visit(h, neighbour, face) for every edge at vertex v: h runs along the edge, neighbour is
  // its other end, face is the face of h on the vertex's side (-1 for the last edge of a
  // boundary vertex, whose face lies on the other side). Rotates from vertex_edge[v] face by face.
  template <class Visit>
  SPMESH_HD void for_each_edge(index_t v, Visit&& visit) const {
    for_each_edge_from(vertex_edge[v], visit);
  }
  // The same from v's vertex_edge `first` (-1: no edge).
  template <class Visit>
  SPMESH_HD void for_each_edge_from(index_t first, Visit&& visit) const {
    if (first < 0) return;
    index_t h = first;
    while (true) {
      visit(h, ldg(corners + this->next(h)), this->face(h));
      const index_t p = this->prev(h), t = ldg(twin + p);
      if (t < 0) {
        visit(p, ldg(corners + p), index_t(-1));
        return;
      }
      if (t == first) return;
      h = t;
    }
  }
  // The neighbours of boundary vertex v along the boundary: after v (the end of its outgoing
  // half-edge without a twin), and before v (where its walk ends); -1 for an inner vertex.
  SPMESH_HD index_t boundary_after(index_t v) const {
    const index_t h = vertex_edge[v];
    return h >= 0 && ldg(twin + h) < 0 ? ldg(corners + this->next(h)) : -1;
  }
  SPMESH_HD index_t boundary_before(index_t v) const {
    index_t before = -1;
    for_each_edge(v, [&](index_t, index_t other, index_t face) {
      if (face < 0) before = other;
    });
    return before;
  }
};

// How half-edges sit in triangles (Loop's and sqrt(3)'s levels): h = 3 f + a runs from corner a
// of face f to corner a + 1.
struct TriangleFaces {
  SPMESH_HD index_t face(index_t h) const { return h / 3; }
  SPMESH_HD index_t begin(index_t f) const { return 3 * f; }
  SPMESH_HD index_t size(index_t) const { return 3; }
  SPMESH_HD index_t next(index_t h) const { return h % 3 == 2 ? h - 2 : h + 1; }
  SPMESH_HD index_t prev(index_t h) const { return h % 3 == 0 ? h + 2 : h - 1; }
};
using TriangleView = HalfEdgeView<TriangleFaces>;

namespace detail {

// The sort key of the edge between vertices i and j of a mesh of V vertices: lower V + upper,
// below V^2 (as few bits as the sort can take).
SPMESH_HD inline std::uint64_t edge_key(index_t i, index_t j, index_t V) {
  return i < j ? std::uint64_t(i) * V + j : std::uint64_t(j) * V + i;
}

// The first level's half-edges by their end vertices: an open-addressing table of edge keys
// (edge_key), each slot with how many half-edges run between its two vertices and the lowest
// and highest of them. It is filled with integer atomics in whatever order they land and reads
// the same every run: a slot's two half-edges are twins whichever came first, and an edge is
// found through its lowest half-edge.
struct EdgeSlots {
  static constexpr std::uint64_t empty = ~std::uint64_t(0);
  std::uint64_t* keys;
  index_t *count, *lowest, *highest;
  std::uint64_t mask;
  int shift;  // 64 - log2(slots)

  SPMESH_HD std::uint64_t start(std::uint64_t key) const {
    return (key * 0x9E3779B97F4A7C15ull) >> shift;  // Fibonacci hashing
  }
  SPMESH_HD void insert(std::uint64_t key, index_t h) const {
    std::uint64_t s = start(key);
    for (;;) {
      const std::uint64_t held = linalg::atomic_cas(keys + s, empty, key);
      if (held == empty || held == key) break;
      s = (s + 1) & mask;
    }
    linalg::atomic_add(count + s, 1);
    linalg::atomic_min(lowest + s, h), linalg::atomic_max(highest + s, h);
  }
  // The slot of `key` once the table is filled, or -1.
  SPMESH_HD index_t find(std::uint64_t key) const {
    for (std::uint64_t s = start(key);; s = (s + 1) & mask) {
      if (keys[s] == key) return static_cast<index_t>(s);
      if (keys[s] == empty) return -1;
    }
  }
};

// The edge of crease matrix entry k (vertices i[k], j[k]), through its lowest half-edge; -1 if
// none.
struct EdgeOfPair {
  EdgeSlots slots;
  const index_t *edge_code, *i, *j;
  index_t V;
  SPMESH_HD index_t operator()(index_t k) const {
    const index_t lo = i[k] < j[k] ? i[k] : j[k], hi = i[k] < j[k] ? j[k] : i[k];
    if (lo < 0 || hi >= V) return -1;
    const index_t s = slots.find(edge_key(lo, hi, V));
    return s < 0 ? -1 : edge_code[slots.lowest[s]] / 2;
  }
};

// Several selections at once: the positions p in [0, n) where keep(p) holds, for each range
// (n, keep) of a chain range(n, keep, range(...)), found by one CUB pass over the
// ranges laid end to end (select_ranges). Each selection costs two launches, a wait and four
// allocations when made alone.
struct NoRange {
  static constexpr int count = 0;
  SPMESH_HD bool operator()(index_t) const { return false; }
  void sizes(index_t*) const {}
};
template <class Keep, class Next>
struct Range {
  static constexpr int count = 1 + Next::count;
  index_t n;
  Keep keep;
  Next next;
  SPMESH_HD bool operator()(index_t i) const { return i < n ? keep(i) : next(i - n); }
  void sizes(index_t* out) const { *out = n, next.sizes(out + 1); }
};
template <class Keep, class Next = NoRange>
Range<Keep, Next> range(index_t n, Keep keep, Next next = {}) {
  return {n, keep, next};
}

// What select_ranges returns: the positions chosen in the ranges laid end to end, increasing;
// per range, where it starts in that sequence, where its chosen positions start among them, and
// the first position it chose (-1 where it chose none).
template <class S>
struct Selected {
  static constexpr int capacity = 8;
  linalg::Array<index_t, S> positions;
  index_t start[capacity + 1] = {}, first[capacity + 1] = {}, head[capacity] = {};
  index_t count(int r) const { return first[r + 1] - first[r]; }
};

// Per chosen position i in [0, total]: the ranges whose first chosen is i (those after the range
// of chosen i - 1, up to that of chosen i; the rest at total), into first[0, ranges], and the
// first position chosen in each range, into head[r] = first[ranges + 1 + r]. Thread 0 also
// copies the caller's value `also` into first[2 ranges + 1].
struct RangeFirsts {
  const index_t *positions, *total, *also;
  index_t* first;
  index_t start[Selected<linalg::Host>::capacity + 1];
  int ranges;
  SPMESH_HD int range_of(index_t p) const {
    int r = 0;
    while (r + 1 < ranges && p >= start[r + 1]) ++r;
    return r;
  }
  SPMESH_HD void operator()(index_t i) const {
    const index_t n = *total;
    if (i == 0 && also) first[2 * ranges + 1] = *also;
    if (i > n) return;
    const int before = i == 0 ? -1 : range_of(positions[i - 1]);
    const int at = i == n ? ranges : range_of(positions[i]);
    for (int r = before + 1; r <= at; ++r) first[r] = i;
    if (at < ranges && at > before) first[ranges + 1 + at] = positions[i] - start[at];
  }
};

// The selections of a chain of ranges, with one wait; `also` (device memory, may be null) is
// read in the same wait, into *also_host.
template <class Exec, class Ranges, class S = typename Exec::space>
Selected<S> select_ranges(Exec& exec, const Ranges& ranges, const index_t* also = nullptr,
                          index_t* also_host = nullptr) {
  static_assert(Ranges::count <= Selected<S>::capacity);
  constexpr int R = Ranges::count;
  Selected<S> out;
  index_t sizes[R];
  ranges.sizes(sizes);
  for (int r = 0; r < R; ++r) out.start[r + 1] = out.start[r] + sizes[r];
  const index_t N = out.start[R];
  out.positions = linalg::Array<index_t, S>(N);
  linalg::Array<index_t, S> found(2 * R + 3);  // first[0, R], head[0, R), also, total
  RangeFirsts firsts{out.positions.data(), found.data() + 2 * R + 2, also, found.data(), {}, R};
  for (int r = 0; r <= R; ++r) firsts.start[r] = out.start[r];
  exec.select_positions(N, out.positions.data(), found.data() + 2 * R + 2, ranges);
  exec.for_each(N + 1, firsts);
  index_t host[2 * R + 2];
  exec.read(found.data(), 2 * R + 2, host);
  for (int r = 0; r <= R; ++r) out.first[r] = host[r];
  for (int r = 0; r < R; ++r) out.head[r] = out.count(r) > 0 ? host[R + 1 + r] : -1;
  if (also_host) *also_host = host[2 * R + 1];
  return out;
}

}  // namespace detail

// A fixed-order level's `starts`: bit a of face f set when half-edge order f + a is its
// vertex's vertex_edge, so that eval can walk every vertex's ring in face order (neighbouring
// threads, neighbouring faces).
struct VertexStarts {
  const index_t *vertex_edge, *corners;
  index_t order;
  std::uint8_t* starts;
  SPMESH_HD void operator()(index_t f) const {
    std::uint8_t bits = 0;
    for (index_t a = 0; a < order; ++a)
      bits |= vertex_edge[corners[order * f + a]] == order * f + a ? 1 << a : 0;
    starts[f] = bits;
  }
};

// What first_half_edge_level returns: the face of every half-edge; the faces whose size is not
// the order asked for (their count and the first); and, where there are none, the level's
// starts.
template <class S>
struct FirstLevel {
  linalg::Array<index_t, S> face_of;
  linalg::Array<std::uint8_t, S> starts;
  index_t other_faces = 0, first_other = -1;
};

// The first level's half-edge topology from mesh M (any faces), into L: twins by sorting the
// half-edges by their end vertices (an edge whose two half-edges run the same way, or that has
// more than two, counts as boundary on every one of them: check_mesh rejects such meshes),
// edges numbered in half-edge order (an edge runs along its half-edge from the lower vertex, or
// its only one), and C made sparse; with a `face_order`, also the faces of another size, found
// with the same wait, and the starts when there are none. Throws InputError if C names a vertex
// pair that shares no edge. Small meshes are bound by the host's calls (launches and
// allocations), so steps that can share a kernel share one, and one wait reads every count.
template <class Exec, class S = typename Exec::space>
FirstLevel<S> first_half_edge_level(Exec& exec, HalfEdgeLevel<S>& L, const linalg::MeshMatrix<S>& M,
                                    const Sharpness<S>& C, index_t face_order = 0) {
  using linalg::Array;
  L.vertices = M.vertices, L.faces = M.faces;
  const index_t halves = M.nnz(), V = M.vertices, F = M.faces;
  checked_index(2 * std::int64_t(halves), "first level half-edge keys");
  L.twin = Array<index_t, S>(halves), L.edge_code = Array<index_t, S>(halves);
  L.vertex_edge = Array<index_t, S>(V);
  Array<index_t, S> face_of(halves);
  Array<std::uint8_t, S> flags(V);  // special vertices: sharp, or at an end of a sharp edge
  index_t *tw = L.twin.data(), *code = L.edge_code.data(), *fo = face_of.data(), *ve = L.vertex_edge.data();
  std::uint8_t* special_flag = flags.data();
  const index_t *q = M.indices.data(), *offsets = M.offsets.data();
  const float* vs = C.vertices.data();
  const PolygonFaces fc{offsets, fo};
  // Half-edges by (lower end, upper end) in a table (EdgeSlots) of at least 1.5 slots per
  // half-edge: an edge's half-edges meet in one slot. (A sort of the keys took six launches and
  // most of the first level's GPU time.) The kernel that clears the table also starts
  // vertex_edge (a minimum, below) and the special flags.
  int bits = 6;
  while (bits < 31 && (std::int64_t(1) << bits) < halves + halves / 2) ++bits;
  const index_t slot_count = checked_index(std::int64_t(1) << bits, "first level edge table");
  Array<std::uint64_t, S> slot_keys(slot_count);
  Array<index_t, S> slot_halves(3 * slot_count);  // count, lowest, highest
  const detail::EdgeSlots slots{slot_keys.data(), slot_halves.data(), slot_halves.data() + slot_count,
                                slot_halves.data() + 2 * slot_count, std::uint64_t(slot_count - 1),
                                64 - bits};
  exec.for_each(slot_count > V ? slot_count : V, [=] SPMESH_HD(index_t i) {
    if (i < V) ve[i] = 2 * halves, special_flag[i] = creasing::is_sharp(vs[i]) ? 1 : 0;
    if (i >= slot_count) return;
    slots.keys[i] = detail::EdgeSlots::empty;
    slots.count[i] = 0, slots.lowest[i] = max_index, slots.highest[i] = -1;
  });
  exec.for_each(F, [=] SPMESH_HD(index_t f) {
    const index_t begin = offsets[f], end = offsets[f + 1];
    for (index_t h = begin; h < end; ++h) {
      fo[h] = f;
      slots.insert(detail::edge_key(q[h], q[h + 1 == end ? begin : h + 1], V), h);
    }
  });
  // Twins: the two half-edges of a slot of two, if they run opposite ways; an edge runs along
  // its half-edge from the lower vertex, or along its only one (a boundary edge, infinitely
  // sharp: its ends are special).
  Array<index_t, S> along(halves);
  index_t* id = along.data();
  exec.for_each(halves, [=] SPMESH_HD(index_t h) {
    const index_t to = q[fc.next(h)], s = slots.find(detail::edge_key(q[h], to, V));
    const index_t g = slots.count[s] != 2 ? -1 : slots.lowest[s] == h ? slots.highest[s] : slots.lowest[s];
    const index_t t = tw[h] = g >= 0 && q[g] == to ? g : -1;
    id[h] = code[h] = t < 0 || q[h] < to ? 1 : 0;
    if (t < 0) special_flag[q[h]] = 1, special_flag[to] = 1;
  });
  // vertex_edge: the first outgoing half-edge without a twin, else the first (a minimum over
  // keys that put the twinless ones first; 2 halves: none).
  exec.scatter_min(q, halves, ve, [=] SPMESH_HD(index_t h) { return tw[h] < 0 ? h : halves + h; });
  // Edges are numbered in the order of their half-edges along; their count stays on the device
  // until the selections' wait, so the arrays per edge take the upper bound, halves.
  Array<index_t, S> edge_count(1);
  exec.exclusive_scan(id, id, halves, edge_count.data());
  // Each edge's half-edge along and sharpness (boundary edges infinitely sharp, then the tagged
  // edges: the sharper value wins), the codes, and vertex_edge's half-edge.
  Array<index_t, S> edge_half(halves);
  Array<float, S> sharpness(halves);
  index_t* eh = edge_half.data();
  float* es = sharpness.data();
  exec.for_each(halves, [=] SPMESH_HD(index_t h) {
    if (code[h]) eh[id[h]] = h, es[id[h]] = tw[h] < 0 ? creasing::infinite : creasing::none;
    code[h] = code[h] ? 2 * id[h] : 2 * id[tw[h]] + 1;
    linalg::atomic_cas(ve + q[h], halves + h, h);  // the minimum's half-edge, if twinned
  });
  // Tagged edges: the sharper value wins; a sharp one's ends are special.
  const index_t *ci = C.edges.row_indices.data(), *cj = C.edges.col_indices.data();
  const detail::EdgeOfPair edge_of{slots, code, ci, cj, V};
  const float* cs = C.edges.values.data();
  Array<index_t, S> crease_edges(C.edges.nnz());  // the edge of each entry, or -1
  index_t* ce = crease_edges.data();
  exec.for_each(C.edges.nnz(), [=] SPMESH_HD(index_t k) {
    const index_t e = ce[k] = edge_of(k);
    if (e < 0) return;
    float& s = es[e];
    s = cs[k] > s ? cs[k] : s;
    if (creasing::is_sharp(cs[k])) special_flag[ci[k]] = 1, special_flag[cj[k]] = 1;
  });
  // Unused vertices, sharp edges, special vertices, the crease entries that name no edge, and
  // the faces of another order, with the edge count. (Cheap predicates only: a selection runs
  // few threads of many items each on small inputs, and the crease entries' edge lookups there
  // took 120 us.)
  const index_t* edges = edge_count.data();
  using detail::range;
  const auto chosen = detail::select_ranges(
      exec,
      range(V, [=] SPMESH_HD(index_t v) { return ve[v] == 2 * halves; },
      range(halves, [=] SPMESH_HD(index_t e) { return e < *edges && creasing::is_sharp(es[e]); },
      range(V, [=] SPMESH_HD(index_t v) { return special_flag[v] != 0; },
      range(C.edges.nnz(), [=] SPMESH_HD(index_t k) { return ce[k] < 0; },
      range(face_order > 0 ? F : 0,
            [=] SPMESH_HD(index_t f) { return offsets[f + 1] - offsets[f] != face_order; }))))),
      edges, &L.edges);
  enum { unused, sharp, special, missing, others };
  if (chosen.count(missing) > 0)
    throw InputError("subdivision build: the crease matrix names " +
                     std::to_string(chosen.count(missing)) + " vertex pairs that share no edge");
  FirstLevel<S> out;
  out.other_faces = chosen.count(others), out.first_other = chosen.head[others];
  // The chosen unused vertices (vertex_edge -1), sharp edges and special vertices in one
  // kernel, with the starts of a level of one face order.
  const index_t nu = chosen.count(unused), ns = chosen.count(sharp), nv = chosen.count(special);
  L.unused = Array<index_t, S>(nu);
  L.C.edges = Array<index_t, S>(ns), L.C.halves = Array<index_t, S>(ns);
  L.C.edge_values = Array<float, S>(ns);
  L.C.special = Array<index_t, S>(nv), L.C.special_values = Array<float, S>(nv);
  // Position k of range r: positions[first[r] + k] - start[r].
  const index_t* pos = chosen.positions.data();
  const index_t fu = chosen.first[unused], fs = chosen.first[sharp], fv = chosen.first[special];
  const index_t ss = chosen.start[sharp], sv = chosen.start[special];
  index_t *un = L.unused.data(), *se = L.C.edges.data(), *ch = L.C.halves.data(), *cv = L.C.special.data();
  float *cev = L.C.edge_values.data(), *cvv = L.C.special_values.data();
  const auto gather = [=] SPMESH_HD(index_t i) {
    if (i < nu) {
      const index_t v = un[i] = pos[fu + i];
      ve[v] = -1;
    } else if (i < nu + ns) {
      const index_t k = i - nu, e = se[k] = pos[fs + k] - ss;
      ch[k] = eh[e], cev[k] = es[e];
    } else {
      const index_t k = i - nu - ns, v = cv[k] = pos[fv + k] - sv;
      cvv[k] = vs[v];
    }
  };
  const bool one_order = face_order > 0 && out.other_faces == 0;
  out.starts = Array<std::uint8_t, S>(one_order ? F : 0);
  exec.for_each(nu + ns + nv + out.starts.size(),
                both(gather, nu + ns + nv, VertexStarts{ve, q, face_order, out.starts.data()}));
  out.face_of = std::move(face_of);
  return out;
}

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

  static constexpr int kept = 12;

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
      f(j < 0 ? creasing::none : sharp_values[j], t.twin[g] < 0, other, child_slot(j, code, face < 0));
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
      code[i] = ldg(t.edge_code + half[i]), boundary[i] = ldg(t.twin + half[i]) < 0;
      other[i] = ldg(t.corners + (in ? half[i] : t.next(half[i])));
    }
#pragma unroll
    for (int i = 0; i < kept; ++i)
      if (i < n) slot[i] = child_slot(sharp_of(code[i] >> 1), code[i], into && i == n - 1);
#pragma unroll
    for (int i = 0; i < kept; ++i)
      if (i < n) sharpness[i] = slot[i] < 0 ? creasing::none : ldg(sharp_values + slot[i] / 2);
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
                       t, places, C.edge_values.data(), options,
                       C.special.data(), C.special_values.data(), r.special_sharpness.data(), r.self.data(),
                       r.ring.data(), r.crease.data(), r.crease_u.data(), r.crease_w.data(),
                       r.child_at.data(), r.smooth.data()});
  return r;
}

// A child level's unused vertices: its parent's, whose vertex points stay unused (the child's
// vertex_edge -1; a child's faces kernel sets that of every used vertex).
template <class Exec, class Parent, class Child>
void inherit_unused(Exec& exec, const Parent& L, Child& child) {
  using S = typename Exec::space;
  child.unused = linalg::Array<index_t, S>(L.unused.size());
  const index_t* u = L.unused.data();
  index_t* cu = child.unused.data();
  index_t* cve = child.vertex_edge.data();
  exec.for_each(L.unused.size(), [=] SPMESH_HD(index_t k) { cu[k] = u[k], cve[u[k]] = -1; });
}

// What a child level inherits of its parent L beyond the faces (whose kernel sets the outgoing
// half-edge of every used vertex): its unused vertices (inherit_unused), and its sparse C
// (HalfEdgeSharpness: both children of every parent edge entry, 2 e at the start of its
// half-edge along and 2 e + 1 at its end, with the sharpness the rules gave them; the parent's
// special vertex points with their decayed sharpness, then its edge entries' points), with no
// host wait. `halves` maps a parent half-edge h to the child half-edges along its two halves:
// first(h) from h's start, second(h) into h's end; edge points start at first_edge_point.
// inherit() makes the child's arrays and returns the work, one item each, for the faces
// kernel's launch (both).
template <class Halves>
struct Inherited {
  Halves halves;
  index_t first_edge_point = 0, unused = 0, special = 0, sharp = 0;
  const index_t *u = nullptr, *e = nullptr, *h = nullptr, *sp = nullptr;
  const float *ca = nullptr, *ss = nullptr;
  index_t *cu = nullptr, *cve = nullptr, *id = nullptr, *al = nullptr, *csp = nullptr;
  float *val = nullptr, *csv = nullptr;

  index_t size() const { return unused + special + sharp; }
  SPMESH_HD void operator()(index_t k) const {
    if (k < unused) {
      cu[k] = u[k], cve[u[k]] = -1;
      return;
    }
    k -= unused;
    if (k < special) {
      csp[k] = sp[k], csv[k] = creasing::decrement(ss[k]);
      return;
    }
    const index_t j = k - special;
    csp[k] = first_edge_point + e[j], csv[k] = creasing::none;
    id[2 * j] = 2 * e[j], id[2 * j + 1] = 2 * e[j] + 1;
    al[2 * j] = halves.first(h[j]), al[2 * j + 1] = halves.second(h[j]);
    val[2 * j] = ca[2 * j], val[2 * j + 1] = ca[2 * j + 1];
  }
};
template <class Level, class Halves, class S>
Inherited<Halves> inherit(const Level& L, HalfEdgeLevel<S>& child, Halves halves,
                          index_t first_edge_point) {
  using linalg::Array;
  const index_t unused = L.unused.size(), sharp = L.C.edges.size(), special = L.C.special.size();
  child.unused = Array<index_t, S>(unused);
  auto& C = child.C;
  C.edges = Array<index_t, S>(2 * sharp), C.halves = Array<index_t, S>(2 * sharp);
  C.edge_values = Array<float, S>(2 * sharp);
  C.special = Array<index_t, S>(special + sharp), C.special_values = Array<float, S>(special + sharp);
  return {halves, first_edge_point, unused, special, sharp,
          L.unused.data(), L.C.edges.data(), L.C.halves.data(), L.C.special.data(),
          L.rules.child_at.data(), L.rules.special_sharpness.data(),
          child.unused.data(), child.vertex_edge.data(), C.edges.data(), C.halves.data(),
          C.special.data(), C.edge_values.data(), C.special_values.data()};
}

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
    for (index_t j = 0; j < W; ++j) x[j] = j < m ? ldg(row(r) + c + j) : T(0);
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
