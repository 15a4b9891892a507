// The Loop level matrix on the general path: a level's eval as S_l (child x parent vertices),
// from the same weights eval applies.
#pragma once

#include "linalg/convert.hpp"
#include "schemes/loop/plan.hpp"

#include <cstdint>

namespace spmesh::schemes::loop {

namespace detail {

// The rows of S_l (an assemble_rows producer): a vertex point a at itself, b at each
// neighbour, d at the crease ends; an edge point `end` at its ends, `other` at the opposite
// vertices.
struct LevelRows {
  EdgeEnds edges;
  VertexRows vertex;
  index_t vertices;

  SPMESH_HD std::int64_t bound(index_t r) const { return r < vertices ? vertex.bound(r) : 4; }

  template <class Sink>
  SPMESH_HD void operator()(index_t r, Sink&& sink) const {
    if (r < vertices) return vertex(r, sink, [](double) {});
    const index_t e = r - vertices;
    const EdgeMask m = EdgeWeights{}(edges.crease[e]);
    sink(edges.from[e], m.end), sink(edges.to[e], m.end);
    if (m.other == 0) return;
    if (edges.side0[e] >= 0) sink(edges.side0[e], m.other);
    if (edges.side1[e] >= 0) sink(edges.side1[e], m.other);
  }
};

}  // namespace detail

// S_l: the level's eval as a matrix (child vertices x parent vertices).
template <class Exec, class S = typename Exec::space>
linalg::Csr<double, S> level_matrix(Exec& exec, const Level<S>& L) {
  const detail::LevelRows rows{
      .edges = edge_ends(L.edge_from, L.edge_to, L.edge_opposite0, L.edge_opposite1, L.rules),
      .vertex = vertex_rows(L.E, L.rules),
      .vertices = L.vertices};
  return linalg::assemble_rows<double>(exec, L.child_vertices(), L.vertices, rows);
}

}  // namespace spmesh::schemes::loop
