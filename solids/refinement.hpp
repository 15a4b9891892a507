// The refinement matrix of Catmull-Clark solids, as for surfaces (docs/design.md "Build, eval,
// replay"): each built level's eval as a sparse matrix S_l (child vertices x parent vertices),
// from the same weights eval applies (rules.hpp), and R = S_L ... S_1, so that P_L = R P_0 is a
// single product for a pipeline whose cells stay and whose positions change.
#pragma once

#include "linalg/convert.hpp"
#include "linalg/spgemm.hpp"
#include "solids/plan.hpp"
#include "solids/point_terms.hpp"
#include "solids/rules.hpp"
#include "solids/tuning.hpp"

#include <cstdint>
#include <type_traits>

namespace spmesh::solids {

namespace detail {

// The rows of S_l (an assemble_rows producer), in the refined vertex order [V, E, F, C]: each
// child point's terms (point_terms.hpp) as the old vertices they average, so that every vertex is
// listed with the weight eval gives it (repeated columns are summed in this order).
struct LevelRows {
  PointTerms<double> terms;
  linalg::TernaryView d1, d2;
  const index_t* corners;  // the level's cells' vertices
  index_t vertices, edges, faces;

  // The terms of a sink as old vertices, to `sink(vertex, weight)`; zero weights are dropped.
  template <class Sink>
  struct Columns {
    const LevelRows& rows;
    Sink& sink;

    // A cell point: the average of the cell's corners.
    SPMESH_HD void cell(index_t c, double weight) {
      if (weight == 0) return;
      const index_t* at = rows.terms.w.cell_at;
      const double each = weight / double(at[c + 1] - at[c]);
      for (index_t p = at[c]; p < at[c + 1]; ++p) sink(rows.corners[p], each);
    }
    // A face centroid: each corner met twice, through the face's two edges there.
    SPMESH_HD void centroid(index_t f, double weight) {
      if (weight == 0) return;
      const double each = weight * rows.terms.w.centroid_corner(f);
      for (index_t q = rows.d2.begin(f); q < rows.d2.end(f); ++q) {
        const index_t e = rows.d2.index(q);
        sink(rows.d1.index(2 * e), each), sink(rows.d1.index(2 * e + 1), each);
      }
    }
    SPMESH_HD void midpoint(index_t e, double weight) {
      if (weight == 0) return;
      sink(rows.d1.index(2 * e), weight / 2), sink(rows.d1.index(2 * e + 1), weight / 2);
    }
    SPMESH_HD void vertex(index_t v, double weight) { sink(v, weight); }
    SPMESH_HD void edge_point(index_t e, double weight) { rows.terms.edge_point(e, weight, *this); }
  };

  template <class Sink>
  SPMESH_HD void operator()(index_t r, Sink&& sink) const {
    Columns<std::remove_reference_t<Sink>> columns{*this, sink};
    if (r < vertices) return terms.vertex_point(r, columns);
    r -= vertices;
    if (r < edges) return terms.edge_point(r, 1.0, columns);
    r -= edges;
    if (r < faces) return terms.face_point(r, columns);
    columns.cell(r - faces, 1.0);
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
  const auto w = rule_weights<double>(level.cells, ops, transposed, level.weights, level.sharp ? &*level.sharp : nullptr);
  const detail::LevelRows rows{point_terms(w, transposed), ops.d1.view(), ops.d2.view(), level.cells.indices.data(), V, E, F};
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
