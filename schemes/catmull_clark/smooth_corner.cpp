// The smooth corner's tables (smooth_corner.hpp), read off spmesh's own Catmull-Clark refinement
// (Boundary::edge_only) of a quadrant of quads, with Eigen in double.
#include "schemes/catmull_clark/smooth_corner.hpp"

#include "schemes/catmull_clark/scheme.hpp"
#include "schemes/eigenstructure.hpp"

#include <array>
#include <map>
#include <optional>

namespace spmesh::schemes::catmull_clark {

namespace {

constexpr index_t quadrant = 4;  // quads a side: the rules of the ring's children read 3

// The quadrant's mesh: vertex (i, j) = i + (quadrant + 1) j, quad (i, j) with corners (i, j),
// (i + 1, j), (i + 1, j + 1), (i, j + 1); quad 0 has the corner, vertex 0, at its corner 0.
linalg::MeshMatrix<> quadrant_mesh() {
  const index_t side = quadrant + 1;
  linalg::Array<index_t> offsets(quadrant * quadrant + 1), indices(4 * quadrant * quadrant);
  for (index_t f = 0; f <= quadrant * quadrant; ++f) offsets[f] = 4 * f;
  for (index_t j = 0; j < quadrant; ++j)
    for (index_t i = 0; i < quadrant; ++i) {
      const index_t f = i + quadrant * j, v = i + side * j;
      const index_t corners[4] = {v, v + 1, v + 1 + side, v + side};
      for (int a = 0; a < 4; ++a) indices[4 * f + a] = corners[a];
    }
  return linalg::MeshMatrix<>(side * side, std::move(offsets), std::move(indices));
}

// The vertex at grid place (i, j) of a level's quadrant, from the half-edge leaving the corner
// (along s): the quad beside one is across its second edge, the quad above across its third.
index_t grid_vertex(const QuadView& q, index_t corner_half, int i, int j) {
  index_t h = corner_half;
  for (int step = 0; step < i; ++step) h = next_half(q.twin[next_half(h)]);
  for (int step = 0; step < j; ++step) h = q.twin[next_half(next_half(h))];
  return q.corners[h];
}

std::vector<double> make_tables() {
  const std::string what = "catmull_clark smooth corner";
  linalg::cpu::Executor exec;
  using Host = linalg::Host;
  linalg::MeshMatrix<> mesh = quadrant_mesh();
  const index_t V = mesh.vertices;
  using Scheme = schemes::CatmullClark;
  schemes::Plan<Scheme, Host> plan;
  std::optional<Scheme::Level<Host>> last;
  std::optional<SharpTable<Host>> table;
  schemes::detail::KeepLevelsAndLast<linalg::cpu::Executor, schemes::Plan<Scheme, Host>, Scheme::Level<Host>> sink{
      {plan}, exec, last, table};
  const Sharpness<> smooth{linalg::Coo<float>{V, V, {}, {}, {}}, linalg::Array<float>(V, 0.0f)};
  Options options;
  options.boundary = Boundary::edge_only;
  schemes::detail::build_half_edges<Scheme>(exec, std::move(mesh), smooth, 1, options, sink);
  const auto& parent = std::get<QuadLevel<Host>>(plan.levels[0]);
  const auto& child = std::get<QuadLevel<Host>>(*last);
  const auto S = level_matrix(exec, parent);
  const QuadView child_view = view(child);

  // The parent's ring: vertex (i, j) of the quadrant at column i + 3 j.
  std::map<index_t, int> columns;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) columns.emplace(index_t(i + (quadrant + 1) * j), i + 3 * j);
  // The child level's half-edge leaving the corner (vertex 0's vertex point keeps its number).
  index_t corner_half = -1;
  for (index_t h = 0; h < 4 * child.faces; ++h)
    if (child_view.corners[h] == 0) corner_half = h;
  if (corner_half < 0) throw Error(what + ": the refined quadrant has no corner");
  auto child_row = [&](int i, int j) {
    const auto row = restricted_row(S, grid_vertex(child_view, corner_half, i, j), columns, what);
    return Eigen::Map<const Eigen::RowVectorXd>(row.data(), smooth_corner_ring).eval();
  };
  Eigen::MatrixXd A(smooth_corner_ring, smooth_corner_ring);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) A.row(i + 3 * j) = child_row(i, j);
  // Child r's net entry (x, y): child grid place (x + origin_s - 1, y + origin_t - 1); a place
  // beyond the boundary (-1) the reflection 2 P_0 - P_1 across it.
  std::array<Eigen::MatrixXd, 3> G;
  for (int r = 1; r <= 3; ++r) {
    const int origin_s = r == 3 ? 0 : 1, origin_t = r == 1 ? 0 : 1;
    G[std::size_t(r - 1)] = Eigen::MatrixXd(16, smooth_corner_ring);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        const int i = x + origin_s - 1, j = y + origin_t - 1;
        G[std::size_t(r - 1)].row(x + 4 * y) = i < 0   ? (2 * child_row(0, j) - child_row(1, j)).eval()
                                                : j < 0 ? (2 * child_row(i, 0) - child_row(i, 1)).eval()
                                                        : child_row(i, j);
      }
  }
  // l^T: the limit of A^k's rows (every eigenvalue but 1 is at most 1/2: 2^-256 after 8 squarings).
  Eigen::MatrixXd power = A;
  for (int squaring = 0; squaring < 8; ++squaring) power = (power * power).eval();
  const Eigen::RowVectorXd limit = power.row(0);
  // E = A - 1 l^T: E^k = A^k - 1 l^T for k >= 1 (A 1 = 1, l^T A = l^T, l^T 1 = 1), so G_r E^k = D_k.
  const Eigen::MatrixXd E = A - Eigen::VectorXd::Ones(smooth_corner_ring) * limit;
  std::vector<double> values(static_cast<std::size_t>(smooth_corner_values));
  for (int q = 0; q < smooth_corner_ring; ++q) values[std::size_t(q)] = limit[q];
  // E^k (I - 1 l^T): I - 1 l^T at k = 0, E^k after (E 1 = 0).
  Eigen::MatrixXd Ek = Eigen::MatrixXd::Identity(smooth_corner_ring, smooth_corner_ring) -
                       Eigen::VectorXd::Ones(smooth_corner_ring) * limit;
  for (int k = 0; k <= smooth_corner_depth; ++k, Ek = (E * Ek).eval())
    for (int r = 1; r <= 3; ++r) {
      const Eigen::MatrixXd D = G[std::size_t(r - 1)] * Ek;
      double* rows = values.data() + smooth_corner_ring + std::int64_t(3 * k + r - 1) * smooth_corner_ring * 16;
      for (int q = 0; q < smooth_corner_ring; ++q)
        for (int p = 0; p < 16; ++p) rows[16 * q + p] = D(p, q);
    }
  return values;
}

}  // namespace

const std::vector<double>& smooth_corner_tables() {
  static const std::vector<double> tables = make_tables();  // (C++ makes a local static once, thread-safe)
  return tables;
}

}  // namespace spmesh::schemes::catmull_clark
