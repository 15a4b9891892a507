// Area-weighted vertex normals as a product with the mesh matrix: N = M A, A the faces' area
// vectors (faces x 3: half the sum of the cross products of consecutive corners, Newell's formula:
// the area times the unit normal of a planar face, for a triangle (b - a) x (c - a) / 2), each
// vertex's sum over its faces in face order (one writer a row: the same bits every run), then
// normalised. libigl's per_vertex_normals with area weighting on triangles; any polygon here.
#pragma once

#include "linalg/convert.hpp"
#include "linalg/formats.hpp"
#include "linalg/mesh_matrix.hpp"
#include "linalg/spmv.hpp"
#include "meshops/laplacian.hpp"

#include <cmath>

namespace spmesh::meshops {

namespace detail {

struct FaceAreaVector {
  linalg::MeshView m;
  const double* P;  // vertices x 3
  double* out;      // faces x 3
  SPMESH_HD void operator()(index_t f) const {
    const index_t begin = m.begin(f), corners = m.end(f) - begin;
    double sum[3] = {0, 0, 0};
    for (index_t s = 0; s < corners; ++s) {
      const double* a = P + std::int64_t(m.index(begin + s)) * 3;
      const double* b = P + std::int64_t(m.index(begin + (s + 1 == corners ? 0 : s + 1))) * 3;
      sum[0] += a[1] * b[2] - a[2] * b[1], sum[1] += a[2] * b[0] - a[0] * b[2], sum[2] += a[0] * b[1] - a[1] * b[0];
    }
    for (int x = 0; x < 3; ++x) out[std::int64_t(f) * 3 + x] = sum[x] / 2;
  }
};

}  // namespace detail

// The faces' area vectors (faces x 3).
template <class Exec, class S = typename Exec::space>
linalg::Dense<double, S> face_area_vectors(Exec& exec, const linalg::MeshMatrix<S>& M,
                                           const linalg::Dense<double, S>& P) {
  detail::require_xyz(M, P, "face_area_vectors");
  linalg::Dense<double, S> A(M.faces, 3);
  exec.for_each(M.faces, detail::FaceAreaVector{M.view(), P.data.data(), A.data.data()});
  return A;
}

// Unit area-weighted vertex normals (vertices x 3); zero at a vertex in no face, or whose faces'
// area vectors cancel.
template <class Exec, class S = typename Exec::space>
linalg::Dense<double, S> vertex_normals(Exec& exec, const linalg::MeshMatrix<S>& M, const linalg::Dense<double, S>& P) {
  const auto A = face_area_vectors(exec, M, P);
  linalg::Dense<double, S> N(M.vertices, 3);
  linalg::spmm(exec, linalg::to_csr(exec, M), A, N, linalg::map::constant(1.0));  // N = M A, val -> 1
  double* n = N.data.data();
  exec.for_each(M.vertices, [=] SPMESH_HD(index_t v) {
    double* row = n + std::int64_t(v) * 3;
    const double length = std::sqrt(row[0] * row[0] + row[1] * row[1] + row[2] * row[2]);
    for (int x = 0; x < 3; ++x) row[x] = length > 0 ? row[x] / length : 0.0;
  });
  return N;
}

}  // namespace spmesh::meshops
