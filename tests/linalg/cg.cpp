// Conjugate gradients on the executor (linalg/cg.hpp) against Eigen's sparse Cholesky factor
// (SimplicialLDLT) on a shifted 2D Laplacian with random weights, 3 columns at once; the same bits
// on a second run; and a matrix that is not positive definite reported as not converged.
#include "common.hpp"
#include "linalg/cg.hpp"

#include <Eigen/SparseCholesky>

#include <random>

namespace spmesh::test::cg_tests {

// An m x m grid's weighted graph Laplacian (random weights in [1, 2] on its edges) plus `shift`
// times the identity: symmetric, positive definite for shift > 0 (negative definite for its
// negative).
EigenRows shifted_laplacian(index_t m, double shift, double sign = 1) {
  std::mt19937 random(21);
  std::uniform_real_distribution<double> weight(1, 2);
  std::vector<Eigen::Triplet<double, index_t>> triplets;
  const index_t n = m * m;
  std::vector<double> diagonal(std::size_t(n), shift);
  for (index_t y = 0; y < m; ++y)
    for (index_t x = 0; x < m; ++x)
      for (const auto& [dx, dy] : {std::pair{1, 0}, std::pair{0, 1}}) {
        if (x + dx >= m || y + dy >= m) continue;
        const index_t i = x + m * y, j = x + dx + m * (y + dy);
        const double w = weight(random);
        triplets.emplace_back(i, j, -sign * w), triplets.emplace_back(j, i, -sign * w);
        diagonal[std::size_t(i)] += w, diagonal[std::size_t(j)] += w;
      }
  for (index_t i = 0; i < n; ++i) triplets.emplace_back(i, i, sign * diagonal[std::size_t(i)]);
  EigenRows A(n, n);
  A.setFromTriplets(triplets.begin(), triplets.end());
  A.makeCompressed();
  return A;
}

template <class B>
la::CgResult solve(const EigenRows& A, const Dense<double>& rhs, Dense<double>& X, const la::CgOptions& options) {
  typename B::Exec exec;
  const auto on_A = B::upload(la::csr_from_eigen(A));
  auto on_X = B::upload(X);
  const auto result = la::conjugate_gradient(exec, on_A, B::upload(rhs), on_X, options);
  X = B::download(on_X);
  return result;
}

TEST_CASE_TEMPLATE("Conjugate gradients on the executor solve a positive definite system as Eigen's Cholesky "
                   "factor does, the same bits twice, and say when the matrix is not positive definite",
                   B, SPMESH_TEST_BACKENDS) {
  const index_t m = 40, n = m * m, k = 3;
  const EigenRows A = shifted_laplacian(m, 1e-2);
  std::mt19937 random(4);
  std::uniform_real_distribution<double> unit(-1, 1);
  Dense<double> rhs(n, k);
  for (double& x : rhs.data) x = unit(random);
  auto zeros = [&] {  // the start (a Dense's values are not initialised)
    Dense<double> start(n, k);
    std::fill(start.data.begin(), start.data.end(), 0.0);
    return start;
  };
  Dense<double> X = zeros();
  la::CgOptions options;
  options.tolerance = 1e-12;
  const auto result = solve<B>(A, rhs, X, options);
  CHECK(result.converged);
  CHECK(result.relative_residual <= 1e-12);
  CHECK(result.iterations > 10);
  CHECK(result.iterations % options.check_every == 0);
  // Eigen's direct solve, column by column.
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> cholesky(A);
  REQUIRE(cholesky.info() == Eigen::Success);
  double worst = 0, size = 0;
  for (index_t c = 0; c < k; ++c) {
    Eigen::VectorXd b(n);
    for (index_t i = 0; i < n; ++i) b[i] = rhs(i, c);
    const Eigen::VectorXd want = cholesky.solve(b);
    for (index_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(X(i, c) - want[i])), size = std::max(size, std::abs(want[i]));
  }
  CHECK(worst <= 1e-9 * size);  // the residual's 1e-12 times the condition number (some 1e3)
  // Again: the same bits.
  Dense<double> again = zeros();
  solve<B>(A, rhs, again, options);
  index_t differing = 0;
  for (index_t i = 0; i < X.data.size(); ++i) differing += X.data[i] != again.data[i];
  CHECK(differing == 0);
  // Five iterations (fewer than check_every) against Hestenes-Stiefel with the Jacobi
  // preconditioner written out in Eigen, column by column: the same iterate to rounding.
  la::CgOptions five;
  five.tolerance = 0, five.max_iterations = 5;
  Dense<double> X5 = zeros();
  const auto five_result = solve<B>(A, rhs, X5, five);
  CHECK(five_result.iterations == 5);
  CHECK(!five_result.converged);
  const Eigen::VectorXd inverse_diagonal = A.diagonal().cwiseInverse();
  double worst5 = 0, size5 = 0;
  for (index_t c = 0; c < k; ++c) {
    Eigen::VectorXd b(n);
    for (index_t i = 0; i < n; ++i) b[i] = rhs(i, c);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(n), r = b, z = inverse_diagonal.cwiseProduct(r), p = z;
    double rz = r.dot(z);
    for (int iteration = 0; iteration < 5; ++iteration) {
      const Eigen::VectorXd ap = A * p;
      const double alpha = rz / p.dot(ap);
      x += alpha * p, r -= alpha * ap, z = inverse_diagonal.cwiseProduct(r);
      const double rz_next = r.dot(z);
      p = z + (rz_next / rz) * p, rz = rz_next;
    }
    for (index_t i = 0; i < n; ++i) worst5 = std::max(worst5, std::abs(X5(i, c) - x[i])), size5 = std::max(size5, std::abs(x[i]));
  }
  CHECK(worst5 <= 1e-13 * size5);
  // Negative definite: p^T A p < 0 stops every column at once.
  Dense<double> stuck = zeros();
  options.max_iterations = 64;
  const auto refused = solve<B>(shifted_laplacian(m, 1e-2, -1), rhs, stuck, options);
  CHECK(!refused.converged);
  CHECK(refused.iterations == 64);
  options.check_every = 0;
  CHECK_THROWS_AS(solve<B>(A, rhs, stuck, options), InputError);
}

}  // namespace spmesh::test::cg_tests
