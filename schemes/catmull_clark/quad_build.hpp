// Catmull-Clark build on half-edge levels (quads.hpp, half_edges/): the first level from
// the base mesh, quads or polygons, then each child quad level from its parent by local rules,
// one thread per child face; the crease rules on the sparse C (half_edge_rules with
// Catmull-Clark's smooth mask).
#pragma once

#include "schemes/catmull_clark/plan.hpp"
#include "schemes/catmull_clark/quads.hpp"
#include "schemes/half_edges/first_level.hpp"
#include "schemes/half_edges/inherit.hpp"
#include "schemes/half_edges/rules.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace spmesh::schemes::catmull_clark {

// The first level on half-edges (first_half_edge_level): a QuadLevel for a quad mesh, else a
// PolygonLevel.
template <class S>
using FirstQuadLevel = std::variant<QuadLevel<S>, PolygonLevel<S>>;
template <class Exec, class S = typename Exec::space>
FirstQuadLevel<S> first_level(Exec& exec, linalg::MeshMatrix<S> M, const Sharpness<S>& C) {
  CatmarkLevel<S> L;
  auto first = first_half_edge_level(exec, L, M, C, 4);
  if (M.faces > 0 && first.other_faces == 0) {
    QuadLevel<S> Q;
    static_cast<CatmarkLevel<S>&>(Q) = std::move(L);
    Q.starts = std::move(first.starts);
    Q.M = linalg::ReducedMeshMatrix<S>(M.vertices, 4, std::move(M.indices));
    return Q;
  }
  PolygonLevel<S> P;
  static_cast<CatmarkLevel<S>&>(P) = std::move(L);
  P.M = std::move(M);
  P.face_of = std::move(first.face_of);
  return P;
}

namespace detail {

// Half-edge k (0: from the vertex point, along the parent half-edge; 1, 2: the inner edges; 3:
// into the vertex point) of the child quad at parent corner h.
template <class Faces>
SPMESH_HD index_t child_half(const Faces& fc, index_t h, index_t k) {
  return 4 * h + ((fc.slot(h) + k) & 3);
}

// One child face per thread (see CatmarkLevel for the numbering): child face h has corners
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
    linalg::store4(quads + 4 * h, rotated(a, t.corners[h], first_edge_point + (c >> 1), V + f,
                                  first_edge_point + (cp >> 1)));
    if (!twin) return;
    // The twin of half-edge 0 lies in the child after h's twin, of 1 in the next corner's
    // child, of 2 in the previous one's, of 3 in the child of hp's twin.
    const index_t th = t.twin[h], tp = t.twin[hp];
    linalg::store4(twin + 4 * h, rotated(a, th < 0 ? -1 : child_half(t, t.next(th), 3),
                                 child_half(t, hn, 2), child_half(t, hp, 1),
                                 tp < 0 ? -1 : child_half(t, tp, 0)));
    linalg::store4(edge_code + 4 * h, rotated(a, 2 * c + (c & 1), 2 * (2 * E + h),
                                      2 * (2 * E + hp) + 1, 2 * (cp ^ 1) + (cp & 1)));
    // Outgoing half-edges: a vertex point's is the first half of its parent's; a face point's
    // in the child of the face's first corner; an edge point's in the child at the end of its
    // half-edge along. starts marks them.
    if ((c & 1) == 0) vertex_edge[first_edge_point + (c >> 1)] = child_half(t, hn, 3);
    const bool first = h == t.begin(f);
    if (first) vertex_edge[V + f] = child_half(t, h, 2);
    const bool start = starts ? (starts[f] >> a) & 1 : t.vertex_edge[t.corners[h]] == h;
    if (start) vertex_edge[t.corners[h]] = child_half(t, h, 0);
    child_starts[h] = (start ? 1 << a : 0) | (first ? 1 << ((a + 2) & 3) : 0) |
                      ((cp & 1) == 0 ? 1 << ((a + 3) & 3) : 0);
  }
};

// The child half-edges along the two halves of parent half-edge h (inherit's `halves`).
template <class View>
struct QuadHalves {
  View t;
  SPMESH_HD index_t first(index_t h) const { return child_half(t, h, 0); }
  SPMESH_HD index_t second(index_t h) const { return child_half(t, t.next(h), 3); }
};

template <class S>
const std::uint8_t* starts_of(const QuadLevel<S>& L) { return L.starts.data(); }
template <class S>
const std::uint8_t* starts_of(const PolygonLevel<S>&) { return nullptr; }

}  // namespace detail

// The child of L (a QuadLevel or PolygonLevel): its quad mesh and, with `topology`, the rest of
// its level (twins, edge codes, outgoing half-edges, and what it inherits: sharp edges and
// vertices; its rules are left to crease_rules_by_level).
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
  }
  using Halves = detail::QuadHalves<decltype(t)>;
  const auto inherited = topology ? inherit(L, child, Halves{t}, L.vertices + L.faces)
                                  : Inherited<Halves>{};
  exec.for_each(faces + inherited.size(),
                linalg::fuse(detail::RefineQuads<decltype(t)>{t, detail::starts_of(L), quads.data(),
                                                      child.twin.data(), child.edge_code.data(),
                                                      child.vertex_edge.data(), child.starts.data()},
                     faces, inherited));
  child.M = linalg::ReducedMeshMatrix<S>(V1, 4, std::move(quads));
  return child;
}

}  // namespace spmesh::schemes::catmull_clark
