// Loop build on half-edge levels (triangles.hpp, half_edges/): the first level from the base
// triangles, then each child level from its parent by local rules, one thread per child face;
// the crease rules on the sparse C (half_edge_rules with Loop's smooth mask).
#pragma once

#include "schemes/half_edges/first_level.hpp"
#include "schemes/half_edges/inherit.hpp"
#include "schemes/half_edges/rules.hpp"
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
  auto first = first_half_edge_level(exec, L, M, C, 3);
  if (first.other_faces > 0) throw not_triangles(exec, M, first.first_other, first.other_faces, "Loop");
  L.starts = std::move(first.starts);
  L.M = linalg::ReducedMeshMatrix<S>(M.vertices, 3, std::move(M.indices));
  return L;
}

namespace detail {

// Twelve values, one per child corner of a triangle (its four children, three corners each),
// stored as three 16-byte writes.
SPMESH_HD inline void store12(index_t* p, const index_t (&x)[12]) {
  for (int k = 0; k < 3; ++k)
    linalg::store4(p + 4 * k, {{x[4 * k], x[4 * k + 1], x[4 * k + 2], x[4 * k + 3]}});
}

// One parent face f per thread (see TriangleLevel for the numbering): its four children
// 4 f + a, twelve corners from 12 f on. Their twins, edge codes and starts follow from the
// parent's alone, as do the outgoing half-edges of vertex and edge points; `twin` null stops
// at the faces (the last level). Writes are 48 bytes per array and thread, as 16-byte stores.
struct RefineHalfEdgeTriangles {
  TriangleView t;
  const std::uint8_t* starts;  // the parent's
  index_t* triangles;
  index_t *twin, *edge_code, *vertex_edge;  // unused unless topology
  std::uint8_t* child_starts;

  SPMESH_HD void operator()(index_t f) const {
    const index_t V = t.vertices, B = 12 * f;
    index_t v[3], c[3], e[3];  // corners, edge codes, edge points
    for (int a = 0; a < 3; ++a)
      v[a] = linalg::ldg(t.corners + 3 * f + a), c[a] = linalg::ldg(t.edge_code + 3 * f + a),
      e[a] = V + (c[a] >> 1);
    // Corner child a: the vertex point at slot a, e_a at a + 1, e_(a-1) at a + 2; the middle
    // child: e_(s+1) at slot s.
    store12(triangles + B, {v[0], e[0], e[2], e[0], v[1], e[1], e[2], e[1], v[2], e[1], e[2], e[0]});
    if (!twin) return;
    // Slot a of corner child a is the first half of parent half-edge a, whose twin is the
    // second half of a's twin; slot a + 2 the second half of half-edge a - 1, twin of the first
    // half of its twin; slot a + 1 the inner edge against the middle child's slot a + 1.
    const TriangleHalves halves;
    index_t first[3], second[3];
    for (int a = 0; a < 3; ++a) {
      const index_t g = linalg::ldg(t.twin + 3 * f + a);
      first[a] = g < 0 ? -1 : halves.first(g), second[a] = g < 0 ? -1 : halves.second(g);
    }
    const index_t M = B + 9;  // the middle child's half-edges
    store12(twin + B, {second[0], M + 1, first[2], first[0], second[1], M + 2, M, first[1],
                       second[2], B + 6, B + 1, B + 5});
    // Codes: the first half of a keeps a's edge 2 e (or 2 e + 1 against it), the second half
    // the other child; inner edge 2 E + 3 f + s runs along the middle child's slot s.
    const index_t inner = 2 * (2 * t.edges + 3 * f);
    index_t along[3], against[3];
    for (int a = 0; a < 3; ++a)
      along[a] = 2 * c[a] + (c[a] & 1), against[a] = 2 * (c[a] ^ 1) + (c[a] & 1);
    store12(edge_code + B, {along[0], inner + 3, against[2], against[0], along[1], inner + 5,
                            inner + 1, against[1], along[2], inner, inner + 2, inner + 4});
    // A vertex point's outgoing half-edge is the first half of its parent's (slot a of corner
    // child a), an edge point's the second half of its half-edge along (slot a of corner child
    // a + 1); starts marks both.
    const unsigned parent = starts[f];
    std::uint8_t bits[3] = {0, 0, 0};
    for (int a = 0; a < 3; ++a) {
      if ((parent >> a) & 1) vertex_edge[v[a]] = B + 4 * a, bits[a] |= 1 << a;
      const int next = (a + 1) % 3;
      if ((c[a] & 1) == 0) vertex_edge[e[a]] = B + 3 * next + a, bits[next] |= 1 << a;
    }
    for (int a = 0; a < 3; ++a) child_starts[4 * f + a] = bits[a];
    child_starts[4 * f + 3] = 0;
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
  const auto inherited = topology ? inherit(L, child, TriangleHalves{}, L.vertices)
                                  : Inherited<TriangleHalves>{};
  exec.for_each(
      L.faces + inherited.size(),
      linalg::fuse(detail::RefineHalfEdgeTriangles{view(L), L.starts.data(), triangles.data(),
                                                   child.twin.data(), child.edge_code.data(),
                                                   child.vertex_edge.data(), child.starts.data()},
                   L.faces, inherited));
  child.M = linalg::ReducedMeshMatrix<S>(V1, 3, std::move(triangles));
  return child;
}

}  // namespace spmesh::schemes::loop
