// One level of Catmull-Clark solid refinement (Joy and MacCracken 1999; docs/rules.md "Catmull-Clark
// solids"), written as products on the boundary operators (topology.hpp): every average is a
// product with |d1|, |d2|, |d3| or their transposes whose action map carries the rule's weight
// (rules.hpp), each refined point's row of those products summed in one walk (point_terms.hpp,
// which the level matrix S_l of refinement.hpp reads too). The refined mesh is all hexahedra: a
// cell of n corners (tetrahedron, prism, hexahedron, polyhedron) has n children, one at each
// corner. Refined vertices come in the order
// [vertex points (V), edge points (E), face points (F), cell points (C)].
//
// Interior rules, with the *old* face centroids A:
//   cell point   P_c = the average of the cell's vertices;
//   face point   (C0 + C1 + 2 A_f) / 4, C0 and C1 the points of its two cells;
//   edge point   (C + 2 A + (n - 3) M) / n, n the faces around the edge, C the average of its
//                cells' points, A of its faces' centroids, M its midpoint;
//   vertex point (C + 3 A + 3 M + V) / 8, averages over the cells, faces and edges at V,
//                except on one extraordinary edge line (below).
// A vertex on one extraordinary edge line (inside, with exactly two extraordinary edges, e_0 and
// e_1, of one valence n != 4 and in no common face: seed 000's layered structure) takes, by
// default, the tensor product of the Catmull-Clark surface vertex rule of valence n across the
// line and the cubic B-spline's (1, 6, 1) / 8 along it, which refines an extruded surface
// (surface x regular layers) as the product does. Written with the line's own edge points
// (which already are that product at the edges' middles) it reads
//   vertex point (E_0 + E_1) / 4 + (Q + 2 R + (n - 3) V) / (2 n),
// Q the average centroid of the n faces at V that hold neither line edge, R the average
// midpoint of its n other edges. VertexRule::joy_maccracken keeps the rule above there too.
// Boundary faces (one cell), boundary edges (on a boundary face) and boundary vertices follow
// the Catmull-Clark surface rules of the boundary surface, so the refined solid's boundary is
// the Catmull-Clark refinement of the control mesh's boundary:
//   face point A_f; edge point (v0 + v1 + f0 + f1) / 4 with f0, f1 its boundary faces' points;
//   vertex point (Q + 2 R + (n - 3) V) / n over its n boundary edges (R: their midpoints) and
//   boundary faces (Q: their points).
// A vertex in no cell (gmsh leaves a circle's centre so) stays where it is. Creases and corners on
// the boundary surface (sharpness.hpp) change the boundary edge and vertex rules to Catmull-
// Clark's crease rules there; a crease inside the volume blends the rules of its edges and
// vertices with the crease rule along it.
#pragma once

#include "linalg/ternary.hpp"
#include "solids/refined_topology.hpp"
#include "solids/point_terms.hpp"
#include "solids/rules.hpp"
#include "solids/sharpness.hpp"
#include "solids/topology.hpp"
#include "solids/tuning.hpp"

namespace spmesh::solids {

template <class T, class S>
struct SolidLevel {
  CellMesh<S> cells;               // all hexahedra
  linalg::Dense<T, S> positions;   // V + E + F + C rows
};

namespace detail {

// The terms of refined points, valued: columns [first, first + count) of the cell points, old
// face centroids, old vertices (a midpoint is half of each end) and new edge points, summed with
// their weights (zero weights dropped, as S_l drops them).
template <class T>
struct PointValues {
  static constexpr int most = tuning::point_columns;  // columns summed at once
  const T *cells, *centroids, *X, *edge_points;
  linalg::TernaryView d1;
  index_t width, first;
  int count;
  T sum[most];

  SPMESH_HD void add(const T* rows, index_t row, T weight) {
    for (int j = 0; j < count; ++j) sum[j] += weight * rows[row * width + first + j];
  }
  SPMESH_HD void cell(index_t c, T weight) {
    if (weight != 0) add(cells, c, weight);
  }
  SPMESH_HD void centroid(index_t f, T weight) {
    if (weight != 0) add(centroids, f, weight);
  }
  SPMESH_HD void midpoint(index_t e, T weight) {
    if (weight == 0) return;
    add(X, d1.index(2 * e), weight / 2), add(X, d1.index(2 * e + 1), weight / 2);
  }
  SPMESH_HD void vertex(index_t v, T weight) { add(X, v, weight); }
  SPMESH_HD void edge_point(index_t e, T weight) { add(edge_points, e, weight); }
};

// out's row r of each of `rows` rows: the terms `walk(r, values)` lists, valued by `values`,
// a few columns at a time.
template <class Exec, class T, class Walk>
void sum_terms(Exec& exec, index_t rows, const PointValues<T>& values, T* out, const Walk& walk) {
  constexpr int most = PointValues<T>::most;
  const index_t width = values.width;
  exec.for_each(rows, [=] SPMESH_HD(index_t r) {
    for (index_t first = 0; first < width; first += most) {
      PointValues<T> v = values;
      v.first = first, v.count = int(width - first < most ? width - first : most);
      for (int j = 0; j < v.count; ++j) v.sum[j] = T(0);
      walk(r, v);
      for (int j = 0; j < v.count; ++j) out[r * width + first + j] = v.sum[j];
    }
  });
}

}  // namespace detail

// One level of refinement of `mesh` (cells and, per vertex, a row of X of any width) with its
// boundary operators `ops` (boundary_operators(exec, mesh)) and the level's weights (level_weights
// of the same options): the cell points from the cells' corners and the old face centroids from
// the faces' sides, then each face, edge and vertex point as the sum of its terms (point_terms.hpp,
// the walk of the products |t1| |t2| |t3| with the rules' weights as their action maps), one
// gathering kernel a kind of point, so that no product's partial sums are written between them.
// DimensionError unless X has a row per vertex.
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> refine_points(Exec& exec, const CellMesh<S>& mesh, const BoundaryOperators<S>& ops,
                                  const Transposes<S>& transposed, const LevelWeights<S>& level,
                                  const linalg::Dense<T, S>& X, const SharpRules<S>* sharp = nullptr) {
  using linalg::Dense;
  const index_t V = ops.vertices(), E = ops.edges(), F = ops.faces(), C = ops.cells(), k = X.cols;
  if (X.rows != V)
    throw DimensionError("solids::refine: vertex data has " + std::to_string(X.rows) + " rows, the mesh " +
                         std::to_string(V) + " vertices");
  const RuleWeights<T> w = rule_weights<T>(mesh, ops, transposed, level, sharp);
  const PointTerms<T> terms = point_terms(w, transposed);

  Dense<T, S> positions(V + E + F + C, k), centroids(F, k);
  T* vp = positions.data.data();
  T* ep = vp + std::int64_t(V) * k;
  T* fp = ep + std::int64_t(E) * k;
  T* cp = fp + std::int64_t(F) * k;
  T* a = centroids.data.data();
  const T* x = X.data.data();
  const index_t *cell_at = mesh.offsets.data(), *corner = mesh.indices.data();
  const auto d1v = ops.d1.view(), d2v = ops.d2.view();

  // Cell points (the average of the corners) and old face centroids (each corner met twice,
  // through the face's two edges there).
  exec.for_each(C, [=] SPMESH_HD(index_t c) {
    const T each = T(1) / T(cell_at[c + 1] - cell_at[c]);
    for (index_t j = 0; j < k; ++j) {
      T sum = 0;
      for (index_t p = cell_at[c]; p < cell_at[c + 1]; ++p) sum += each * x[corner[p] * k + j];
      cp[c * k + j] = sum;
    }
  });
  exec.for_each(F, [=] SPMESH_HD(index_t f) {
    const T each = w.centroid_corner(f);
    for (index_t j = 0; j < k; ++j) {
      T sum = 0;
      for (index_t q = d2v.begin(f); q < d2v.end(f); ++q) {
        const index_t e = d2v.index(q);
        sum += each * x[d1v.index(2 * e) * k + j] + each * x[d1v.index(2 * e + 1) * k + j];
      }
      a[f * k + j] = sum;
    }
  });

  // Face, edge and vertex points; the vertices' last, as a line vertex reads two edge points.
  const detail::PointValues<T> values{cp, a, x, ep, d1v, k, 0, 0, {}};
  detail::sum_terms(exec, F, values, fp, [=] SPMESH_HD(index_t f, detail::PointValues<T>& v) { terms.face_point(f, v); });
  detail::sum_terms(exec, E, values, ep,
                    [=] SPMESH_HD(index_t e, detail::PointValues<T>& v) { terms.edge_point(e, T(1), v); });
  detail::sum_terms(exec, V, values, vp,
                    [=] SPMESH_HD(index_t u, detail::PointValues<T>& v) { terms.vertex_point(u, v); });
  return positions;
}

// The same, with the level's weights made here.
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> refine_points(Exec& exec, const CellMesh<S>& mesh, const BoundaryOperators<S>& ops,
                                  const Transposes<S>& transposed, const linalg::Dense<T, S>& X,
                                  const RefineOptions& options = {}, const SharpRules<S>* sharp = nullptr) {
  return refine_points(exec, mesh, ops, transposed, level_weights(exec, ops, transposed, options), X, sharp);
}

// One level: the refined cells (refined_cells) and points (refine_points).
template <class Exec, class T, class S = typename Exec::space>
SolidLevel<T, S> refine(Exec& exec, const CellMesh<S>& mesh, const BoundaryOperators<S>& ops,
                        const Transposes<S>& transposed, const linalg::Dense<T, S>& X,
                        const RefineOptions& options = {}, const SharpRules<S>* sharp = nullptr) {
  return {refined_cells(exec, mesh, ops), refine_points(exec, mesh, ops, transposed, X, options, sharp)};
}

// The same, with the operators' transposes made here.
template <class Exec, class T, class S = typename Exec::space>
SolidLevel<T, S> refine(Exec& exec, const CellMesh<S>& mesh, const BoundaryOperators<S>& ops,
                        const linalg::Dense<T, S>& X, const RefineOptions& options = {}) {
  return refine(exec, mesh, ops, transposes(exec, ops), X, options);
}

}  // namespace spmesh::solids
