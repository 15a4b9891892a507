// The first half-edge level of any polygon mesh (paper section 4.1): twins from a hash table
// of half-edge keys (the oriented adjacency of Eq. 12 without its product), edges numbered in
// half-edge order, and the crease matrix C made sparse; with the faces of another order than
// the scheme's and each face's vertex starts.
#pragma once

#include "linalg/fuse.hpp"
#include "linalg/key_table.hpp"
#include "linalg/select_ranges.hpp"
#include "schemes/half_edges/level.hpp"

#include <cstdint>
#include <string>

namespace spmesh::schemes {

namespace detail {

// The hash key of the edge between vertices i and j of a mesh of V vertices: lower V + upper,
// below V^2, whichever way the half-edge runs.
SPMESH_HD inline std::uint64_t edge_key(index_t i, index_t j, index_t V) {
  return i < j ? std::uint64_t(i) * V + j : std::uint64_t(j) * V + i;
}

// The edge of crease matrix entry k (vertices i[k], j[k]), through the lowest half-edge in its
// slot of the table of half-edges; -1 if none.
struct EdgeOfPair {
  linalg::KeyTable slots;
  const index_t *edge_code, *i, *j;
  index_t V;
  SPMESH_HD index_t operator()(index_t k) const {
    const index_t lo = i[k] < j[k] ? i[k] : j[k], hi = i[k] < j[k] ? j[k] : i[k];
    if (lo < 0 || hi >= V) return -1;
    const index_t s = slots.find(edge_key(lo, hi, V));
    return s < 0 ? -1 : edge_code[slots.lowest[s]] / 2;
  }
};

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

// The first level's half-edge topology from mesh M (any faces), into L: twins by a hash table
// of the half-edges' end vertices (an edge whose two half-edges run the same way, or that has
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
  index_t *tw = L.twin.data(), *code = L.edge_code.data(), *fo = face_of.data(),
          *ve = L.vertex_edge.data();
  std::uint8_t* special_flag = flags.data();
  const index_t *q = M.indices.data(), *offsets = M.offsets.data();
  const float* vs = C.vertices.data();
  const PolygonFaces fc{offsets, fo};
  // Half-edges by (lower end, upper end) in a hash table: an edge's half-edges meet in one
  // slot. (A sort of the keys took six launches and most of the first level's GPU time.) The
  // kernel that clears the table also starts vertex_edge (a minimum, below) and the special
  // flags.
  linalg::KeyTableArrays<S> table(halves);
  const linalg::KeyTable slots = table.view();
  const index_t slot_count = table.slots();
  exec.for_each(slot_count > V ? slot_count : V, [=] SPMESH_HD(index_t i) {
    if (i < V) ve[i] = 2 * halves, special_flag[i] = creasing::is_sharp(vs[i]) ? 1 : 0;
    if (i < slot_count) slots.clear(i);
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
    const index_t g = slots.count[s] != 2    ? -1
                      : slots.lowest[s] == h ? slots.highest[s]
                                             : slots.lowest[s];
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
  // few threads of many items each on small inputs, so the crease entries' edges are looked up
  // before it; bench/RESULTS.md, Tuning choices: first_level.)
  const index_t* edges = edge_count.data();
  using linalg::range;
  const auto chosen = linalg::select_ranges(
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
  index_t *un = L.unused.data(), *se = L.C.edges.data(), *ch = L.C.halves.data(),
          *cv = L.C.special.data();
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
  exec.for_each(
      nu + ns + nv + out.starts.size(),
      linalg::fuse(gather, nu + ns + nv, VertexStarts{ve, q, face_order, out.starts.data()}));
  out.face_of = std::move(face_of);
  return out;
}

}  // namespace spmesh::schemes
