// The refinement matrix of Catmull-Clark solids, as for surfaces (docs/design.md "Build, eval,
// replay"): each built level's eval as a sparse matrix S_l (child vertices x parent vertices),
// from the same weights eval applies (rules.hpp), and R = S_L ... S_1, so that P_L = R P_0 is a
// single product for a pipeline whose cells stay and whose positions change.
#pragma once

#include "linalg/convert.hpp"
#include "linalg/spgemm.hpp"
#include "solids/plan.hpp"
#include "solids/rules.hpp"
#include "solids/tuning.hpp"

#include <cstdint>

namespace spmesh::solids {

namespace detail {

// The rows of S_l (an assemble_rows producer), in the refined vertex order [V, E, F, C]: each
// child point walks the topology the way eval's products do, so that every term is listed with
// the weight its action map gives it (repeated columns are summed in this order).
struct LevelRows {
  RuleWeights<double> w;
  linalg::TernaryView d1, d2, t1, t2, t3;
  const index_t* corners;  // the level's cells' vertices
  index_t vertices, edges, faces;

  // A cell point: the average of the cell's corners.
  template <class Sink>
  SPMESH_HD void cell(index_t c, double weight, Sink& sink) const {
    if (weight == 0) return;
    const double each = weight * w.cell_corner(c);
    for (index_t p = w.cell_at[c]; p < w.cell_at[c + 1]; ++p) sink(corners[p], each);
  }
  template <class Sink>
  SPMESH_HD void midpoint(index_t e, double weight, Sink& sink) const {
    if (weight == 0) return;
    sink(d1.index(2 * e), weight / 2), sink(d1.index(2 * e + 1), weight / 2);
  }
  // A face centroid: the average of its edges' midpoints.
  template <class Sink>
  SPMESH_HD void centroid(index_t f, double weight, Sink& sink) const {
    if (weight == 0) return;
    const double each = weight * w.centroid_edge(f);
    for (index_t q = d2.begin(f); q < d2.end(f); ++q) midpoint(d2.index(q), each, sink);
  }

  template <class Sink>
  SPMESH_HD void edge_point(index_t e, double scale, Sink& sink) const {
    for (index_t q = t2.begin(e); q < t2.end(e); ++q) {
      const index_t f = t2.index(q);
      for (index_t r = t3.begin(f); r < t3.end(f); ++r) cell(t3.index(r), scale * w.edge_cell(e), sink);
      centroid(f, scale * w.edge_face(e, f), sink);
    }
    midpoint(e, scale * w.edge_midpoint(e), sink);
  }

  template <class Sink>
  SPMESH_HD void vertex_point(index_t v, Sink& sink) const {
    for (index_t p = t1.begin(v); p < t1.end(v); ++p) {
      const index_t e = t1.index(p);
      for (index_t q = t2.begin(e); q < t2.end(e); ++q) {
        const index_t f = t2.index(q);
        for (index_t r = t3.begin(f); r < t3.end(f); ++r) cell(t3.index(r), w.vertex_cell(v), sink);
        if (w.vertex_face_counts(e, f)) centroid(f, w.vertex_face(v, e), sink);
      }
      midpoint(e, w.vertex_edge(v, e), sink);
    }
    sink(v, w.vertex_self(v));
    if (w.on_line(v)) {
      edge_point(w.line[2 * v], w.line_edge_point(v), sink);
      edge_point(w.line[2 * v + 1], w.line_edge_point(v), sink);
    }
    if (const index_t u = w.crease_end(v, 0); u >= 0)
      sink(u, w.crease_weight(v)), sink(w.crease_end(v, 1), w.crease_weight(v));
  }

  template <class Sink>
  SPMESH_HD void operator()(index_t r, Sink&& sink) const {
    if (r < vertices) return vertex_point(r, sink);
    r -= vertices;
    if (r < edges) return edge_point(r, 1.0, sink);
    r -= edges;
    if (r < faces) {
      for (index_t q = t3.begin(r); q < t3.end(r); ++q) cell(t3.index(q), w.face_cell(r), sink);
      return centroid(r, w.face_centroid(r), sink);
    }
    cell(r - faces, 1.0, sink);
  }

  // The contributions of row r, counted by listing them.
  SPMESH_HD std::int64_t bound(index_t r) const {
    std::int64_t n = 0;
    (*this)(r, [&](index_t, double) { ++n; });
    return n;
  }
};

}  // namespace detail

// S_l of one built level (child vertices x parent vertices).
template <class Exec, class S = typename Exec::space>
linalg::Csr<double, S> level_matrix(Exec& exec, const SolidTopology<S>& level) {
  const auto& ops = level.ops;
  const auto& transposed = level.transposed;
  const index_t V = ops.vertices(), E = ops.edges(), F = ops.faces(), C = ops.cells();
  const detail::LevelRows rows{
      rule_weights<double>(level.cells, ops, transposed, level.weights, level.sharp ? &*level.sharp : nullptr),
      ops.d1.view(),
      ops.d2.view(),
      transposed.t1.view(),
      transposed.t2.view(),
      transposed.t3.view(),
      level.cells.indices.data(),
      V,
      E,
      F};
  return linalg::assemble_rows<double>(exec, V + E + F + C, V, rows);
}

// R = S_L ... S_1 (rows: the refined vertices, columns: the input's), composed in double by
// SpGEMM and stored as T; zero levels give the identity. P_L = R P_0 equals eval(plan, P_0) to
// rounding.
template <class T, class Exec, class S = typename Exec::space>
linalg::Csr<T, S> refinement_matrix(Exec& exec, const SolidPlan<S>& plan) {
  if (plan.parents.empty()) return linalg::identity<T>(exec, plan.refined.vertices);
  auto R = level_matrix(exec, plan.parents[0]);
  for (std::size_t l = 1; l < plan.parents.size(); ++l)
    R = linalg::spgemm<tuning::refinement_row_capacity>(exec, level_matrix(exec, plan.parents[l]), R);
  return linalg::cast_values<T>(exec, std::move(R));
}

}  // namespace spmesh::solids
