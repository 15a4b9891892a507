// Each refined point of one level of Catmull-Clark solid refinement (refine.hpp states the rules)
// as a weighted sum of *terms* of the old level: cell points, old face centroids, old edge
// midpoints, old vertices and, for a vertex on one extraordinary edge line, two new edge points.
// The walk below lists them the way the products |t1| |t2| |t3| of the rules visit the topology
// (a cell point reached from a vertex through each (edge, face, cell), a centroid through each
// (edge, face)), each visit with the weight RuleWeights gives it. Both forms of a level read this
// one walk: eval adds up the terms' values (refine.hpp's PointValues), the level matrix S_l lists
// the old vertices each term averages (refinement.hpp), so R P_0 equals eval by construction.
//
// A sink takes the terms: cell(c, w), centroid(f, w), midpoint(e, w), vertex(v, w) and
// edge_point(e, w), each w times the term's value.
#pragma once

#include "solids/rules.hpp"

namespace spmesh::solids {

template <class W>
struct PointTerms {
  RuleWeights<W> w;
  linalg::TernaryView t1, t2, t3;

  // Face point: its cells' points and its centroid.
  template <class Sink>
  SPMESH_HD void face_point(index_t f, Sink& sink) const {
    for (index_t q = t3.begin(f); q < t3.end(f); ++q) sink.cell(t3.index(q), w.face_cell(f));
    sink.centroid(f, w.face_centroid(f));
  }

  // Edge point, `scale` times: each (face, cell) around the edge, its faces' centroids, its
  // midpoint.
  template <class Sink>
  SPMESH_HD void edge_point(index_t e, W scale, Sink& sink) const {
    for (index_t q = t2.begin(e); q < t2.end(e); ++q) {
      const index_t f = t2.index(q);
      for (index_t r = t3.begin(f); r < t3.end(f); ++r) sink.cell(t3.index(r), scale * w.edge_cell(e));
      sink.centroid(f, scale * w.edge_face(e, f));
    }
    sink.midpoint(e, scale * w.edge_midpoint(e));
  }

  // Vertex point: each (edge, face, cell) and counted (edge, face) at the vertex, its edges'
  // midpoints, itself, the line's edge points and the crease ends.
  template <class Sink>
  SPMESH_HD void vertex_point(index_t v, Sink& sink) const {
    for (index_t p = t1.begin(v); p < t1.end(v); ++p) {
      const index_t e = t1.index(p);
      for (index_t q = t2.begin(e); q < t2.end(e); ++q) {
        const index_t f = t2.index(q);
        for (index_t r = t3.begin(f); r < t3.end(f); ++r) sink.cell(t3.index(r), w.vertex_cell(v));
        if (w.vertex_face_counts(e, f)) sink.centroid(f, w.vertex_face(v, e));
      }
      sink.midpoint(e, w.vertex_edge(v, e));
    }
    sink.vertex(v, w.vertex_self(v));
    if (w.on_line(v)) {
      sink.edge_point(w.line[2 * v], w.line_edge_point(v));
      sink.edge_point(w.line[2 * v + 1], w.line_edge_point(v));
    }
    if (const index_t u = w.crease_end(v, 0); u >= 0) {
      sink.vertex(u, w.crease_weight(v));
      sink.vertex(w.crease_end(v, 1), w.crease_weight(v));
    }
  }
};

template <class W, class S>
PointTerms<W> point_terms(const RuleWeights<W>& w, const Transposes<S>& transposed) {
  return {w, transposed.t1.view(), transposed.t2.view(), transposed.t3.view()};
}

}  // namespace spmesh::solids
