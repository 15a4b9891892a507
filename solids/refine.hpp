// One level of Catmull-Clark solid refinement (Joy and MacCracken 1999; docs/rules.md "Catmull-Clark
// solids"), written as mapped products on the boundary operators (topology.hpp): every average
// is a product with |d1|, |d2|, |d3| or their transposes whose action map carries the rule's
// weight (rules.hpp, which the level matrix S_l of refinement.hpp reads too). The refined mesh is all hexahedra: a cell of n corners (tetrahedron, prism,
// hexahedron, polyhedron) has n children, one at each corner. Refined vertices come in the order
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

namespace spmesh::solids {

template <class T, class S>
struct SolidLevel {
  CellMesh<S> cells;               // all hexahedra
  linalg::Dense<T, S> positions;   // V + E + F + C rows
};

// One level of refinement of `mesh` (cells and, per vertex, a row of X of any width) with its
// boundary operators `ops` (boundary_operators(exec, mesh)): the weights of rules.hpp as the
// action maps of products with |d1|, |d2|, |d3| and their transposes. DimensionError unless X
// has a row per vertex.
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> refine_points(Exec& exec, const CellMesh<S>& mesh, const BoundaryOperators<S>& ops,
                                  const Transposes<S>& transposed, const linalg::Dense<T, S>& X,
                                  const RefineOptions& options = {}, const SharpRules<S>* sharp = nullptr) {
  using linalg::Dense;
  namespace map = linalg::map;
  const index_t V = ops.vertices(), E = ops.edges(), F = ops.faces(), C = ops.cells(), k = X.cols;
  if (X.rows != V)
    throw DimensionError("solids::refine: vertex data has " + std::to_string(X.rows) + " rows, the mesh " +
                         std::to_string(V) + " vertices");
  const auto &t1 = transposed.t1, &t2 = transposed.t2, &t3 = transposed.t3;
  const auto level = level_weights(exec, ops, transposed, options);
  const RuleWeights<T> w = rule_weights<T>(mesh, ops, transposed, level, sharp);

  // Old centroids: edge midpoints M = |d1| X / 2, face centroids A = |d2| |d1| X / (2 k_f), cell
  // points P = |d3| |d2| |d1| X / (6 n_c).
  Dense<T, S> edge_sums(E, k), midpoints(E, k), face_sums(F, k), centroids(F, k), cell_points(C, k);
  linalg::spmm(exec, ops.d1, X, edge_sums, map::constant(T(1)));
  linalg::spmm(exec, ops.d1, X, midpoints, map::constant(T(0.5)));
  linalg::spmm(exec, ops.d2, edge_sums, face_sums, map::constant(T(1)));
  linalg::spmm(exec, ops.d2, edge_sums, centroids,
               map::function([=] SPMESH_HD(index_t, index_t f, index_t) { return w.centroid_corner(f); }));
  linalg::spmm(exec, ops.d3, face_sums, cell_points,
               map::function([=] SPMESH_HD(index_t, index_t c, index_t) { return w.cell_corner(c); }));

  Dense<T, S> positions(V + E + F + C, k);
  T* vp = positions.data.data();
  T* ep = vp + std::int64_t(V) * k;
  T* fp = ep + std::int64_t(E) * k;
  exec.copy(cell_points.data.data(), C * k, fp + std::int64_t(F) * k);

  // Face points.
  auto face_points = linalg::row_block(positions, V + E, F);
  linalg::spmm(exec, t3, cell_points, face_points,
               map::function([=] SPMESH_HD(index_t, index_t f, index_t) { return w.face_cell(f); }));
  const T* a = centroids.data.data();
  exec.for_each(F, [=] SPMESH_HD(index_t f) {
    for (index_t j = 0; j < k; ++j) fp[f * k + j] += w.face_centroid(f) * a[f * k + j];
  });

  // Edge points: their cells through |d2^T| |d3^T|, their faces' centroids, their midpoints.
  Dense<T, S> face_cells(F, k), edge_cells(E, k), edge_faces(E, k);
  linalg::spmm(exec, t3, cell_points, face_cells, map::constant(T(1)));
  linalg::spmm(exec, t2, face_cells, edge_cells,
               map::function([=] SPMESH_HD(index_t, index_t e, index_t) { return w.edge_cell(e); }));
  linalg::spmm(exec, t2, centroids, edge_faces,
               map::function([=] SPMESH_HD(index_t, index_t e, index_t f) { return w.edge_face(e, f); }));
  const T *ec = edge_cells.data.data(), *ef = edge_faces.data.data(), *m = midpoints.data.data();
  exec.for_each(E, [=] SPMESH_HD(index_t e) {
    const T wm = w.edge_midpoint(e);
    for (index_t j = 0; j < k; ++j) ep[e * k + j] = ec[e * k + j] + ef[e * k + j] + wm * m[e * k + j];
  });

  // Vertex points: their cells through |d1^T| |d2^T| |d3^T|, their faces' centroids through
  // |d1^T| |d2^T| (each counted pair), their edges' midpoints, themselves, the line's edge points
  // and the crease ends.
  Dense<T, S> edge_face_sums(E, k), edge_cell_sums(E, k), vertex_cells(V, k), vertex_faces(V, k),
      vertex_edges(V, k);
  linalg::spmm(exec, t2, face_cells, edge_cell_sums, map::constant(T(1)));
  linalg::spmm(exec, t1, edge_cell_sums, vertex_cells,
               map::function([=] SPMESH_HD(index_t, index_t v, index_t) { return w.vertex_cell(v); }));
  linalg::spmm(exec, t2, centroids, edge_face_sums, map::function([=] SPMESH_HD(index_t, index_t e, index_t f) {
                 return w.vertex_face_counts(e, f) ? T(1) : T(0);
               }));
  linalg::spmm(exec, t1, edge_face_sums, vertex_faces,
               map::function([=] SPMESH_HD(index_t, index_t v, index_t e) { return w.vertex_face(v, e); }));
  linalg::spmm(exec, t1, midpoints, vertex_edges,
               map::function([=] SPMESH_HD(index_t, index_t v, index_t e) { return w.vertex_edge(v, e); }));
  const T *vc = vertex_cells.data.data(), *vf = vertex_faces.data.data(), *ve = vertex_edges.data.data(),
          *x = X.data.data();
  const index_t* line = level.line_edges.data();
  exec.for_each(V, [=] SPMESH_HD(index_t v) {
    const index_t e0 = line[2 * v], e1 = line[2 * v + 1], u0 = w.crease_end(v, 0), u1 = w.crease_end(v, 1);
    const T self = w.vertex_self(v), line_weight = w.line_edge_point(v);
    for (index_t j = 0; j < k; ++j) {
      vp[v * k + j] = vc[v * k + j] + vf[v * k + j] + ve[v * k + j] + self * x[v * k + j];
      if (e0 >= 0) vp[v * k + j] += line_weight * (ep[e0 * k + j] + ep[e1 * k + j]);
      if (u0 >= 0) vp[v * k + j] += w.crease_weight(v) * (x[u0 * k + j] + x[u1 * k + j]);
    }
  });

  return positions;
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
