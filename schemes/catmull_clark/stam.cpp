// Stam's eigenstructure per valence (stam.hpp), read off spmesh's own Catmull-Clark refinement of
// a fan and decomposed with Eigen in double.
#include "schemes/catmull_clark/stam.hpp"

#include "linalg/cpu/executor.hpp"
#include "schemes/catmull_clark/scheme.hpp"
#include "schemes/limit.hpp"

#include <Eigen/Dense>
#include <Eigen/SVD>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>

namespace spmesh::schemes::catmull_clark {

namespace {

// Row `row` of S restricted to the columns `columns` (position in it per vertex), checked to
// lie wholly in them.
std::vector<double> restricted_row(const linalg::Csr<double>& S, index_t row, const std::map<index_t, int>& columns,
                                   int valence) {
  std::vector<double> out(columns.size(), 0.0);
  for (index_t p = S.offsets[row]; p < S.offsets[row + 1]; ++p) {
    const auto at = columns.find(S.indices[p]);
    if (at == columns.end())
      throw Error("catmull_clark stam: valence " + std::to_string(valence) + ": a child point needs a vertex beyond "
                  "the 2n + 8 control points");
    out[std::size_t(at->second)] += S.values[p];
  }
  return out;
}

StamStructure make_structure(int n) {
  cpu::Executor exec;
  const int K = stam_ring_size(n);
  auto M = fan_mesh(n);
  const index_t V = M.vertices;
  Plan<linalg::Host> plan;
  std::optional<AnyLevel<linalg::Host>> last;
  std::optional<SharpTable<linalg::Host>> table;
  schemes::detail::KeepLevelsAndLast<cpu::Executor, Plan<linalg::Host>, AnyLevel<linalg::Host>> sink{
      {plan}, exec, last, table};
  const Sharpness<> smooth{linalg::Coo<float>{V, V, {}, {}, {}}, linalg::Array<float>(V, 0.0f)};
  schemes::detail::build_half_edges<CatmullClark>(exec, std::move(M), smooth, 1, Options{}, sink);
  const auto& parent = std::get<QuadLevel<linalg::Host>>(plan.levels[0]);
  const auto& child = std::get<QuadLevel<linalg::Host>>(*last);
  const auto S = level_matrix(exec, parent);
  const QuadView q0 = view(parent), q1 = view(child);

  std::map<index_t, int> ring;  // level 0's control points: vertex -> column
  stam_ring(q0, 0, 0, n, [&](int j, index_t v) { ring.emplace(v, j); });
  if (int(ring.size()) != K) throw Error("catmull_clark stam: the fan's control points are not distinct");
  // A: the control points of child 0 (at vertex 0, turned as face 0) from face 0's.
  Eigen::MatrixXd A(K, K);
  stam_ring(q1, 0, 0, n, [&](int j, index_t v) {
    const auto row = restricted_row(S, v, ring, n);
    for (int k = 0; k < K; ++k) A(j, k) = row[std::size_t(k)];
  });
  // Its eigenstructure, sorted by decreasing eigenvalue. The eigenvalues are real and many repeat
  // (the regular part's 1/8, 1/16, ...); the QR iteration returns a repeated one as values split
  // by rounding, some as complex pairs, whose eigenvectors need not span its eigenspace. So the
  // values are grouped (real parts within 1e-7) and each group's eigenvectors are the null space
  // of A - lambda I, as many as the group is large (the smallest singular vectors), checked to be
  // null: A is diagonalisable, else it is refused below.
  const Eigen::VectorXcd values = Eigen::EigenSolver<Eigen::MatrixXd>(A, false).eigenvalues();
  std::vector<double> real(static_cast<std::size_t>(K));
  double imaginary = 0;  // the largest imaginary part of an eigenvalue
  for (int i = 0; i < K; ++i) real[std::size_t(i)] = values[i].real(), imaginary = std::max(imaginary, std::abs(values[i].imag()));
  std::sort(real.begin(), real.end(), std::greater<>());
  Eigen::MatrixXd Vr(K, K);
  Eigen::VectorXd lambda(K);
  double null = 0;  // the largest singular value taken as zero
  for (int first = 0; first < K;) {
    int end = first + 1;
    while (end < K && real[std::size_t(end - 1)] - real[std::size_t(end)] <= 1e-7) ++end;
    double value = 0;
    for (int i = first; i < end; ++i) value += real[std::size_t(i)] / (end - first);
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(A - value * Eigen::MatrixXd::Identity(K, K), Eigen::ComputeFullV);
    null = std::max(null, svd.singularValues()[K - (end - first)]);
    Vr.middleCols(first, end - first) = svd.matrixV().rightCols(end - first);
    lambda.segment(first, end - first).setConstant(value);
    first = end;
  }
  // The eigenvector of 1 is constant: scaled to ones, so that the limit point's term is its
  // coefficient alone (stam.hpp's corner case).
  Vr.col(0) /= Vr(0, 0);
  const Eigen::MatrixXd inverse = Vr.inverse();
  const double error = (Vr * lambda.asDiagonal() * inverse - A).cwiseAbs().maxCoeff();
  // stam.hpp's corner takes eigenvalues 1 and 2 as the subdominant pair, 3 below them. (Each test
  // is written to fail on NaN.)
  const bool pair = lambda[1] == lambda[2] && lambda[3] < lambda[2] - 1e-7;
  if (!(imaginary <= 1e-7 && null <= 1e-10 && error <= 1e-12 && std::abs(lambda[0] - 1) <= 1e-12 && pair))
    throw Error("catmull_clark stam: valence " + std::to_string(n) + ": the subdivision matrix is not "
                "diagonalisable in double with 1 and a subdominant pair first (imaginary part " +
                std::to_string(imaginary) + ", singular value " + std::to_string(null) + ", error " +
                std::to_string(error) + ")");

  StamStructure out;
  out.valence = n, out.size = K;
  out.eigenvalues.assign(lambda.data(), lambda.data() + K);
  // G: the 16 control points of each child r = 1, 2, 3 (at face 0's corner r) from face 0's K,
  // row 16 (r - 1) + g; kept as G V (the points in the eigenvectors) and as G A^(m-1) for the
  // tabled levels, transposed: a point's 16 weights together.
  Eigen::MatrixXd G(48, K);
  for (int r = 1; r <= 3; ++r) {
    index_t grid[16];
    patch_grid(q1, r, grid);
    for (int g = 0; g < 16; ++g) {
      const auto row = restricted_row(S, grid[g], ring, n);
      for (int k = 0; k < K; ++k) G(16 * (r - 1) + g, k) = row[std::size_t(k)];
    }
  }
  const Eigen::MatrixXd GV = G * Vr;
  out.children.resize(std::size_t(48 * K));
  for (int row = 0; row < 48; ++row)
    for (int k = 0; k < K; ++k) out.children[std::size_t(row * K + k)] = GV(row, k);
  out.powers.resize(std::size_t(tuning::stam_tabled_levels * 48 * K));
  Eigen::MatrixXd power = G;  // G A^(m-1)
  for (int m = 1; m <= tuning::stam_tabled_levels; ++m, power = power * A)
    for (int r = 0; r < 3; ++r)
      for (int k = 0; k < K; ++k)
        for (int g = 0; g < 16; ++g)
          out.powers[std::size_t((((m - 1) * 3 + r) * K + k) * 16 + g)] = power(16 * r + g, k);
  out.inverse.resize(std::size_t(K * K));
  for (int i = 0; i < K; ++i)
    for (int k = 0; k < K; ++k) out.inverse[std::size_t(i * K + k)] = inverse(i, k);
  return out;
}

}  // namespace

linalg::MeshMatrix<> fan_mesh(int n) {
  const index_t spokes = 1, inner = 1 + 3 * index_t(n);
  auto point = [&](index_t k, index_t i, index_t j) -> index_t {
    if (i == 0 && j == 0) return 0;
    if (j == 0) return spokes + 3 * k + i - 1;
    if (i == 0) return spokes + 3 * ((k + 1) % n) + j - 1;
    return inner + 9 * k + 3 * (i - 1) + j - 1;
  };
  linalg::Array<index_t> offsets(9 * n + 1), indices(36 * n);
  index_t face = 0;
  for (index_t k = 0; k < n; ++k)
    for (index_t i = 0; i < 3; ++i)
      for (index_t j = 0; j < 3; ++j, ++face) {
        offsets[face] = 4 * face;
        const index_t corners[4] = {point(k, i, j), point(k, i + 1, j), point(k, i + 1, j + 1), point(k, i, j + 1)};
        std::copy(corners, corners + 4, indices.data() + 4 * face);
      }
  offsets[face] = 4 * face;
  return linalg::MeshMatrix<>(inner + 9 * index_t(n), std::move(offsets), std::move(indices));
}

const StamStructure& stam_structure(int valence) {
  if (valence < 3 || valence > max_stam_valence)
    throw InputError("catmull_clark stam: valence " + std::to_string(valence) + " is not in [3, " +
                     std::to_string(max_stam_valence) + "]");
  static std::mutex lock;
  static std::map<int, std::unique_ptr<StamStructure>> made;
  const std::lock_guard<std::mutex> hold(lock);
  auto& slot = made[valence];
  if (!slot) slot = std::make_unique<StamStructure>(make_structure(valence));
  return *slot;
}

}  // namespace spmesh::schemes::catmull_clark
