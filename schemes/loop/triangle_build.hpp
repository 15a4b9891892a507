// Loop build on half-edge levels (triangles.hpp, half_edges.hpp): the first level from the base
// triangles, then each child level from its parent by local rules, one thread per child face;
// the crease rules on the sparse C (half_edge_rules with Loop's smooth mask).
#pragma once

#include "schemes/loop/plan.hpp"
#include "schemes/loop/triangles.hpp"
#include "schemes/triangles.hpp"

#include <cstdint>
#include <utility>

namespace spmesh::schemes::loop {

// The first level on half-edges (first_half_edge_level) of a triangle mesh. Throws
// not_triangles' InputError for a mesh that is not all triangles.
template <class Exec, class S = typename Exec::space>
TriangleLevel<S> triangle_level(Exec& exec, linalg::MeshMatrix<S> M, const Sharpness<S>& C) {
  TriangleLevel<S> L;
  const auto first = first_half_edge_level(exec, L, M, C, 3);
  if (first.other_faces > 0) throw not_triangles(exec, M, first.first_other, first.other_faces, "Loop");
  L.starts = vertex_starts(exec, L, 3, M.indices.data());
  L.M = linalg::ReducedMeshMatrix<S>(M.vertices, 3, std::move(M.indices));
  return L;
}

namespace detail {

// One child face per thread, c = 4 f + j (see TriangleLevel for the numbering). Its twins,
// edge codes and starts follow from the parent's alone, as do the outgoing half-edges of edge
// points; `twin` null stops at the faces (the last level).
struct RefineHalfEdgeTriangles {
  TriangleView t;
  const std::uint8_t* starts;  // the parent's
  index_t* triangles;
  index_t *twin, *edge_code, *vertex_edge;  // unused unless topology
  std::uint8_t* child_starts;

  SPMESH_HD void operator()(index_t c) const {
    const index_t f = c >> 2, j = c & 3, V = t.vertices, inner = 2 * t.edges + 3 * f;
    const index_t* code = t.edge_code + 3 * f;
    index_t *tri = triangles + 3 * c, *tw = twin + 3 * c, *ec = edge_code + 3 * c;
    if (j == 3) {  // the middle triangle: slot s, the edge point of half-edge s + 1
      for (index_t s = 0; s < 3; ++s) tri[s] = V + (code[(s + 1) % 3] >> 1);
      if (!twin) return;
      // Its half-edge s runs against the inner half-edge at slot s of the child at corner s + 2.
      for (index_t s = 0; s < 3; ++s) tw[s] = 3 * (4 * f + (s + 2) % 3) + s, ec[s] = 2 * (inner + s);
      child_starts[c] = 0;
      return;
    }
    // The child at corner a: slot a from the vertex point along the first half of h, slot a + 1
    // the inner half-edge, slot a + 2 along the second half of the previous half-edge hp.
    const index_t a = j, h = 3 * f + a, hp = 3 * f + (a + 2) % 3, s1 = (a + 1) % 3, s2 = (a + 2) % 3;
    const index_t ch = code[a], cp = code[s2];
    tri[a] = t.corners[h], tri[s1] = V + (ch >> 1), tri[s2] = V + (cp >> 1);
    if (!twin) return;
    const TriangleHalves halves;
    const index_t th = t.twin[h], tp = t.twin[hp];
    tw[a] = th < 0 ? -1 : halves.second(th);
    tw[s1] = 3 * (4 * f + 3) + s1;
    tw[s2] = tp < 0 ? -1 : halves.first(tp);
    ec[a] = 2 * ch + (ch & 1), ec[s1] = 2 * (inner + s1) + 1, ec[s2] = 2 * (cp ^ 1) + (cp & 1);
    // A vertex point's outgoing half-edge is the first half of its parent's, an edge point's the
    // second half of its half-edge along; starts marks both.
    if ((cp & 1) == 0) vertex_edge[V + (cp >> 1)] = 3 * c + s2;
    const bool start = (starts[f] >> a) & 1;
    if (start) vertex_edge[t.corners[h]] = 3 * c + a;
    child_starts[c] = (start ? 1 << a : 0) | ((cp & 1) == 0 ? 1 << s2 : 0);
  }
};

}  // namespace detail

// The child of L: its triangles and, with `topology`, the rest of its level (twins, edge codes,
// outgoing half-edges, and what it inherits: sharp edges and vertices; its rules are left to
// half_edge_rules).
template <class Exec, class S = typename Exec::space>
TriangleLevel<S> refine_triangles(Exec& exec, const TriangleLevel<S>& L, bool topology) {
  using linalg::Array;
  const index_t faces = checked_index(4 * std::int64_t(L.faces), "Loop child faces");
  const index_t halves = checked_index(3 * std::int64_t(faces), "Loop child corners");
  const index_t V1 = checked_index(std::int64_t(L.vertices) + L.edges, "Loop child vertices");
  Array<index_t, S> triangles(halves);
  TriangleLevel<S> child;
  child.vertices = V1, child.faces = faces;
  if (topology) {
    child.edges = checked_index(2 * std::int64_t(L.edges) + 3 * std::int64_t(L.faces),
                                "Loop child edges");
    child.twin = Array<index_t, S>(halves), child.edge_code = Array<index_t, S>(halves);
    child.vertex_edge = Array<index_t, S>(V1);
    child.starts = Array<std::uint8_t, S>(faces);
  }
  exec.for_each(faces, detail::RefineHalfEdgeTriangles{view(L), L.starts.data(), triangles.data(),
                                               child.twin.data(), child.edge_code.data(),
                                               child.vertex_edge.data(), child.starts.data()});
  if (topology) inherit(exec, L, child, TriangleHalves{}, L.vertices);
  child.M = linalg::ReducedMeshMatrix<S>(V1, 3, std::move(triangles));
  return child;
}

namespace detail {

// All `levels` levels on half-edges from the first, L.
template <class Exec, class S = typename Exec::space>
void build_half_edges(Exec& exec, TriangleLevel<S> L, int levels, Plan<S>& plan) {
  for (int l = 0; l < levels; ++l) {
    L.rules = half_edge_rules<SmoothMask>(exec, L, plan.options);
    TriangleLevel<S> child = refine_triangles(exec, L, l + 1 < levels);
    plan.levels.emplace_back(std::move(L));
    L = std::move(child);
  }
  plan.refined = with_offsets(exec, std::move(L.M));
}

}  // namespace detail

}  // namespace spmesh::schemes::loop
