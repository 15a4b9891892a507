// Stam's evaluation (catmull_clark/stam.hpp, loop/stam.hpp) keeps a subdivision matrix A of the
// K control points around an extraordinary vertex as A = V B V^-1 (B its eigenvalues, with Jordan
// chains where A has them), decomposed once per valence in double. What the schemes share of
// making it: reading A's and the children's rows off spmesh's own refinement of a fan, the
// decomposition, and keeping each valence's. Host only (Eigen).
#pragma once

#include "linalg/cpu/executor.hpp"
#include "linalg/formats.hpp"
#include "schemes/limit.hpp"
#include "schemes/stam_tables.hpp"

#include <Eigen/Dense>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace spmesh::schemes {

// Row `row` of a level matrix S restricted to the columns `columns` (position in it per
// vertex): Error naming `what` if it reads a vertex outside them.
std::vector<double> restricted_row(const linalg::Csr<double>& S, index_t row, const std::map<index_t, int>& columns,
                                   const std::string& what);

// A = V B V^-1 with B upper bidiagonal: A's eigenvalues on its diagonal in decreasing order,
// superdiagonal[e] = B(e - 1, e) = 1 where column e of V continues a Jordan chain (of two) from
// column e - 1, else 0 (superdiagonal[0] = 0); V's columns the eigenvectors and chain vectors,
// the eigenvector of 1 scaled to ones. Error naming `what` unless that holds in double to 1e-12
// with 1 first and a subdominant pair of eigenvectors next (Stam's corner case reads that pair).
struct Eigenstructure {
  Eigen::VectorXd values, superdiagonal;
  Eigen::MatrixXd vectors, inverse;
};
Eigenstructure decompose(const Eigen::MatrixXd& A, const std::string& what);

// Valence n's StamStructure from A (K x K) and G (the three children's P rows each, child r's
// from row P (r - 1)): A decomposed, G V, V^-1 and the tabled G_r A^(m-1), each child's matrix
// transposed (a control point's P weights together).
StamStructure stam_structure(const Eigen::MatrixXd& A, const Eigen::MatrixXd& G, int valence, const std::string& what);

// Where A is not diagonalisable (a boundary vertex's rules, whose Jordan chains are longer than
// Stam's: catmull_clark/smooth_corner.hpp, boundary_fan.hpp), its powers are tabled instead. With
// l^T the limit of A^k's rows (A's left eigenvector of 1, every other eigenvalue below 0.9 in
// size) and E = A - 1 l^T, so that E^k = A^k - 1 l^T for k >= 1 and E^0 reads I - 1 l^T: l^T (K
// values); then per depth k = 0 .. depths - 1 and per net G (P x K, in the order given) the rows
// of G E^k, point-major (point q's P entries together: K x P); then E^(depths 2^b) for b = 0 ..
// powers - 1 (K x K, row-major), with which a deeper depth d is G E^(d mod depths) times the
// powers of the bits of floor(d / depths) (l^T E = 0 keeps the first factor's I - 1 l^T out);
// then, where powers > 0, 1 / (2 lambda), lambda E's largest eigenvalue in size (how fast the
// derivatives' weights, 2^k times G E^k's, grow or shrink a level). The rows of G E^k shrink
// with k, so a derivative's keep their precision. Error naming `what` if A's powers do not
// converge to 1 l^T.
std::vector<double> tabled_powers(const Eigen::MatrixXd& A, const std::vector<Eigen::MatrixXd>& nets, int depths,
                                  int powers, const std::string& what);

// Valence n's StamStructure read off Scheme's refinement of `fan` (a smooth mesh around vertex
// 0 whose face 0 has it at corner 0, with rings enough that the rules its points take are whole):
// ring(view, visit) visits (j, vertex) for the K control points of face 0 of a level in its
// order, patch(view, r, visit) visits (p, vertex) for the P control points of face 0's child r
// (1 to 3: the regular children) on the child level. A is the child at the vertex's K points
// from face 0's, G the children's from face 0's; Error if a child point needs another vertex.
template <class Scheme, class Level, class Ring, class Patch>
StamStructure fan_structure(linalg::MeshMatrix<> fan, int n, int K, int P, Ring&& ring, Patch&& patch,
                            const std::string& what) {
  linalg::cpu::Executor exec;
  using Host = linalg::Host;
  const index_t V = fan.vertices;
  Plan<Scheme, Host> plan;
  std::optional<typename Scheme::template Level<Host>> last;
  std::optional<SharpTable<Host>> table;
  detail::KeepLevelsAndLast<linalg::cpu::Executor, Plan<Scheme, Host>, typename Scheme::template Level<Host>> sink{
      {plan}, exec, last, table};
  const Sharpness<> smooth{linalg::Coo<float>{V, V, {}, {}, {}}, linalg::Array<float>(V, 0.0f)};
  detail::build_half_edges<Scheme>(exec, std::move(fan), smooth, 1, Options{}, sink);
  const auto& parent = std::get<Level>(plan.levels[0]);
  const auto& child = std::get<Level>(*last);
  const auto S = level_matrix(exec, parent);
  const auto parent_view = view(parent), child_view = view(child);
  std::map<index_t, int> columns;  // the parent's control points: vertex -> column
  ring(parent_view, [&](int j, index_t v) { columns.emplace(v, j); });
  if (int(columns.size()) != K) throw Error(what + ": the fan's control points are not distinct");
  Eigen::MatrixXd A(K, K), G(3 * P, K);
  ring(child_view, [&](int j, index_t v) {
    const auto row = restricted_row(S, v, columns, what);
    for (int k = 0; k < K; ++k) A(j, k) = row[std::size_t(k)];
  });
  for (int r = 1; r <= 3; ++r)
    patch(child_view, r, [&](int p, index_t v) {
      const auto row = restricted_row(S, v, columns, what);
      for (int k = 0; k < K; ++k) G(P * (r - 1) + p, k) = row[std::size_t(k)];
    });
  return stam_structure(A, G, n, what);
}

// Each valence's structure made once a process and kept (thread-safe): a scheme's cache.
class StamCache {
public:
  // Valence n's, made by make(n) on first use; InputError for n outside [3, max_valence].
  template <class Make>
  const StamStructure& get(int n, int max_valence, Make&& make, const std::string& scheme) {
    if (n < 3 || n > max_valence)
      throw InputError(scheme + " stam: valence " + std::to_string(n) + " is not in [3, " +
                       std::to_string(max_valence) + "]");
    const std::lock_guard<std::mutex> hold(lock_);
    auto& slot = made_[n];
    if (!slot) slot = std::make_unique<StamStructure>(make(n));
    return *slot;
  }

private:
  std::mutex lock_;
  std::map<int, std::unique_ptr<StamStructure>> made_;
};

}  // namespace spmesh::schemes
