// Mesh connectivity as mapped products on the mesh matrix M (paper section 3.2):
// face orders (Eq. 5), incident-face counts (Eq. 15), the edge matrix E (Eq. 8), the oriented
// face adjacency F (Eq. 12, 13), the edge enumeration from E's upper triangle, vertex
// valences and boundary edges. Backend-neutral: every step is a linalg call on `exec`.
#pragma once

#include "linalg/convert.hpp"
#include "linalg/maps.hpp"
#include "linalg/mesh_matrix.hpp"
#include "linalg/mmt.hpp"
#include "linalg/spmv.hpp"

namespace spmesh::meshops {



// Eq. 5: c = M^T 1, val -> 1. The order of every face.
template <class Exec, class MeshMatrixT>
linalg::Array<index_t, typename Exec::space> face_orders(Exec& exec, const MeshMatrixT& M) {
  using S = typename Exec::space;
  linalg::Array<index_t, S> ones(M.vertices), c(M.faces);
  index_t* o = ones.data();
  exec.for_each(M.vertices, [=] SPMESH_HD(index_t i) { o[i] = 1; });
  linalg::spmv_t(exec, M, ones, c, linalg::map::constant(index_t(1)));
  return c;
}

// Eq. 15: n = M 1, val -> 1. The number of faces around every vertex (M taken by rows).
template <class Exec>
linalg::Array<index_t, typename Exec::space> incident_faces(
    Exec& exec, const linalg::Csr<index_t, typename Exec::space>& M_rows) {
  using S = typename Exec::space;
  linalg::Array<index_t, S> ones(M_rows.cols), n(M_rows.rows);
  index_t* o = ones.data();
  exec.for_each(M_rows.cols, [=] SPMESH_HD(index_t i) { o[i] = 1; });
  linalg::spmv(exec, M_rows, ones, n, linalg::map::constant(index_t(1)));
  return n;
}

// Eq. 8: E = M M^T {Q_c + Q_c^(c-1)}[lambda], lambda -> 1. E(i,j) is the number of face sides
// joining i and j: 1 on a boundary edge, 2 on an interior manifold edge, more on a
// non-manifold edge. Symmetric; its non-zeros are the mesh's edges, twice.
template <class Exec, class MeshMatrixT>
linalg::Csr<index_t, typename Exec::space> edge_matrix(Exec& exec, const MeshMatrixT& M) {
  return linalg::mmt(exec, M, linalg::Circulant{1, -1},
                     [] SPMESH_HD(const linalg::Collision&) { return index_t(1); });
}

// Eq. 12, 13: F = M M^T {Q_c}[gamma], gamma(i, j, k) = k. F(i,j) is the face in which vertex j
// follows vertex i, so the faces on edge {i, j} are F(i,j) and F(j,i). Where several faces
// hold the same oriented edge (non-manifold or inconsistently oriented input) the
// lowest-numbered one is kept.
template <class Exec, class MeshMatrixT>
linalg::Csr<index_t, typename Exec::space> oriented_adjacency(Exec& exec, const MeshMatrixT& M) {
  return linalg::mmt(exec, M, linalg::Circulant{1},
                     [] SPMESH_HD(const linalg::Collision& c) { return c.k; },
                     linalg::reduce::First{});
}

// The edges of a mesh, enumerated in the order of E's upper-triangular non-zeros (row-major):
// edge e joins from[e] < to[e] and lies on sides[e] face sides (1 = boundary).
template <class Space>
struct Edges {
  linalg::Array<index_t, Space> from, to, sides;
  index_t count() const { return from.size(); }
};

template <class Exec>
Edges<typename Exec::space> enumerate_edges(Exec& exec,
                                           const linalg::Csr<index_t, typename Exec::space>& E) {
  using S = typename Exec::space;
  const auto e = E.view();
  linalg::Array<index_t, S> row_of(E.nnz());
  index_t* ro = row_of.data();
  exec.for_each(E.rows, [=] SPMESH_HD(index_t i) {
    for (index_t p = e.begin(i); p < e.end(i); ++p) ro[p] = i;
  });
  auto upper = [=] SPMESH_HD(index_t p) { return ro[p] < e.indices[p]; };
  const index_t n = exec.count_if(E.nnz(), upper);
  Edges<S> out{linalg::Array<index_t, S>(n), linalg::Array<index_t, S>(n),
               linalg::Array<index_t, S>(n)};
  exec.select_if(ro, E.nnz(), out.from.data(), upper);
  exec.select_if(E.indices.data(), E.nnz(), out.to.data(), upper);
  exec.select_if(E.values.data(), E.nnz(), out.sides.data(), upper);
  return out;
}

// What lies on either side of each edge (from[e], to[e]) as a matrix A of the mesh's directed
// edges holds it: A(from, to) and A(to, from), -1 where A has no entry (on the boundary). With
// the oriented adjacency F, the faces on either side (Eq. 12, 13); with Loop's G, the vertices
// opposite the edge (Eq. 35, 36).
template <class S>
struct EdgeSides {
  linalg::Array<index_t, S> side0, side1;
};
template <class Exec, class S = typename Exec::space>
EdgeSides<S> edge_sides(Exec& exec, const linalg::Csr<index_t, S>& A,
                        const linalg::Array<index_t, S>& from, const linalg::Array<index_t, S>& to) {
  const auto a = A.view();
  EdgeSides<S> out{linalg::Array<index_t, S>(from.size()), linalg::Array<index_t, S>(from.size())};
  const index_t *i = from.data(), *j = to.data();
  index_t *s0 = out.side0.data(), *s1 = out.side1.data();
  exec.for_each(from.size(), [=] SPMESH_HD(index_t e) {
    const index_t p = a.find(i[e], j[e]), q = a.find(j[e], i[e]);
    s0[e] = p >= 0 ? a.values[p] : -1;
    s1[e] = q >= 0 ? a.values[q] : -1;
  });
  return out;
}

// The edge index (in enumerate_edges' order) of every stored entry of E: entries (i, j) and
// (j, i) both name edge {i, j}. The upper entries are numbered row by row (a scan); a lower
// entry finds its upper twin by binary search.
template <class Exec>
linalg::Array<index_t, typename Exec::space> edge_index_of_entries(
    Exec& exec, const linalg::Csr<index_t, typename Exec::space>& E) {
  using S = typename Exec::space;
  const auto e = E.view();
  linalg::Array<index_t, S> rank(E.nnz()), index(E.nnz());
  index_t *rk = rank.data(), *ix = index.data();
  exec.for_each(E.rows, [=] SPMESH_HD(index_t i) {
    for (index_t p = e.begin(i); p < e.end(i); ++p) rk[p] = i < e.indices[p] ? 1 : 0;
  });
  exec.exclusive_scan(rk, rk, E.nnz());
  exec.for_each(E.rows, [=] SPMESH_HD(index_t i) {
    for (index_t p = e.begin(i); p < e.end(i); ++p) {
      const index_t j = e.indices[p];
      ix[p] = i < j ? rk[p] : rk[e.find(j, i)];
    }
  });
  return index;
}

// Vertex valences: the number of edges at each vertex, n = E 1 with val_ij -> (i != j): a side
// from a vertex to itself (a face with a repeated vertex) is no edge.
template <class Exec>
linalg::Array<index_t, typename Exec::space> valences(
    Exec& exec, const linalg::Csr<index_t, typename Exec::space>& E) {
  using S = typename Exec::space;
  linalg::Array<index_t, S> ones(E.cols), n(E.rows);
  index_t* o = ones.data();
  exec.for_each(E.cols, [=] SPMESH_HD(index_t i) { o[i] = 1; });
  linalg::spmv(exec, E, ones, n, linalg::map::function([] SPMESH_HD(index_t, index_t i, index_t j) {
                 return index_t(i != j ? 1 : 0);
               }));
  return n;
}

}  // namespace spmesh::meshops
