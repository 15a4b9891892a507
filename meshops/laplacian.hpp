// A surface mesh's Laplacians and mass matrices, each one implicit mapped M M^T (linalg/mmt.hpp,
// AlSub section 4.2): entry (i, j) gathers what vertices i and j meet in the faces they share,
// vertex i's own entry what it meets in its faces, and nothing else is formed. Any executor; the
// matrices are CSR (vertices x vertices, columns ascending), symmetric, with the same bits every
// run (contributions summed in face order).
//
//   cotangent_laplacian  L(i, j) = (cot alpha_ij + cot beta_ij) / 2, the angles opposite edge ij
//                        in its two triangles (one at the boundary), L(i, i) = - sum_j L(i, j):
//                        the discrete Laplace-Beltrami operator's stiffness matrix (Pinkall and
//                        Polthier 1993; Meyer et al. 2003, Eq. 5), negative semi-definite, the
//                        sign libigl's cotmatrix uses;
//   mass_matrix          barycentric: M(i, i) = the areas of vertex i's triangles over 3 (lumped);
//                        full: M(i, i) = area / 6, M(i, j) = area / 12 in each triangle (the
//                        linear finite elements' Gram matrix);
//   uniform_laplacian    L(i, j) = 1 on each edge, L(i, i) = - the edges at i: the graph
//                        Laplacian, of any polygon mesh (its faces' consecutive corners).
// The cotangent Laplacian and the mass matrices are defined on triangles: a mesh with another
// face is refused, naming it (meshops::triangulate makes triangles). A triangle of zero area
// gives infinite cotangents, as the formula does.
#pragma once

#include "linalg/convert.hpp"
#include "linalg/mesh_matrix.hpp"
#include "linalg/mmt.hpp"
#include "linalg/spmv.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace spmesh::meshops {

enum class MassMatrix { barycentric, full };

namespace detail {

// Triangle k's corners: their points, the cotangents of their angles, the triangle's area.
template <class T>
struct TriangleCorners {
  linalg::MeshView m;
  const T* P;  // vertices x 3
  SPMESH_HD const T* point(index_t k, index_t slot) const {
    return P + std::int64_t(m.index(m.begin(k) + slot)) * 3;
  }
  // The cotangent of the angle at corner `at` (the edge opposite it: the other two corners).
  SPMESH_HD T cotangent(index_t k, index_t at) const {
    T e[3], f[3], n[3];
    spans(k, at, e, f, n);
    return (e[0] * f[0] + e[1] * f[1] + e[2] * f[2]) / std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  }
  // The angle at corner `at`, in [0, pi] (atan2 of the sine and cosine parts: exact near 0 and pi).
  SPMESH_HD T angle(index_t k, index_t at) const {
    T e[3], f[3], n[3];
    spans(k, at, e, f, n);
    return std::atan2(std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), e[0] * f[0] + e[1] * f[1] + e[2] * f[2]);
  }
  SPMESH_HD T area(index_t k) const {
    T e[3], f[3], n[3];
    spans(k, 0, e, f, n);
    return std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) / 2;
  }

private:
  // The edges from corner `at` to the next two, and their cross product.
  SPMESH_HD void spans(index_t k, index_t at, T (&e)[3], T (&f)[3], T (&n)[3]) const {
    const T *o = point(k, at), *a = point(k, (at + 1) % 3), *b = point(k, (at + 2) % 3);
    for (int x = 0; x < 3; ++x) e[x] = a[x] - o[x], f[x] = b[x] - o[x];
    n[0] = e[1] * f[2] - e[2] * f[1], n[1] = e[2] * f[0] - e[0] * f[2], n[2] = e[0] * f[1] - e[1] * f[0];
  }
};

// The cotangent Laplacian's collisions: vertex i at slot a with its neighbour at slot b gets half
// the cotangent at the third corner; with itself (a = b), minus half those at the other two.
template <class T>
struct CotangentWeight {
  TriangleCorners<T> triangle;
  SPMESH_HD T operator()(const linalg::Collision& c) const {
    if (c.slot_i == c.slot_j)
      return -(triangle.cotangent(c.k, (c.slot_i + 1) % 3) + triangle.cotangent(c.k, (c.slot_i + 2) % 3)) / 2;
    return triangle.cotangent(c.k, 3 - c.slot_i - c.slot_j) / 2;
  }
};

template <class T>
struct MassWeight {
  TriangleCorners<T> triangle;
  MassMatrix kind;
  SPMESH_HD T operator()(const linalg::Collision& c) const {
    const T area = triangle.area(c.k);
    if (kind == MassMatrix::barycentric) return area / 3;
    return c.slot_i == c.slot_j ? area / 6 : area / 12;
  }
};

// A third of triangle f's area at each of its corners (a map on M by rows: value = slot, j = face).
struct CornerArea {
  TriangleCorners<double> triangle;
  SPMESH_HD double operator()(index_t, index_t, index_t f) const { return triangle.area(f) / 3; }
};

// 1 on an edge; 0 on the diagonal, which uniform_laplacian then sets.
struct EdgeWeight {
  SPMESH_HD double operator()(const linalg::Collision& c) const { return c.slot_i == c.slot_j ? 0.0 : 1.0; }
};

// Per vertex, the sum over its corners of corner(slot, vertex, face): the product M {corner} 1
// over the mesh matrix's rows, each row summed in face order.
template <class Exec, class S, class Corner>
linalg::Array<double, S> sum_over_corners(Exec& exec, const linalg::MeshMatrix<S>& M, Corner corner) {
  linalg::Array<double, S> ones(M.faces), sums(M.vertices);
  double* one = ones.data();
  exec.for_each(M.faces, [=] SPMESH_HD(index_t f) { one[f] = 1; });
  linalg::spmv(exec, linalg::to_csr(exec, M), ones, sums, corner);
  return sums;
}

// Refuses a mesh with a face other than a triangle, naming the first.
template <class Exec, class S>
void require_triangles(Exec& exec, const linalg::MeshMatrix<S>& M, const char* what) {
  if (!linalg::has_faces_other_than(exec, M, 3)) return;
  std::vector<index_t> offsets(static_cast<std::size_t>(M.faces) + 1);
  exec.read(M.offsets.data(), M.faces + 1, offsets.data());
  for (index_t f = 0; f < M.faces; ++f)
    if (const index_t corners = offsets[f + 1] - offsets[f]; corners != 3)
      throw DimensionError(std::string(what) + ": face " + std::to_string(f) + " has " + std::to_string(corners) +
                           " corners; it is defined on triangles (meshops::triangulate makes them; ids count "
                           "from 0)");
}

template <class T, class S>
void require_xyz(const linalg::MeshMatrix<S>& M, const linalg::Dense<T, S>& P, const char* what) {
  if (P.rows != M.vertices || P.cols != 3)
    throw DimensionError(std::string(what) + ": the positions are " + std::to_string(P.rows) + " x " +
                         std::to_string(P.cols) + ", the mesh has " + std::to_string(M.vertices) +
                         " vertices (x 3 expected)");
}

}  // namespace detail

template <class Exec, class T, class S = typename Exec::space>
linalg::Csr<T, S> cotangent_laplacian(Exec& exec, const linalg::MeshMatrix<S>& M, const linalg::Dense<T, S>& P) {
  detail::require_xyz(M, P, "cotangent_laplacian");
  detail::require_triangles(exec, M, "cotangent_laplacian");
  return linalg::mmt(exec, M, linalg::Circulant{0, 1, -1},
                     detail::CotangentWeight<T>{{M.view(), P.data.data()}});
}

template <class Exec, class T, class S = typename Exec::space>
linalg::Csr<T, S> mass_matrix(Exec& exec, const linalg::MeshMatrix<S>& M, const linalg::Dense<T, S>& P,
                              MassMatrix kind = MassMatrix::barycentric) {
  detail::require_xyz(M, P, "mass_matrix");
  detail::require_triangles(exec, M, "mass_matrix");
  const linalg::Circulant pairs = kind == MassMatrix::barycentric ? linalg::Circulant{0} : linalg::Circulant{0, 1, -1};
  return linalg::mmt(exec, M, pairs, detail::MassWeight<T>{{M.view(), P.data.data()}, kind});
}

// (Edges seen from two faces are kept once: reduce::Max.)
template <class Exec, class S = typename Exec::space>
linalg::Csr<double, S> uniform_laplacian(Exec& exec, const linalg::MeshMatrix<S>& M) {
  auto L = linalg::mmt(exec, M, linalg::Circulant{0, 1, -1}, detail::EdgeWeight{}, linalg::reduce::Max{});
  const index_t* offsets = L.offsets.data();
  const index_t* columns = L.indices.data();
  double* values = L.values.data();
  exec.for_each(L.rows, [=] SPMESH_HD(index_t i) {
    double edges = 0;
    index_t diagonal = -1;
    for (index_t p = offsets[i]; p < offsets[i + 1]; ++p)
      if (columns[p] == i) diagonal = p;
      else edges += values[p];
    if (diagonal >= 0) values[diagonal] = -edges;
  });
  return L;
}

// Each vertex's area, a third of its triangles' (vertices; 0 at a vertex in no face): the
// barycentric mass matrix's diagonal as an array, M {corner -> area / 3} 1.
template <class Exec, class S = typename Exec::space>
linalg::Array<double, S> vertex_areas(Exec& exec, const linalg::MeshMatrix<S>& M, const linalg::Dense<double, S>& P) {
  detail::require_xyz(M, P, "vertex_areas");
  detail::require_triangles(exec, M, "vertex_areas");
  return detail::sum_over_corners(exec, M, detail::CornerArea{{M.view(), P.data.data()}});
}

// M - t L with the barycentric (lumped) mass matrix: the backward Euler step of the heat equation
// du/dt = L u, the system of implicit smoothing and of the heat method's first solve. Symmetric
// positive definite for t >= 0 on a mesh with no triangle of zero area. L's pattern (which holds
// the diagonal) with M's diagonal added.
template <class Exec, class S = typename Exec::space>
linalg::Csr<double, S> heat_operator(Exec& exec, const linalg::MeshMatrix<S>& M, const linalg::Dense<double, S>& P,
                                     double t) {
  if (!(t >= 0)) throw InputError("heat_operator: the time step is " + std::to_string(t) + "; give t >= 0");
  auto A = cotangent_laplacian(exec, M, P);
  const auto areas = vertex_areas(exec, M, P);
  const index_t* offsets = A.offsets.data();
  const index_t* columns = A.indices.data();
  double* values = A.values.data();
  const double* diagonal = areas.data();
  exec.for_each(A.rows, [=] SPMESH_HD(index_t i) {
    for (index_t q = offsets[i]; q < offsets[i + 1]; ++q) values[q] = (columns[q] == i ? diagonal[i] : 0.0) - t * values[q];
  });
  return A;
}

}  // namespace spmesh::meshops
