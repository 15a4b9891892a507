// What a child half-edge level inherits of its parent beyond its faces: the vertices in no
// face, and the sparse crease matrix C (its entries' children), made with no host wait.
#pragma once

#include "schemes/creasing.hpp"
#include "schemes/half_edges/level.hpp"

namespace spmesh::schemes {

// A child level's unused vertices: its parent's, whose vertex points stay unused (the child's
// vertex_edge -1; a child's faces kernel sets that of every used vertex).
template <class Exec, class Parent, class Child>
void inherit_unused(Exec& exec, const Parent& L, Child& child) {
  using S = typename Exec::space;
  child.unused = linalg::Array<index_t, S>(L.unused.size());
  const index_t* parent_unused = L.unused.data();
  index_t *child_unused = child.unused.data(), *vertex_edge = child.vertex_edge.data();
  exec.for_each(L.unused.size(), [=] SPMESH_HD(index_t k) {
    child_unused[k] = parent_unused[k], vertex_edge[parent_unused[k]] = -1;
  });
}

// What a child level inherits of its parent L beyond the faces (whose kernel sets the outgoing
// half-edge of every used vertex): its unused vertices (inherit_unused), and its sparse C
// (HalfEdgeSharpness: both children of every parent edge entry, 2 e at the start of its
// half-edge along and 2 e + 1 at its end, with the sharpness the rules gave them; the parent's
// special vertex points with their decayed sharpness, then its edge entries' points), with no
// host wait. `halves` maps a parent half-edge h to the child half-edges along its two halves:
// first(h) from h's start, second(h) into h's end; edge points start at first_edge_point.
// inherit() makes the child's arrays and returns the work, one item each, for the faces
// kernel's launch (linalg::fuse).
template <class Halves>
struct Inherited {
  // What the parent has.
  struct Parent {
    const index_t *unused = nullptr, *sharp_edges = nullptr, *sharp_halves = nullptr,
                  *special = nullptr;
    const float *child_at = nullptr, *special_sharpness = nullptr;
  };
  // What the child gets.
  struct Child {
    index_t *unused = nullptr, *vertex_edge = nullptr, *sharp_edges = nullptr,
            *sharp_halves = nullptr, *special = nullptr;
    float *edge_values = nullptr, *special_values = nullptr;
  };
  Halves halves;
  index_t first_edge_point = 0, unused = 0, special = 0, sharp = 0;
  Parent parent;
  Child child;

  index_t size() const { return unused + special + sharp; }
  SPMESH_HD void operator()(index_t k) const {
    if (k < unused) {
      const index_t v = parent.unused[k];
      child.unused[k] = v, child.vertex_edge[v] = -1;
      return;
    }
    k -= unused;
    if (k < special) {
      child.special[k] = parent.special[k];
      child.special_values[k] = creasing::decrement(parent.special_sharpness[k]);
      return;
    }
    const index_t j = k - special, edge = parent.sharp_edges[j], along = parent.sharp_halves[j];
    child.special[k] = first_edge_point + edge, child.special_values[k] = creasing::none;
    child.sharp_edges[2 * j] = 2 * edge, child.sharp_edges[2 * j + 1] = 2 * edge + 1;
    child.sharp_halves[2 * j] = halves.first(along);
    child.sharp_halves[2 * j + 1] = halves.second(along);
    child.edge_values[2 * j] = parent.child_at[2 * j];
    child.edge_values[2 * j + 1] = parent.child_at[2 * j + 1];
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
  C.special = Array<index_t, S>(special + sharp),
  C.special_values = Array<float, S>(special + sharp);
  return {.halves = halves,
          .first_edge_point = first_edge_point,
          .unused = unused,
          .special = special,
          .sharp = sharp,
          .parent = {.unused = L.unused.data(),
                     .sharp_edges = L.C.edges.data(),
                     .sharp_halves = L.C.halves.data(),
                     .special = L.C.special.data(),
                     .child_at = L.rules.child_at.data(),
                     .special_sharpness = L.rules.special_sharpness.data()},
          .child = {.unused = child.unused.data(),
                    .vertex_edge = child.vertex_edge.data(),
                    .sharp_edges = C.edges.data(),
                    .sharp_halves = C.halves.data(),
                    .special = C.special.data(),
                    .edge_values = C.edge_values.data(),
                    .special_values = C.special_values.data()}};
}

}  // namespace spmesh::schemes
