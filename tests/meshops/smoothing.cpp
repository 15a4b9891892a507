// Explicit and implicit Laplacian smoothing (meshops/smoothing.hpp): the implicit step against
// Eigen's sparse Cholesky factor of the same system (M - t L) X = M P, the explicit step against
// the host's own P + step M^-1 L P, and both lowering the points' roughness |L P|. On each backend
// (cuda/smoothing.cu compiles this source for the GPU).
#include "../backends.hpp"
#include "surfaces.hpp"
#include "linalg/eigen.hpp"
#include "meshops/obj.hpp"
#include "meshops/smoothing.hpp"
#include "meshops/triangulate.hpp"

#include <Eigen/SparseCholesky>
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

namespace spmesh::test::smoothing_tests {

using meshops::PolyMesh;

// sum over the points of |(L P)_i|^2, with L the cotangent Laplacian of `mesh`'s own points.
double roughness(const linalg::Csr<double>& L, const linalg::Dense<double>& P) {
  double sum = 0;
  for (index_t i = 0; i < L.rows; ++i)
    for (int x = 0; x < 3; ++x) {
      double row = 0;
      for (index_t q = L.offsets[i]; q < L.offsets[i + 1]; ++q) row += L.values[q] * P(L.indices[q], x);
      sum += row * row;
    }
  return sum;
}

TEST_CASE_TEMPLATE("Implicit smoothing solves (M - t L) X = M P as Eigen's Cholesky factor does, explicit smoothing "
                   "steps P + s M^-1 L P, and both make the points smoother",
                   B, SPMESH_TEST_BACKENDS) {
  const PolyMesh mesh = perturbed_torus(8);
  linalg::cpu::Executor cpu;
  const auto L = meshops::cotangent_laplacian(cpu, mesh.M, mesh.positions);
  const auto mass = meshops::mass_matrix(cpu, mesh.M, mesh.positions);
  typename B::Exec exec;
  const auto M = B::upload(mesh.M);
  const auto P = B::upload(mesh.positions);
  const double t = 0.2;
  linalg::CgOptions options;
  options.tolerance = 1e-13;
  const auto smoothed = meshops::implicit_smoothing(exec, M, P, t, options);
  CHECK(smoothed.solve.converged);
  const auto X = B::download(smoothed.points);
  // Eigen: A = M - t L from spmesh's own matrices (checked against libigl elsewhere).
  const Eigen::SparseMatrix<double> A =
      Eigen::SparseMatrix<double>(linalg::eigen_view(mass)) - t * Eigen::SparseMatrix<double>(linalg::eigen_view(L));
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> cholesky(A);
  REQUIRE(cholesky.info() == Eigen::Success);
  double worst = 0;
  for (int x = 0; x < 3; ++x) {
    Eigen::VectorXd b(mesh.vertex_count());
    for (index_t i = 0; i < mesh.vertex_count(); ++i) b[i] = mass.values[i] * mesh.positions(i, x);
    const Eigen::VectorXd want = cholesky.solve(b);
    for (index_t i = 0; i < mesh.vertex_count(); ++i) worst = std::max(worst, std::abs(X(i, x) - want[i]));
  }
  CHECK(worst <= 1e-10);  // the torus is some 4 across
  CHECK(roughness(L, X) < 0.5 * roughness(L, mesh.positions));

  const double step = 1e-3;
  const auto one = B::download(meshops::explicit_smoothing(exec, M, P, step, 1));
  double step_error = 0;
  for (index_t i = 0; i < L.rows; ++i)
    for (int x = 0; x < 3; ++x) {
      double row = 0;
      for (index_t q = L.offsets[i]; q < L.offsets[i + 1]; ++q) row += L.values[q] * mesh.positions(L.indices[q], x);
      step_error = std::max(step_error, std::abs(one(i, x) - (mesh.positions(i, x) + step * row / mass.values[i])));
    }
  CHECK(step_error <= 1e-14);
  const auto ten = B::download(meshops::explicit_smoothing(exec, M, P, step, 10));
  CHECK(roughness(L, ten) < roughness(L, mesh.positions));
  std::string message;
  try {
    meshops::implicit_smoothing(exec, M, P, -1.0);
  } catch (const InputError& e) {
    message = e.what();
  }
  CHECK(message == "implicit_smoothing: the time step is -1.000000; give t >= 0");
}

}  // namespace spmesh::test::smoothing_tests
