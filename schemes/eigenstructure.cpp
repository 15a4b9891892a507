// The decomposition Stam's evaluation keeps (eigenstructure.hpp), with Eigen in double.
#include "schemes/eigenstructure.hpp"

#include "schemes/tuning.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <functional>

namespace spmesh::schemes {

std::vector<double> restricted_row(const linalg::Csr<double>& S, index_t row, const std::map<index_t, int>& columns,
                                   const std::string& what) {
  std::vector<double> out(columns.size(), 0.0);
  for (index_t p = S.offsets[row]; p < S.offsets[row + 1]; ++p) {
    const auto at = columns.find(S.indices[p]);
    if (at == columns.end()) throw Error(what + ": a child point needs a vertex beyond the control points");
    out[std::size_t(at->second)] += S.values[p];
  }
  return out;
}

namespace {

// The `count` right singular vectors of X of the smallest singular values, and the largest of
// those values (how far from null they are).
Eigen::MatrixXd smallest_vectors(const Eigen::MatrixXd& X, int count, double& largest) {
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(X, Eigen::ComputeFullV);
  const int n = int(X.cols());
  largest = std::max(largest, count > 0 ? svd.singularValues()[n - count] : 0.0);
  return svd.matrixV().rightCols(count);
}

// The `count` left singular vectors of X of the largest singular values: an orthonormal basis of
// its leading column space.
Eigen::MatrixXd leading_columns(const Eigen::MatrixXd& X, int count) {
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(X, Eigen::ComputeFullU);
  return svd.matrixU().leftCols(count);
}

}  // namespace

Eigenstructure decompose(const Eigen::MatrixXd& A, const std::string& what) {
  const int K = int(A.rows());
  const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(K, K);
  // Sorted by decreasing eigenvalue. The eigenvalues are real and many repeat (the regular
  // part's 1/8, 1/16, ...); the QR iteration returns a repeated one as values split by rounding,
  // some as complex pairs, whose eigenvectors need not span its eigenspace. So the values are
  // grouped (real parts within 1e-7) and each group's vectors are found from null spaces: its
  // eigenvectors, the null space of A - lambda I (the smallest singular vectors); where that has
  // fewer dimensions than the group is large (a defective value: Loop's 1/16 at valence 3, where
  // the vertex's own mode meets the outer ring's), chains of two, v2 in the null space of
  // (A - lambda I)^2 but not of A - lambda I, v1 = (A - lambda I) v2, so that A v2 = lambda v2 + v1.
  const Eigen::VectorXcd values = Eigen::EigenSolver<Eigen::MatrixXd>(A, false).eigenvalues();
  std::vector<double> real(static_cast<std::size_t>(K));
  double imaginary = 0;  // the largest imaginary part of an eigenvalue
  for (int i = 0; i < K; ++i)
    real[std::size_t(i)] = values[i].real(), imaginary = std::max(imaginary, std::abs(values[i].imag()));
  std::sort(real.begin(), real.end(), std::greater<>());
  Eigenstructure out{Eigen::VectorXd(K), Eigen::VectorXd::Zero(K), Eigen::MatrixXd(K, K), {}};
  double null = 0;  // the largest singular value taken as zero
  for (int first = 0; first < K;) {
    int end = first + 1;
    while (end < K && real[std::size_t(end - 1)] - real[std::size_t(end)] <= 1e-7) ++end;
    const int size = end - first;
    double value = 0;
    for (int i = first; i < end; ++i) value += real[std::size_t(i)] / size;
    out.values.segment(first, size).setConstant(value);
    const Eigen::MatrixXd shifted = A - value * I;
    // The eigenvectors: as many singular values of A - lambda I as fall below 1e-10 of the group.
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(shifted, Eigen::ComputeFullV);
    int eigenvectors = 0;
    while (eigenvectors < size && svd.singularValues()[K - 1 - eigenvectors] <= 1e-10) ++eigenvectors;
    if (eigenvectors == size || eigenvectors == 0) {
      double unused = 0;
      out.vectors.middleCols(first, size) = smallest_vectors(shifted, size, eigenvectors == size ? null : unused);
      if (eigenvectors == 0) null = std::max(null, svd.singularValues()[K - 1]);
    } else {
      const Eigen::MatrixXd kernel = svd.matrixV().rightCols(eigenvectors);
      null = std::max(null, svd.singularValues()[K - eigenvectors]);
      const int chains = size - eigenvectors;
      // Chains of two need the null space of (A - lambda I)^2 to be the group's whole size.
      const Eigen::MatrixXd twice = smallest_vectors(shifted * shifted, size, null);
      const Eigen::MatrixXd tops = leading_columns(twice - kernel * (kernel.transpose() * twice), chains);
      const Eigen::MatrixXd bottoms = shifted * tops;
      // The eigenvectors that no chain ends in: the kernel's part away from the chains' ends.
      const Eigen::MatrixXd ends = leading_columns(bottoms, chains);
      const Eigen::MatrixXd rest = leading_columns(kernel - ends * (ends.transpose() * kernel), eigenvectors - chains);
      for (int c = 0; c < chains; ++c) {
        out.vectors.col(first + 2 * c) = bottoms.col(c), out.vectors.col(first + 2 * c + 1) = tops.col(c);
        out.superdiagonal[first + 2 * c + 1] = 1;
      }
      out.vectors.middleCols(first + 2 * chains, eigenvectors - chains) = rest;
    }
    first = end;
  }
  // The eigenvector of 1 is constant: scaled to ones, so that the limit point's term is its
  // coefficient alone (Stam's corner case), and 1 exactly.
  out.vectors.col(0) /= out.vectors(0, 0);
  out.values[0] = 1;
  out.inverse = out.vectors.inverse();
  Eigen::MatrixXd B = out.values.asDiagonal();
  for (int e = 1; e < K; ++e) B(e - 1, e) = out.superdiagonal[e];
  const double error = (out.vectors * B * out.inverse - A).cwiseAbs().maxCoeff();
  const Eigen::VectorXd& lambda = out.values;
  // The corner case takes eigenvalues 1 and 2 as the subdominant pair, 3 below them. (Each test
  // is written to fail on NaN.)
  const bool pair = lambda[1] == lambda[2] && lambda[3] < lambda[2] - 1e-7 && out.superdiagonal.head(4).norm() == 0;
  if (!(imaginary <= 1e-7 && null <= 1e-10 && error <= 1e-12 && std::abs(real[0] - 1) <= 1e-12 && pair))
    throw Error(what + ": the subdivision matrix has no decomposition in double with 1 and a subdominant pair first "
                "and chains of at most two (imaginary part " + std::to_string(imaginary) + ", singular value " +
                std::to_string(null) + ", error " + std::to_string(error) + ")");
  return out;
}

StamStructure stam_structure(const Eigen::MatrixXd& A, const Eigen::MatrixXd& G, int valence, const std::string& what) {
  const Eigenstructure eigen = decompose(A, what);
  const int K = int(A.rows()), P = int(G.rows() / 3);
  StamStructure out;
  out.valence = valence, out.size = K;
  out.eigenvalues.assign(eigen.values.data(), eigen.values.data() + K);
  out.superdiagonal.assign(eigen.superdiagonal.data(), eigen.superdiagonal.data() + K);
  const Eigen::MatrixXd GV = G * eigen.vectors;
  out.children.resize(std::size_t(3 * P * K));
  for (int row = 0; row < 3 * P; ++row)
    for (int k = 0; k < K; ++k) out.children[std::size_t(row * K + k)] = GV(row, k);
  out.powers.resize(std::size_t(tuning::stam_tabled_levels * 3 * P * K));
  Eigen::MatrixXd power = G;  // G A^(m-1)
  for (int m = 1; m <= tuning::stam_tabled_levels; ++m, power = power * A)
    for (int r = 0; r < 3; ++r)
      for (int k = 0; k < K; ++k)
        for (int p = 0; p < P; ++p) out.powers[std::size_t((((m - 1) * 3 + r) * K + k) * P + p)] = power(P * r + p, k);
  out.inverse.resize(std::size_t(K * K));
  for (int i = 0; i < K; ++i)
    for (int k = 0; k < K; ++k) out.inverse[std::size_t(i * K + k)] = eigen.inverse(i, k);
  return out;
}

std::vector<double> tabled_powers(const Eigen::MatrixXd& A, const std::vector<Eigen::MatrixXd>& nets, int depths,
                                  int powers, const std::string& what) {
  const int K = int(A.rows());
  // l^T: A^4096's rows (an eigenvalue of 0.9 is 1e-187 there, a Jordan chain's k lambda^k too).
  Eigen::MatrixXd power = A;
  for (int squaring = 0; squaring < 12; ++squaring) power = (power * power).eval();
  const Eigen::RowVectorXd limit = power.row(0);
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(K);
  const double apart = (power - ones * limit).cwiseAbs().maxCoeff();
  if (!(apart <= 1e-12) || !(std::abs(limit.sum() - 1) <= 1e-12))
    throw Error(what + ": the subdivision matrix's powers do not converge to one limit point (rows " +
                std::to_string(apart) + " apart, weights summing to " + std::to_string(limit.sum()) + ")");
  const Eigen::MatrixXd E = A - ones * limit;
  std::vector<double> values(limit.data(), limit.data() + K);
  Eigen::MatrixXd Ek = Eigen::MatrixXd::Identity(K, K) - ones * limit;  // E^0 as I - 1 l^T
  for (int k = 0; k < depths; ++k, Ek = (E * Ek).eval())
    for (const Eigen::MatrixXd& G : nets) {
      const Eigen::MatrixXd D = G * Ek;
      for (int q = 0; q < K; ++q)
        for (int p = 0; p < int(G.rows()); ++p) values.push_back(D(p, q));
    }
  Eigen::MatrixXd step = Eigen::MatrixXd::Identity(K, K);  // E^depths, then squared
  for (int k = 0; k < depths; ++k) step = (E * step).eval();
  for (int b = 0; b < powers; ++b, step = (step * step).eval())
    for (int row = 0; row < K; ++row)
      for (int col = 0; col < K; ++col) values.push_back(step(row, col));
  if (powers > 0) {
    const double lambda = Eigen::EigenSolver<Eigen::MatrixXd>(E, false).eigenvalues().cwiseAbs().maxCoeff();
    values.push_back(1 / (2 * lambda));
  }
  return values;
}

}  // namespace spmesh::schemes
