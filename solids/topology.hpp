// A volume mesh's topology as boundary operators, the signed incidence matrices of Mueller-Roemer,
// Altenhofen and Stork (2017, "ternary sparse matrices"):
//   d3 (cells x faces):    +1 where the face's orientation is the cell's outward one, -1 else;
//   d2 (faces x edges):    each row the face's edges in the order of its cycle, +1 where the edge
//                          (from its lower vertex to its higher) runs along the cycle, -1 else;
//   d1 (edges x vertices): -1 at the edge's lower vertex, +1 at its higher.
// The boundary of a boundary is empty: d3 d2 = 0 and d2 d1 = 0. Built from cell lists
// (cells.hpp) on the executor: a cell's faces are identified by sorting their vertex sets, the
// faces' edges by sorting their vertex pairs, so faces are numbered by their sorted vertices and
// edges by (lower, higher) vertex; a face is oriented as the lowest-numbered cell holding it sees
// it from outside. Backend-neutral: every step is an executor primitive or a for_each.
#pragma once

#include "linalg/ternary.hpp"
#include "solids/cells.hpp"
#include "solids/polyhedra.hpp"
#include "solids/tuning.hpp"

#include "linalg/detail/offsets.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace spmesh::solids {

template <class S = linalg::Host>
struct BoundaryOperators {
  linalg::Ternary<S> d3, d2, d1;

  index_t cells() const { return d3.rows; }
  index_t faces() const { return d2.rows; }
  index_t edges() const { return d1.rows; }
  index_t vertices() const { return d1.cols; }
};

// The operators' transposes, each row ascending: t1 = d1^T (vertices x edges), t2 = d2^T (edges
// x faces), t3 = d3^T (faces x cells).
template <class S = linalg::Host>
struct Transposes {
  linalg::Ternary<S> t1, t2, t3;
};

template <class Exec, class S = typename Exec::space>
Transposes<S> transposes(Exec& exec, const BoundaryOperators<S>& ops) {
  return {linalg::transpose(exec, ops.d1), linalg::transpose(exec, ops.d2), linalg::transpose(exec, ops.d3)};
}

// Which faces, edges and vertices lie on the boundary: a face in one cell, an edge on such a
// face, a vertex on such an edge.
template <class S = linalg::Host>
struct BoundaryFlags {
  linalg::Array<char, S> faces, edges, vertices;
};

template <class Exec, class S = typename Exec::space>
BoundaryFlags<S> boundary_flags(Exec& exec, const BoundaryOperators<S>& ops, const Transposes<S>& transposed) {
  const index_t V = ops.vertices(), E = ops.edges(), F = ops.faces();
  BoundaryFlags<S> out{linalg::Array<char, S>(F), linalg::Array<char, S>(E), linalg::Array<char, S>(V)};
  char *fb = out.faces.data(), *eb = out.edges.data(), *vb = out.vertices.data();
  const auto t1v = transposed.t1.view(), t2v = transposed.t2.view(), t3v = transposed.t3.view();
  exec.for_each(F, [=] SPMESH_HD(index_t f) { fb[f] = t3v.end(f) - t3v.begin(f) == 1; });
  exec.for_each(E, [=] SPMESH_HD(index_t e) {
    char on = 0;
    for (index_t p = t2v.begin(e); p < t2v.end(e); ++p) on |= fb[t2v.index(p)];
    eb[e] = on;
  });
  exec.for_each(V, [=] SPMESH_HD(index_t v) {
    char on = 0;
    for (index_t p = t1v.begin(v); p < t1v.end(v); ++p) on |= eb[t1v.index(p)];
    vb[v] = on;
  });
  return out;
}

// The edge joining vertices u and w: edges are numbered by (lower, higher) vertex (d1's rows).
SPMESH_HD inline index_t find_edge(const linalg::TernaryView& d1, index_t u, index_t w) {
  const index_t low = u < w ? u : w, high = u < w ? w : u;
  index_t lo = 0, hi = d1.outer;
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    const index_t l = linalg::column_of(d1.columns[2 * mid]), h = d1.columns[2 * mid + 1];
    if (l < low || (l == low && h < high)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The edge of face f joining vertices u and w, found among the face's sides (its row of d2):
// a few reads near each other, where find_edge searches all the edges.
SPMESH_HD inline index_t face_edge(const linalg::TernaryView& d1, const linalg::TernaryView& d2, index_t f, index_t u,
                                   index_t w) {
  const index_t low = u < w ? u : w, high = u < w ? w : u;
  for (index_t p = d2.begin(f); p < d2.end(f); ++p) {
    const index_t e = d2.index(p);
    if (linalg::column_of(d1.columns[2 * e]) == low && d1.columns[2 * e + 1] == high) return e;
  }
  return -1;
}

// The two sides of face f at its corner v: `toward` the one whose other end is w, and `other`.
// One walk of the face's sides where two face_edge calls would make two.
struct CornerSides {
  index_t toward = -1, other = -1;
};
SPMESH_HD inline CornerSides corner_sides(const linalg::TernaryView& d1, const linalg::TernaryView& d2, index_t f,
                                          index_t v, index_t w) {
  CornerSides sides;
  for (index_t p = d2.begin(f); p < d2.end(f) && (sides.toward < 0 || sides.other < 0); ++p) {
    const index_t e = d2.index(p), low = linalg::column_of(d1.columns[2 * e]), high = d1.columns[2 * e + 1];
    if (low != v && high != v) continue;
    if (low == w || high == w) sides.toward = e;
    else sides.other = e;
  }
  return sides;
}

namespace detail {

// The first position in [0, n) where pred holds, or -1 (two host waits when one does).
template <class Exec, class Pred>
index_t first_where(Exec& exec, index_t n, Pred pred) {
  const index_t count = exec.count_if(n, pred);
  if (count == 0) return -1;
  linalg::Array<index_t, typename Exec::space> positions(count), found(1);
  exec.select_positions(n, positions.data(), found.data(), pred);
  return exec.read(positions.data());
}

// An exclusive scan of in[0, rows) into out and how many positions of [0, n) satisfy pred, read
// together (one host wait): {the scan's total, the count}.
template <class Exec, class Pred>
std::array<index_t, 2> scan_and_count(Exec& exec, const index_t* in, index_t* out, index_t rows, index_t n, Pred pred) {
  linalg::Array<index_t, typename Exec::space> totals(2);
  exec.exclusive_scan(in, out, rows, totals.data());
  exec.count_if(n, pred, totals.data() + 1);
  std::array<index_t, 2> host;
  exec.read(totals.data(), 2, host.data());
  return host;
}

// Offsets from each row's length in at[0, rows), whose total the counts give: an exclusive scan
// and at[rows] = total, with no host wait.
template <class Exec>
void lengths_to_offsets(Exec& exec, index_t* at, index_t rows, index_t total) {
  exec.exclusive_scan(at, at, rows, static_cast<index_t*>(nullptr));
  exec.for_each(1, [=] SPMESH_HD(index_t) { at[rows] = total; });
}

// The lanes a small level's numbering kernels share an item among: tuning::entry_lanes where the
// executor has them and the kernel has fewer than tuning::entry_lanes_below items, else 1. For
// items whose entries each take a walk through a level's rows (refined_topology.hpp): one thread
// walking all of an item's entries waits on each load in turn, which bounds a small level, whose
// few items do not fill the GPU, by latency; a large level is faster one thread an item.
template <class Exec>
inline constexpr int entry_lanes = Exec::lanes < tuning::entry_lanes ? Exec::lanes : tuning::entry_lanes;
template <class Exec>
bool share_entries(index_t n) {
  return entry_lanes<Exec> > 1 && n < tuning::entry_lanes_below;
}

// f(i, j) for every item i in [0, n) and entry j in [0, entries(i)), G lanes an item.
template <int G, class Exec, class Entries, class F>
void for_each_entry(Exec& exec, index_t n, Entries entries, F f) {
  exec.template for_each_grouped<G>(n, [=] SPMESH_HD(index_t i, int lane) {
    if (i >= n) return;
    const index_t count = entries(i);
    for (index_t j = lane; j < count; j += G) f(i, j);
  });
}
// The same, with the lanes share_entries gives.
template <class Exec, class Entries, class F>
void for_each_entry(Exec& exec, index_t n, Entries entries, F f) {
  if (share_entries<Exec>(n)) for_each_entry<entry_lanes<Exec>>(exec, n, entries, f);
  else for_each_entry<1>(exec, n, entries, f);
}

// Elements [begin, end) of executor memory, on the host.
template <class Exec>
std::vector<index_t> host_copy(Exec& exec, const index_t* p, index_t begin, index_t end) {
  std::vector<index_t> out(static_cast<std::size_t>(end - begin));
  if (end > begin) exec.read(p + begin, end - begin, out.data());
  return out;
}

// Face instances (a cell's face as that cell sees it): `slots` corners each (the mesh's widest
// face), in the cell's outward cycle (`corner`) and ascending (`sorted`); the slots past a face's
// corners hold `vertices`.
struct FaceInstances {
  const index_t* corner;
  const index_t* sorted;
  index_t vertices;
  int slots;

  SPMESH_HD int corners(index_t i) const {
    int n = slots;
    while (corner[slots * i + n - 1] == vertices) --n;
    return n;
  }
  SPMESH_HD bool same_set(index_t a, index_t b) const {
    for (int k = 0; k < slots; ++k)
      if (sorted[slots * a + k] != sorted[slots * b + k]) return false;
    return true;
  }
  // Whether a and b (the same vertex set) turn the same way: a's cycle read from b's first corner.
  SPMESH_HD bool same_turn(index_t a, index_t b) const {
    const index_t* p = corner + slots * a;
    const index_t* q = corner + slots * b;
    const int n = corners(a);
    int at = 0;
    while (p[at] != q[0]) ++at;
    return p[(at + 1) % n] == q[1];
  }
};

// The cell of each instance, on the host, from the cells' first instances.
inline index_t cell_of(const std::vector<index_t>& first, index_t instance) {
  return index_t(std::upper_bound(first.begin(), first.end(), instance) - first.begin() - 1);
}

inline std::string list(const std::vector<index_t>& ids) {
  std::string s;
  for (index_t id : ids) {
    if (!s.empty()) s += ' ';
    s += std::to_string(id);
  }
  return s;
}

// The mesh's polyhedra checked (check_polyhedra, on the host), and the most corners a face has.
template <class Exec, class S>
int check_polyhedra(Exec& exec, const CellMesh<S>& mesh) {
  if constexpr (std::is_same_v<S, linalg::Host>) {
    return check_polyhedra(mesh);
  } else {
    if (!mesh.has_polyhedra()) return max_face_corners;
    auto host = [&](const linalg::Array<index_t, S>& a) {
      const auto values = host_copy(exec, a.data(), 0, a.size());
      return linalg::Array<index_t>(values);
    };
    return check_polyhedra(CellMesh<>{mesh.vertices, host(mesh.offsets), host(mesh.indices), host(mesh.face_offsets),
                                      host(mesh.face_streams)});
  }
}

}  // namespace detail

// Throws InputError naming the first cell (ids count from 0) that is neither a kind nor a
// polyhedron (a pyramid or another vertex count without faces: pyramids do not subdivide into
// hexahedra), a polyhedron that check_polyhedra refuses, a cell that names a vertex out of range
// or repeats one; the first face held by more than two cells (non-manifold); the first face two
// cells hold with the same orientation (one of them inverted). Where `transposed` is given, also
// the operators' transposes, as transposes() gives them: t3 and t2 as the identification's sorts
// leave them (a face's instances together in cell order, an edge's sides in face order), t1 by
// transposing d1.
template <class Exec, class S = typename Exec::space>
BoundaryOperators<S> boundary_operators(Exec& exec, const CellMesh<S>& mesh, Transposes<S>* transposed = nullptr) {
  using linalg::Array;
  const index_t cells = mesh.cells(), vertices = mesh.vertices;
  const index_t *cell_at = mesh.offsets.data(), *cell_vertex = mesh.indices.data();
  const CellsView view = mesh.view();
  const int slots = detail::check_polyhedra(exec, mesh);

  // Every cell a kind or a polyhedron, with distinct vertices in range; counted with the face
  // instances (each cell's faces, as the cell sees them: outward), one wait for both.
  auto is_bad = [=] SPMESH_HD(index_t c) {
    const index_t begin = cell_at[c], corners = cell_at[c + 1] - begin;
    if (!view.shape(c).polyhedron() && cell_faces(corners) == 0) return true;
    for (index_t a = 0; a < corners; ++a) {
      const index_t v = cell_vertex[begin + a];
      if (v < 0 || v >= vertices) return true;
      for (index_t b = 0; b < a; ++b)
        if (cell_vertex[begin + b] == v) return true;
    }
    return false;
  };
  Array<index_t, S> first_instance(cells + 1);
  index_t* first = first_instance.data();
  exec.for_each(cells, [=] SPMESH_HD(index_t c) { first[c] = view.shape(c).faces(); });
  // (Named copies, not a structured binding, which C++20 lambdas may capture but clang 14 cannot.)
  const auto instances_and_bad = detail::scan_and_count(exec, first, first, cells, cells, is_bad);
  const index_t instances = instances_and_bad[0], bad_cells = instances_and_bad[1];
  if (bad_cells > 0) {
    const index_t bad_cell = detail::first_where(exec, cells, is_bad);
    const auto at = detail::host_copy(exec, cell_at, bad_cell, bad_cell + 2);
    const auto ids = detail::host_copy(exec, cell_vertex, at[0], at[1]);
    const index_t corners = at[1] - at[0];
    const bool polyhedron = mesh.has_polyhedra() && exec.read(mesh.face_offsets.data() + bad_cell + 1) >
                                                         exec.read(mesh.face_offsets.data() + bad_cell);
    const std::string why =
        !polyhedron && cell_faces(corners) == 0
            ? "is " + describe_cell(corners) + " (spmesh subdivides tetrahedra, prisms, hexahedra and polyhedra given " +
                  "by their faces" + (corners == 5 ? "; a pyramid does not subdivide into hexahedra)" : ")")
            : "names a vertex out of range (the mesh has " + std::to_string(vertices) + ") or one vertex twice";
    throw InputError("cell " + std::to_string(bad_cell) + " (vertices " + detail::list(ids) + ") " + why +
                     " (ids count from 0)");
  }

  // The instances' corners, a slot each; the slots past a face's corners hold `vertices`, past
  // every vertex id. instance_cell[i]: instance i's cell.
  exec.for_each(1, [=] SPMESH_HD(index_t) { first[cells] = instances; });
  Array<index_t, S> corner_of(slots * std::size_t(instances)), sorted_of(slots * std::size_t(instances));
  Array<index_t, S> cell_of_instance(instances);
  index_t *corner = corner_of.data(), *sorted = sorted_of.data(), *instance_cell = cell_of_instance.data();
  // A cell's faces spread over lanes where the cells are few (for_each_entry).
  detail::for_each_entry(
      exec, cells, [=] SPMESH_HD(index_t c) { return first[c + 1] - first[c]; },
      [=] SPMESH_HD(index_t c, index_t local) {
        const index_t i = first[c] + local;
        const CellShape shape = view.shape(c);
        instance_cell[i] = c;
        index_t* face = corner + slots * i;
        index_t* key = sorted + slots * i;
        const int n = shape.face_size(int(local));
        for (int k = 0; k < slots; ++k)
          face[k] = key[k] = k < n ? cell_vertex[cell_at[c] + shape.corner(int(local), k)] : vertices;
        for (int a = 1; a < slots; ++a)  // the vertex set, ascending
          for (int b = a; b > 0 && key[b] < key[b - 1]; --b) {
            const index_t t = key[b];
            key[b] = key[b - 1], key[b - 1] = t;
          }
      });

  // Instances ordered by their vertex sets: stable sorts from the last slots to the first, as
  // many slots to a 64-bit key as fit (a hexahedral mesh of fewer than 65,535 vertices sorts
  // once), so the instances of one face stay in cell order.
  Array<index_t, S> order_of(instances);
  Array<std::uint64_t, S> key_of(instances);
  index_t* order = order_of.data();
  std::uint64_t* key = key_of.data();
  const int key_bits = linalg::detail::bits_for(static_cast<std::uint64_t>(vertices) + 1);
  const int slots_a_key = std::min(slots, 64 / key_bits);
  for (int end = slots; end > 0; end -= slots_a_key) {
    const int begin = std::max(0, end - slots_a_key);
    const bool first_sort = end == slots;
    exec.for_each(instances, [=] SPMESH_HD(index_t j) {
      if (first_sort) order[j] = j;
      const index_t* set = sorted + slots * order[j];
      std::uint64_t packed = 0;
      for (int k = begin; k < end; ++k) packed = packed << key_bits | std::uint64_t(set[k]);
      key[j] = packed;
    });
    exec.sort_pairs(key, order, instances, (end - begin) * key_bits);
  }
  key_of = {};
  // Runs of equal sets numbered as faces, their corners (d2's rows, each face's cycle as its first
  // instance sees it) counted, with the sets held more than twice and the faces whose two cells
  // see it turning the same way (one of them inverted): one wait for the four counts.
  const detail::FaceInstances inst{corner, sorted, vertices, slots};
  auto is_head = [=] SPMESH_HD(index_t j) { return j == 0 || !inst.same_set(order[j], order[j - 1]); };
  auto is_crowded = [=] SPMESH_HD(index_t j) { return j >= 2 && inst.same_set(order[j], order[j - 2]); };
  auto is_inverted_pair = [=] SPMESH_HD(index_t j) { return !is_head(j) && inst.same_turn(order[j - 1], order[j]); };
  Array<index_t, S> face_number(instances), side_number(instances), totals(4);
  index_t *number = face_number.data(), *side_at = side_number.data();
  exec.for_each(instances, [=] SPMESH_HD(index_t j) {
    const bool head = is_head(j);
    number[j] = head ? 1 : 0;
    side_at[j] = head ? inst.corners(order[j]) : 0;
  });
  exec.exclusive_scan(number, number, instances, totals.data());
  exec.exclusive_scan(side_at, side_at, instances, totals.data() + 1);
  exec.count_if(instances, is_crowded, totals.data() + 2);
  exec.count_if(instances, is_inverted_pair, totals.data() + 3);
  std::array<index_t, 4> counts;
  exec.read(totals.data(), 4, counts.data());
  const index_t faces = counts[0], sides = counts[1], crowded_faces = counts[2], inverted_faces = counts[3];
  if (crowded_faces > 0) {
    const index_t crowded = detail::first_where(exec, instances, is_crowded);
    const auto held = detail::host_copy(exec, order, crowded - 2, crowded + 1);
    const auto face = detail::host_copy(exec, sorted, slots * held[0], slots * held[0] + slots);
    std::vector<index_t> ids, holders;
    for (index_t v : face)
      if (v < vertices) ids.push_back(v);
    const auto starts = detail::host_copy(exec, first, 0, cells + 1);
    for (index_t i : held) holders.push_back(detail::cell_of(starts, i));
    throw InputError("the face of vertices " + detail::list(ids) + " is held by cells " +
                     detail::list(holders) + " and maybe more: a face is in one or two cells (ids count from 0)");
  }
  // face_of[i]: instance i's face; owner[f]: the instance face f is oriented by (the first in
  // cell order); twin[i]: the other instance of i's face, or -1 on the boundary. The sorted order
  // holds a face's instances together in cell order: t3's rows, its offsets the runs' heads.
  BoundaryOperators<S> ops;
  ops.d2.rows = faces;
  ops.d2.offsets = Array<index_t, S>(faces + 1);
  index_t* d2_at = ops.d2.offsets.data();
  Array<index_t, S> face_of_instance(instances), owner_of(faces), twin_of(instances);
  index_t *face_of = face_of_instance.data(), *owner = owner_of.data(), *twin = twin_of.data();
  exec.for_each(instances, [=] SPMESH_HD(index_t j) {
    const bool head = is_head(j);
    const bool paired = head ? j + 1 < instances && inst.same_set(order[j], order[j + 1]) : true;
    const index_t i = order[j];
    face_of[i] = head ? number[j] : number[j] - 1;
    if (head) owner[number[j]] = i, d2_at[number[j]] = side_at[j];
    twin[i] = !paired ? -1 : head ? order[j + 1] : order[j - 1];
    if (j == 0) d2_at[faces] = sides;
  });
  if (inverted_faces > 0) {  // named by the first instance in cell order whose face is inverted
    auto is_inverted = [=] SPMESH_HD(index_t i) { return twin[i] > i && inst.same_turn(i, twin[i]); };
    const index_t inverted = detail::first_where(exec, instances, is_inverted);
    const index_t other = exec.read(twin + inverted);
    const auto starts = detail::host_copy(exec, first, 0, cells + 1);
    throw InputError("cells " + std::to_string(detail::cell_of(starts, inverted)) + " and " +
                     std::to_string(detail::cell_of(starts, other)) +
                     " see their shared face turning the same way: one of them is inverted "
                     "(its vertices in mirrored order; ids count from 0)");
  }

  // d3: a cell's faces in its local order, + where it owns the face's orientation.
  ops.d3 = {cells, faces, Array<index_t, S>(cells + 1), Array<index_t, S>(instances)};
  index_t *d3_at = ops.d3.offsets.data(), *d3_col = ops.d3.columns.data();
  exec.copy(first, cells + 1, d3_at);
  exec.for_each(instances, [=] SPMESH_HD(index_t i) {
    d3_col[i] = linalg::signed_column(face_of[i], owner[face_of[i]] == i ? 1 : -1);
  });
  if (transposed) {
    transposed->t3 = {faces, cells, Array<index_t, S>(faces + 1), Array<index_t, S>(instances)};
    index_t *t3_at = transposed->t3.offsets.data(), *t3_col = transposed->t3.columns.data();
    exec.for_each(instances + 1, [=] SPMESH_HD(index_t j) {
      if (j == instances) {
        t3_at[faces] = instances;
        return;
      }
      const index_t i = order[j];
      if (j == 0 || !inst.same_set(i, order[j - 1])) t3_at[face_of[i]] = j;
      t3_col[j] = linalg::signed_column(instance_cell[i], owner[face_of[i]] == i ? 1 : -1);
    });
  }

  // d2: each face's cycle as its owner sees it; its edges found by sorting (lower, higher) pairs,
  // each key the two vertex ids in 2 x bits_for(vertices) bits.
  const int vertex_bits = linalg::detail::bits_for(static_cast<std::uint64_t>(vertices));
  Array<std::uint64_t, S> pair_of(sides);
  Array<index_t, S> side_of(sides), forward_of(sides), face_of_side(sides);
  std::uint64_t* pair = pair_of.data();
  index_t *side = side_of.data(), *forward = forward_of.data(), *side_face = face_of_side.data();
  exec.for_each(faces, [=] SPMESH_HD(index_t f) {
    const index_t* p = corner + slots * owner[f];
    const index_t n = d2_at[f + 1] - d2_at[f];
    for (index_t k = 0; k < n; ++k) {
      const index_t a = p[k], b = p[(k + 1) % n];
      const index_t low = a < b ? a : b, high = a < b ? b : a;
      pair[d2_at[f] + k] = std::uint64_t(low) << vertex_bits | std::uint64_t(high);
      side[d2_at[f] + k] = d2_at[f] + k;
      forward[d2_at[f] + k] = a == low;  // the side runs low -> high
      side_face[d2_at[f] + k] = f;
    }
  });
  // The instances' arrays are read no more (the kernels that read them are queued before the
  // frees): freed before the edges' sort, whose buffers then set the peak.
  for (auto* done : {&corner_of, &sorted_of, &cell_of_instance, &order_of, &face_number, &side_number, &face_of_instance,
                     &owner_of, &twin_of})
    *done = {};
  exec.sort_pairs(pair, side, sides, 2 * vertex_bits);
  Array<index_t, S> edge_number(sides);
  index_t* edge = edge_number.data();
  exec.for_each(sides, [=] SPMESH_HD(index_t j) { edge[j] = j == 0 || pair[j] != pair[j - 1] ? 1 : 0; });
  const index_t edges = exec.exclusive_scan(edge, edge, sides);
  ops.d2.cols = edges;
  ops.d2.columns = Array<index_t, S>(sides);
  ops.d1 = {edges, vertices, Array<index_t, S>(edges + 1), Array<index_t, S>(2 * std::size_t(edges))};
  index_t *d2_col = ops.d2.columns.data(), *d1_at = ops.d1.offsets.data(), *d1_col = ops.d1.columns.data();
  // The sorted sides hold an edge's sides together in face order: t2's rows, its offsets the
  // runs' heads.
  index_t *t2_at = nullptr, *t2_col = nullptr;
  if (transposed) {
    transposed->t2 = {edges, faces, Array<index_t, S>(edges + 1), Array<index_t, S>(sides)};
    t2_at = transposed->t2.offsets.data(), t2_col = transposed->t2.columns.data();
  }
  const std::uint64_t high_mask = (std::uint64_t(1) << vertex_bits) - 1;
  exec.for_each(sides, [=] SPMESH_HD(index_t j) {
    const bool head = j == 0 || pair[j] != pair[j - 1];
    const index_t e = head ? edge[j] : edge[j] - 1;
    const index_t low = index_t(pair[j] >> vertex_bits), high = index_t(pair[j] & high_mask);
    const int sign = forward[side[j]] ? 1 : -1;
    d2_col[side[j]] = linalg::signed_column(e, sign);
    if (head) {
      d1_at[e] = 2 * e;
      d1_col[2 * e] = linalg::signed_column(low, -1);
      d1_col[2 * e + 1] = linalg::signed_column(high, 1);
    }
    if (t2_at) {
      if (head) t2_at[e] = j;
      t2_col[j] = linalg::signed_column(side_face[side[j]], sign);
    }
  });
  exec.for_each(1, [=] SPMESH_HD(index_t) {
    d1_at[edges] = 2 * edges;
    if (t2_at) t2_at[edges] = sides;
  });
  if (transposed) {
    for (auto* done : {&side_of, &forward_of, &face_of_side, &edge_number}) *done = {};
    pair_of = {};
    transposed->t1 = linalg::transpose(exec, ops.d1);
  }
  return ops;
}

}  // namespace spmesh::solids
