// One level of Catmull-Clark solid refinement (Joy and MacCracken 1999; docs/rules.md "Catmull-Clark
// solids"), written as mapped products on the boundary operators (topology.hpp): every average
// is a product with |d1|, |d2|, |d3| or their transposes whose action map carries the rule's
// weight. The refined mesh is all hexahedra: a cell of n corners (tetrahedron, prism,
// hexahedron) has n children, one at each corner. Refined vertices come in the order
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
// Clark's crease rules there; sharp features inside the volume are not built yet.
#pragma once

#include "linalg/ternary.hpp"
#include "solids/refined_topology.hpp"
#include "solids/sharpness.hpp"
#include "solids/topology.hpp"

namespace spmesh::solids {

// The rule at vertices on one extraordinary edge line (docs/rules.md, "Catmull-Clark solids").
enum class VertexRule { tensor_product, joy_maccracken };

struct RefineOptions {
  VertexRule vertex_rule = VertexRule::tensor_product;
  // How semi-sharp creases on the boundary surface decay (sharpness.hpp).
  schemes::CreaseMethod crease = schemes::CreaseMethod::uniform;
};

template <class T, class S>
struct SolidLevel {
  CellMesh<S> cells;               // all hexahedra
  linalg::Dense<T, S> positions;   // V + E + F + C rows
};

// One level of refinement of `mesh` (cells and, per vertex, a row of X of any width) with its
// boundary operators `ops` (boundary_operators(exec, mesh)). DimensionError unless X has a row
// per vertex.
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> refine_points(Exec& exec, const CellMesh<S>& mesh, const BoundaryOperators<S>& ops,
                                  const Transposes<S>& transposed, const linalg::Dense<T, S>& X,
                                  const RefineOptions& options = {}, const SharpRules<S>* sharp = nullptr) {
  using linalg::Array;
  using linalg::Dense;
  namespace map = linalg::map;
  const index_t V = ops.vertices(), E = ops.edges(), F = ops.faces(), C = ops.cells(), k = X.cols;
  if (X.rows != V)
    throw DimensionError("solids::refine: vertex data has " + std::to_string(X.rows) + " rows, the mesh " +
                         std::to_string(V) + " vertices");
  const auto &t1 = transposed.t1, &t2 = transposed.t2, &t3 = transposed.t3;
  const auto d2v = ops.d2.view(), t1v = t1.view(), t2v = t2.view(), t3v = t3.view();
  const index_t* cell_at = mesh.offsets.data();

  const auto flags = boundary_flags(exec, ops, transposed);
  const char *fb = flags.faces.data(), *eb = flags.edges.data(), *vb = flags.vertices.data();
  // The crease rules on the boundary surface (sharpness.hpp), smooth without them: each boundary
  // edge's crease weight, each boundary vertex's mask.
  const double *edge_crease = sharp ? sharp->edge_crease.data() : nullptr, *self = sharp ? sharp->self.data() : nullptr,
               *ring = sharp ? sharp->ring.data() : nullptr, *crease = sharp ? sharp->crease.data() : nullptr;
  const index_t *crease_u = sharp ? sharp->crease_u.data() : nullptr, *crease_w = sharp ? sharp->crease_w.data() : nullptr;

  // Old centroids: edge midpoints M = |d1| X / 2, face centroids A = |d2| |d1| X / (2 k_f), cell
  // points P = |d3| |d2| |d1| X / (6 n_c) (each corner of a cell is on 3 of its faces, 2 edges
  // of each).
  Dense<T, S> edge_sums(E, k), midpoints(E, k), face_sums(F, k), centroids(F, k), cell_points(C, k);
  linalg::spmm(exec, ops.d1, X, edge_sums, map::constant(T(1)));
  linalg::spmm(exec, ops.d1, X, midpoints, map::constant(T(0.5)));
  linalg::spmm(exec, ops.d2, edge_sums, face_sums, map::constant(T(1)));
  linalg::spmm(exec, ops.d2, edge_sums, centroids, map::function([=] SPMESH_HD(index_t, index_t f, index_t) {
                 return T(1) / T(2 * (d2v.end(f) - d2v.begin(f)));
               }));
  linalg::spmm(exec, ops.d3, face_sums, cell_points, map::function([=] SPMESH_HD(index_t, index_t c, index_t) {
                 return T(1) / T(6 * (cell_at[c + 1] - cell_at[c]));
               }));

  Dense<T, S> positions(V + E + F + C, k);
  T* vp = positions.data.data();
  T* ep = vp + std::int64_t(V) * k;
  T* fp = ep + std::int64_t(E) * k;
  exec.copy(cell_points.data.data(), C * k, fp + std::int64_t(F) * k);

  // Face points: (C0 + C1) / 4 + A / 2 inside, A on the boundary.
  auto face_points = linalg::row_block(positions, V + E, F);
  linalg::spmm(exec, t3, cell_points, face_points, map::function([=] SPMESH_HD(index_t, index_t f, index_t) {
                 return fb[f] ? T(0) : T(0.25);
               }));
  const T* a = centroids.data.data();
  exec.for_each(F, [=] SPMESH_HD(index_t f) {
    for (index_t j = 0; j < k; ++j) fp[f * k + j] += (fb[f] ? T(1) : T(0.5)) * a[f * k + j];
  });

  // Edge points. Inside, over its n faces: C / n + 2 A / n + (n - 3) M / n, each cell around the
  // edge met twice through its faces (|d2^T| |d3^T| P = 2 sum C). On the boundary: M / 2 and a
  // quarter of each of its two boundary faces' points.
  Dense<T, S> face_cells(F, k), edge_cells(E, k), edge_faces(E, k);
  linalg::spmm(exec, t3, cell_points, face_cells, map::constant(T(1)));
  linalg::spmm(exec, t2, face_cells, edge_cells, map::function([=] SPMESH_HD(index_t, index_t e, index_t) {
                 const T n = T(t2v.end(e) - t2v.begin(e));
                 return eb[e] ? T(0) : T(1) / (2 * n * n);
               }));
  // A boundary edge of crease weight w: (1 + w)/4 (v_0 + v_1) + (1 - w)/4 (f_0 + f_1), Catmull-
  // Clark's (masks.hpp).
  auto edge_mask = [=] SPMESH_HD(index_t e) {
    return schemes::catmull_clark::EdgeWeights{}(edge_crease ? edge_crease[e] : 0.0);
  };
  linalg::spmm(exec, t2, centroids, edge_faces, map::function([=] SPMESH_HD(index_t, index_t e, index_t f) {
                 const T n = T(t2v.end(e) - t2v.begin(e));
                 return eb[e] ? (fb[f] ? T(edge_mask(e).other) : T(0)) : T(2) / (n * n);
               }));
  const T *ec = edge_cells.data.data(), *ef = edge_faces.data.data(), *m = midpoints.data.data();
  exec.for_each(E, [=] SPMESH_HD(index_t e) {
    const T n = T(t2v.end(e) - t2v.begin(e)), w = eb[e] ? T(2 * edge_mask(e).end) : (n - 3) / n;
    for (index_t j = 0; j < k; ++j) ep[e * k + j] = ec[e * k + j] + ef[e * k + j] + w * m[e * k + j];
  });

  // What meets each vertex, counted through its edges in one pass: its edges, boundary edges,
  // faces (met twice each, through their two edges at it) and cells (met 6 times each: three
  // edges at a corner, two of the cell's faces on each).
  Array<T, S> edges_at(V), boundary_edges_at(V), faces_at(V), cells_at(V);
  {
    T *edges = edges_at.data(), *boundary = boundary_edges_at.data(), *faces = faces_at.data(), *cells = cells_at.data();
    exec.for_each(V, [=] SPMESH_HD(index_t v) {
      index_t on = 0, face_sides = 0, cell_sides = 0;
      for (index_t p = t1v.begin(v); p < t1v.end(v); ++p) {
        const index_t e = t1v.index(p);
        on += eb[e];
        face_sides += t2v.end(e) - t2v.begin(e);
        for (index_t q = t2v.begin(e); q < t2v.end(e); ++q) cell_sides += t3v.end(t2v.index(q)) - t3v.begin(t2v.index(q));
      }
      edges[v] = T(t1v.end(v) - t1v.begin(v)), boundary[v] = T(on), faces[v] = T(face_sides / 2), cells[v] = T(cell_sides / 6);
    });
  }
  const T *ne = edges_at.data(), *nb = boundary_edges_at.data(), *nf = faces_at.data(), *nc = cells_at.data();

  // The vertices on one extraordinary edge line and its two edges there (-1 elsewhere). Every
  // corner of a tetrahedron, prism or hexahedron has three edges, so two edges at a vertex share
  // a cell exactly when they share a face.
  Array<index_t, S> line_edges(2 * V);
  index_t* line = line_edges.data();
  const bool tensor_product = options.vertex_rule == VertexRule::tensor_product;
  exec.for_each(V, [=] SPMESH_HD(index_t v) {
    line[2 * v] = line[2 * v + 1] = -1;
    if (!tensor_product || vb[v]) return;
    index_t found[2] = {-1, -1}, valence[2] = {0, 0};
    int count = 0;
    for (index_t p = t1v.begin(v); p < t1v.end(v); ++p) {
      const index_t e = t1v.index(p), faces = t2v.end(e) - t2v.begin(e);
      if (faces == 4) continue;
      if (count < 2) found[count] = e, valence[count] = faces;
      ++count;
    }
    if (count != 2 || valence[0] != valence[1] || t1v.end(v) - t1v.begin(v) != valence[0] + 2) return;
    for (index_t p = t2v.begin(found[0]); p < t2v.end(found[0]); ++p)
      for (index_t q = d2v.begin(t2v.index(p)); q < d2v.end(t2v.index(p)); ++q)
        if (d2v.index(q) == found[1]) return;
    line[2 * v] = found[0], line[2 * v + 1] = found[1];
  });

  // Vertex points. Inside: (C + 3 A + 3 M + V) / 8. On the boundary, over its n boundary edges:
  // (Q + 2 R + (n - 3) V) / n, each boundary face's point met twice through them. On one
  // extraordinary edge line, the n faces that hold neither line edge: each face at V is met
  // through its two edges at V, and a face around a line edge through that edge and one other,
  // so those n faces are half the sum over V's edges less the sums around the line edges.
  Dense<T, S> edge_face_sums(E, k), edge_cell_sums(E, k), vertex_cells(V, k), vertex_faces(V, k),
      vertex_edges(V, k);
  linalg::spmm(exec, t2, face_cells, edge_cell_sums, map::constant(T(1)));
  linalg::spmm(exec, t1, edge_cell_sums, vertex_cells, map::function([=] SPMESH_HD(index_t, index_t v, index_t) {
                 return vb[v] || line[2 * v] >= 0 ? T(0) : T(1) / (6 * 8 * nc[v]);
               }));
  linalg::spmm(exec, t2, centroids, edge_face_sums, map::function([=] SPMESH_HD(index_t, index_t e, index_t f) {
                 return !eb[e] || fb[f] ? T(1) : T(0);  // on a boundary edge, its boundary faces
               }));
  // A boundary vertex's mask (sharpness.hpp; Catmull-Clark's smooth one without creases): self v +
  // ring (its boundary neighbours and boundary faces' points) + crease (its crease ends).
  auto ring_of = [=] SPMESH_HD(index_t v) { return ring ? T(ring[v]) : T(1) / (nb[v] * nb[v]); };
  linalg::spmm(exec, t1, edge_face_sums, vertex_faces, map::function([=] SPMESH_HD(index_t, index_t v, index_t e) {
                 if (vb[v]) return eb[e] ? ring_of(v) / 2 : T(0);
                 if (line[2 * v] < 0) return T(3) / (8 * 2 * nf[v]);
                 const T n = ne[v] - 2;
                 return (e == line[2 * v] || e == line[2 * v + 1] ? T(-1) : T(1)) / (4 * n * n);
               }));
  linalg::spmm(exec, t1, midpoints, vertex_edges, map::function([=] SPMESH_HD(index_t, index_t v, index_t e) {
                 if (vb[v]) return eb[e] ? 2 * ring_of(v) : T(0);
                 if (line[2 * v] < 0) return T(3) / (8 * ne[v]);
                 const T n = ne[v] - 2;
                 return e == line[2 * v] || e == line[2 * v + 1] ? T(0) : T(1) / (n * n);
               }));
  const T *vc = vertex_cells.data.data(), *vf = vertex_faces.data.data(), *ve = vertex_edges.data.data(),
          *x = X.data.data();
  exec.for_each(V, [=] SPMESH_HD(index_t v) {
    if (ne[v] == 0) {  // a vertex in no cell stays where it is
      for (index_t j = 0; j < k; ++j) vp[v * k + j] = x[v * k + j];
      return;
    }
    const index_t e0 = line[2 * v], e1 = line[2 * v + 1];
    // The midpoints above gave the ring's weight to v once per boundary edge.
    const T self_v = self ? T(self[v]) : (nb[v] - 2) / nb[v];
    const T n = ne[v] - 2, w = vb[v] ? self_v - nb[v] * ring_of(v) : e0 >= 0 ? (n - 3) / (2 * n) : T(1) / T(8);
    const index_t u = vb[v] && crease ? crease_u[v] : -1, u2 = u >= 0 ? crease_w[v] : -1;
    for (index_t j = 0; j < k; ++j) {
      vp[v * k + j] = vc[v * k + j] + vf[v * k + j] + ve[v * k + j] + w * x[v * k + j];
      if (e0 >= 0) vp[v * k + j] += (ep[e0 * k + j] + ep[e1 * k + j]) / 4;
      if (u2 >= 0) vp[v * k + j] += T(crease[v]) * (x[u * k + j] + x[u2 * k + j]);
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
