// One level of Catmull-Clark solid refinement (Joy and MacCracken 1999; docs/rules.md "Catmull-Clark
// solids"), written as products on the boundary operators (topology.hpp): every average is a
// product with |d1|, |d2|, |d3| or their transposes, the rule's weights (rules.hpp, which the
// level matrix S_l of refinement.hpp reads too) the factors of their terms, fused into a kernel
// a kind of point (refine_points). The refined mesh is all hexahedra: a cell of n corners
// (tetrahedron, prism, hexahedron, polyhedron) has n children, one at each corner. Refined vertices come in the order
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

// body(first, n) for the column blocks [first, first + n) of `width` columns, `block` wide.
template <class Body>
SPMESH_HD void in_blocks(index_t width, int block, Body&& body) {
  for (index_t first = 0; first < width; first += block) body(first, int(width - first < block ? width - first : block));
}

}  // namespace detail

// One level of refinement of `mesh` (cells and, per vertex, a row of X of any width) with its
// boundary operators `ops` (boundary_operators(exec, mesh)) and the level's weights (level_weights
// of the same options). The products of the rules, fused a kind of point at a time, each kernel
// summing operator rows with the weights of rules.hpp as their factors and keeping for the next
// the sums it can reuse:
//   cells:     P_c = the average of the cell's corners (its vertex list);
//   midpoints: M_e = |d1| X / 2, each edge's;
//   faces:     A_f = |d2| M / k_f (each corner is in two of its k_f edges), FC_f = |t3| P (the sum
//              of its cells' points), and the face point from FC_f and A_f;
//   edges:     EC_e = |t2| FC, EA_e = the sum of A over the faces that count for its vertices,
//              and the edge point from FC and A over its faces and M_e;
//   vertices:  the vertex point from EC, EA and M over its edges, itself, the line's edge points
//              and the crease ends.
// So each operator is read about once, the old points are gathered through d1 once, and only M,
// A, FC, EC and EA are written between kernels.
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

  // Each face's row: A_f then FC_f; each edge's: EC_e then EA_e (one cache line for both).
  Dense<T, S> positions(V + E + F + C, k), midpoints(E, k), face_sums(F, 2 * k), edge_sums(E, 2 * k);
  T* vp = positions.data.data();
  T* ep = vp + std::int64_t(V) * k;
  T* fp = ep + std::int64_t(E) * k;
  T* cp = fp + std::int64_t(F) * k;
  T *mp = midpoints.data.data(), *fs = face_sums.data.data(), *es = edge_sums.data.data();
  const T* x = X.data.data();
  const index_t *cell_at = mesh.offsets.data(), *corner = mesh.indices.data();
  const index_t* line = level.line_edges.data();
  const auto d1v = ops.d1.view(), d2v = ops.d2.view(), t1v = transposed.t1.view(), t2v = transposed.t2.view(),
             t3v = transposed.t3.view();
  // Each kernel sums up to `block` columns of a row in one pass over its operator rows.
  constexpr int block = tuning::point_columns;

  exec.for_each(C, [=] SPMESH_HD(index_t c) {
    const T each = w.cell_corner(c);
    detail::in_blocks(k, block, [&](index_t first, int n) {
      T sum[block] = {};
      for (index_t p = cell_at[c]; p < cell_at[c + 1]; ++p)
        for (int j = 0; j < n; ++j) sum[j] += each * x[corner[p] * k + first + j];
      for (int j = 0; j < n; ++j) cp[c * k + first + j] = sum[j];
    });
  });
  exec.for_each(E, [=] SPMESH_HD(index_t e) {
    const T *a = x + d1v.index(2 * e) * k, *b = x + d1v.index(2 * e + 1) * k;
    for (index_t j = 0; j < k; ++j) mp[e * k + j] = T(0.5) * a[j] + T(0.5) * b[j];
  });
  exec.for_each(F, [=] SPMESH_HD(index_t f) {
    const T each = w.centroid_edge(f);
    detail::in_blocks(k, block, [&](index_t first, int n) {
      T centroid[block] = {}, cells[block] = {};
      for (index_t q = d2v.begin(f); q < d2v.end(f); ++q) {
        const T* midpoint = mp + d2v.index(q) * k + first;
        for (int j = 0; j < n; ++j) centroid[j] += each * midpoint[j];
      }
      for (index_t q = t3v.begin(f); q < t3v.end(f); ++q)
        for (int j = 0; j < n; ++j) cells[j] += cp[t3v.index(q) * k + first + j];
      for (int j = 0; j < n; ++j) {
        fs[f * 2 * k + first + j] = centroid[j], fs[f * 2 * k + k + first + j] = cells[j];
        fp[f * k + first + j] = w.face_cell(f) * cells[j] + w.face_centroid(f) * centroid[j];
      }
    });
  });
  exec.for_each(E, [=] SPMESH_HD(index_t e) {
    const T cell_weight = w.edge_cell(e);
    detail::in_blocks(k, block, [&](index_t first, int n) {
      T cells[block] = {}, faces[block] = {}, counted[block] = {};
      for (index_t q = t2v.begin(e); q < t2v.end(e); ++q) {
        const index_t f = t2v.index(q);
        const T face_weight = w.edge_face(e, f), counts = w.vertex_face_counts(e, f) ? T(1) : T(0);
        const T* row = fs + f * 2 * k + first;
        for (int j = 0; j < n; ++j) {
          cells[j] += row[k + j];
          faces[j] += face_weight * row[j];
          counted[j] += counts * row[j];
        }
      }
      const T midpoint_weight = w.edge_midpoint(e);
      for (int j = 0; j < n; ++j) {
        es[e * 2 * k + first + j] = cells[j], es[e * 2 * k + k + first + j] = counted[j];
        ep[e * k + first + j] = cell_weight * cells[j] + faces[j] + midpoint_weight * mp[e * k + first + j];
      }
    });
  });
  // After the edge points: a vertex on one extraordinary edge line reads two of them.
  exec.for_each(V, [=] SPMESH_HD(index_t v) {
    const index_t e0 = line[2 * v], e1 = line[2 * v + 1], u0 = w.crease_end(v, 0), u1 = w.crease_end(v, 1);
    const T cell_weight = w.vertex_cell(v), self = w.vertex_self(v), line_weight = w.line_edge_point(v);
    detail::in_blocks(k, block, [&](index_t first, int n) {
      T sum[block] = {};
      for (index_t p = t1v.begin(v); p < t1v.end(v); ++p) {
        const index_t e = t1v.index(p);
        const T face_weight = w.vertex_face(v, e), midpoint_weight = w.vertex_edge(v, e);
        const T *row = es + e * 2 * k + first, *midpoint = mp + e * k + first;
        for (int j = 0; j < n; ++j) {
          sum[j] += cell_weight * row[j] + face_weight * row[k + j];
          sum[j] += midpoint_weight * midpoint[j];
        }
      }
      for (int j = 0; j < n; ++j) {
        T point = sum[j] + self * x[v * k + first + j];
        if (e0 >= 0) point += line_weight * (ep[e0 * k + first + j] + ep[e1 * k + first + j]);
        if (u0 >= 0) point += w.crease_weight(v) * (x[u0 * k + first + j] + x[u1 * k + first + j]);
        vp[v * k + first + j] = point;
      }
    });
  });
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
