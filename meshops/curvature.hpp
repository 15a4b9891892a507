// Curvatures of a triangle mesh as products with its matrices (any executor; the same bits every
// run):
//   angle_defects   K_i = 2 pi - Theta_i at an interior vertex and pi - Theta_i on the boundary,
//                   Theta = M {(slot, face) -> the triangle's angle at that corner} 1, the angles
//                   around each vertex summed over the mesh matrix's row. The integrated Gaussian
//                   curvature (Meyer et al. 2003, Eq. 9); on the boundary the turning angle (the
//                   integrated geodesic curvature), so that sum_i K_i = 2 pi chi on every mesh
//                   (discrete Gauss-Bonnet). K_i over vertex i's area (the barycentric mass
//                   matrix's diagonal) is the pointwise Gaussian curvature; libigl's
//                   gaussian_curvature is the interior formula at every vertex.
//   mean_curvature  H_i = -1/2 (M^-1 L P)_i . N_i: the mean curvature normal is -1/2 the
//                   Laplace-Beltrami operator of the position (Meyer et al. 2003, Eq. 8), L the
//                   cotangent Laplacian, M the barycentric mass matrix, N the area-weighted
//                   vertex normals. H = (k1 + k2) / 2, positive where the surface bends away from
//                   its normals (a sphere with outward faces: 1 / radius). Meaningful inside; at a
//                   boundary vertex L holds the boundary's own curvature too.
#pragma once

#include "linalg/convert.hpp"
#include "linalg/spmv.hpp"
#include "meshops/laplacian.hpp"
#include "meshops/normals.hpp"
#include "meshops/topology.hpp"

#include <cmath>
#include <numbers>

namespace spmesh::meshops {

namespace detail {

// The angle of triangle f at the corner in `slot` (a map on M by rows: value = slot, j = face).
struct CornerAngle {
  TriangleCorners<double> triangle;
  SPMESH_HD double operator()(index_t slot, index_t, index_t f) const { return triangle.angle(f, slot); }
};

}  // namespace detail

// The angles around each vertex (vertices): Theta = M {corner angle} 1.
template <class Exec, class S = typename Exec::space>
linalg::Array<double, S> angle_sums(Exec& exec, const linalg::MeshMatrix<S>& M, const linalg::Dense<double, S>& P) {
  detail::require_xyz(M, P, "angle_sums");
  detail::require_triangles(exec, M, "angle_sums");
  return detail::sum_over_corners(exec, M, detail::CornerAngle{{M.view(), P.data.data()}});
}

// The integrated Gaussian curvature at each vertex (vertices): the angle defect, the boundary's
// turning angle at a boundary vertex (where an edge has one face side). 2 pi at a vertex in no face.
template <class Exec, class S = typename Exec::space>
linalg::Array<double, S> angle_defects(Exec& exec, const linalg::MeshMatrix<S>& M, const linalg::Dense<double, S>& P) {
  auto K = angle_sums(exec, M, P);
  // On the boundary: some edge at the vertex has one side. E 1 with val -> (val == 1), reduced by max.
  const auto E = edge_matrix(exec, M);
  linalg::Array<index_t, S> ones(M.vertices), boundary(M.vertices);
  index_t* one = ones.data();
  exec.for_each(M.vertices, [=] SPMESH_HD(index_t i) { one[i] = 1; });
  linalg::spmv(exec, E, ones, boundary,
               linalg::map::function([] SPMESH_HD(index_t sides, index_t, index_t) { return index_t(sides == 1); }),
               linalg::reduce::Max{});
  const index_t* on_boundary = boundary.data();
  double* k = K.data();
  exec.for_each(M.vertices, [=] SPMESH_HD(index_t i) {
    k[i] = (on_boundary[i] > 0 ? std::numbers::pi : 2 * std::numbers::pi) - k[i];
  });
  return K;
}

// The mean curvature at each vertex (vertices), signed by the vertex normals.
template <class Exec, class S = typename Exec::space>
linalg::Array<double, S> mean_curvature(Exec& exec, const linalg::MeshMatrix<S>& M, const linalg::Dense<double, S>& P) {
  const auto L = cotangent_laplacian(exec, M, P);
  const auto areas = vertex_areas(exec, M, P);
  const auto N = vertex_normals(exec, M, P);
  linalg::Dense<double, S> LP(M.vertices, 3);
  linalg::spmm(exec, L, P, LP);
  linalg::Array<double, S> H(M.vertices);
  const double *lp = LP.data.data(), *n = N.data.data(), *area = areas.data();
  double* h = H.data();
  exec.for_each(M.vertices, [=] SPMESH_HD(index_t i) {
    const double* row = lp + std::int64_t(i) * 3;
    const double* normal = n + std::int64_t(i) * 3;
    const double dot = row[0] * normal[0] + row[1] * normal[1] + row[2] * normal[2];
    h[i] = area[i] > 0 ? -dot / (2 * area[i]) : 0.0;
  });
  return H;
}

}  // namespace spmesh::meshops
