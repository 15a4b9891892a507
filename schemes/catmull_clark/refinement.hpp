// The Catmull-Clark level matrix on the general path: a level's eval as one sparse matrix S_l
// (child vertices x parent vertices), from the same weights eval applies; the front door's
// refinement_matrix multiplies them (docs/design.md "Build, eval, replay").
#pragma once

#include "linalg/convert.hpp"
#include "schemes/catmull_clark/plan.hpp"
#include "schemes/catmull_clark/quad_eval.hpp"

#include <cstdint>

namespace spmesh::schemes::catmull_clark {

namespace detail {

// The rows of S_l (an assemble_rows producer): a face point is 1/c at each face vertex; an edge
// point (1 + w)/4 at its ends plus (1 - w)/4 times each side's face point; a vertex point a at
// itself, b at each neighbour and b times each adjacent face point, d at the crease ends.
struct LevelRows {
  linalg::MeshView M;
  linalg::CompressedView<index_t> M_rows;
  const double* inv_order;
  EdgeEnds edges;
  VertexRows vertex;
  index_t vertices, faces;

  SPMESH_HD std::int64_t bound(index_t r) const {
    if (r < vertices) {
      std::int64_t n = vertex.bound(r);
      for (index_t q = M_rows.begin(r); q < M_rows.end(r); ++q)
        n += M.end(M_rows.indices[q]) - M.begin(M_rows.indices[q]);
      return n;
    }
    if (r < vertices + faces) return M.end(r - vertices) - M.begin(r - vertices);
    const index_t e = r - vertices - faces, f0 = edges.side0[e], f1 = edges.side1[e];
    std::int64_t n = 2;
    if (f0 >= 0) n += M.end(f0) - M.begin(f0);
    if (f1 >= 0) n += M.end(f1) - M.begin(f1);
    return n;
  }

  template <class Sink>
  SPMESH_HD void face(index_t f, double weight, Sink& sink) const {
    if (weight == 0) return;
    const double x = weight * inv_order[f];
    for (index_t p = M.begin(f); p < M.end(f); ++p) sink(M.indices[p], x);
  }

  template <class Sink>
  SPMESH_HD void operator()(index_t r, Sink&& sink) const {
    if (r < vertices) {
      vertex(r, sink, [&](double b) {
        for (index_t q = M_rows.begin(r); q < M_rows.end(r); ++q) face(M_rows.indices[q], b, sink);
      });
    } else if (r < vertices + faces) {
      face(r - vertices, 1.0, sink);
    } else {
      const index_t e = r - vertices - faces;
      const EdgeMask m = EdgeWeights{}(edges.crease[e]);
      sink(edges.from[e], m.end), sink(edges.to[e], m.end);
      if (edges.side0[e] >= 0) face(edges.side0[e], m.other, sink);
      if (edges.side1[e] >= 0) face(edges.side1[e], m.other, sink);
    }
  }
};

}  // namespace detail

// S_l: the level's eval as a matrix (child vertices x parent vertices).
template <class Exec, class S = typename Exec::space>
linalg::Csr<double, S> level_matrix(Exec& exec, const Level<S>& L) {
  const detail::LevelRows rows{
      .M = L.M.view(),
      .M_rows = L.M_rows.view(),
      .inv_order = L.inv_order.data(),
      .edges = edge_ends(L.edge_from, L.edge_to, L.edge_face0, L.edge_face1, L.rules),
      .vertex = vertex_rows(L.E, L.rules),
      .vertices = L.vertices,
      .faces = L.faces};
  return linalg::assemble_rows<double>(exec, L.child_vertices(), L.vertices, rows);
}

}  // namespace spmesh::schemes::catmull_clark
