// The tables of boundary fans (boundary_fan.hpp) and of the smooth corner (smooth_corner.hpp, the
// fan of one quad), read off spmesh's own Catmull-Clark refinement (Boundary::edge_only) of an
// open fan (fan_mesh), with Eigen in double (eigenstructure.hpp's tabled_powers).
#include "schemes/catmull_clark/boundary_fan.hpp"

#include "schemes/catmull_clark/scheme.hpp"
#include "schemes/eigenstructure.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace spmesh::schemes::catmull_clark {

namespace {

// The vertex at grid place (i, j) of the quads at the start of half-edge h (i along h, j across
// its previous edge): the quad beside one is across its second edge, the quad above across its
// third.
index_t grid_vertex(const QuadView& q, index_t h, int i, int j) {
  for (int step = 0; step < i; ++step) h = next_half(q.twin[next_half(h)]);
  for (int step = 0; step < j; ++step) h = q.twin[next_half(next_half(h))];
  return q.corners[h];
}

// The tables of a fan of `faces` quads, its vertex pinned (a corner tag) or not (boundary_fan.hpp's
// layout), for `depths` depths and `powers` powers, its points in the order ring_index(sector, i,
// t).
template <class RingIndex>
std::vector<double> fan_tables(int faces, bool pinned, int depths, int powers, RingIndex&& ring_index,
                               const std::string& what) {
  linalg::cpu::Executor exec;
  using Host = linalg::Host;
  linalg::MeshMatrix<> mesh = fan_mesh(faces, false);
  const index_t V = mesh.vertices;
  using Scheme = schemes::CatmullClark;
  schemes::Plan<Scheme, Host> plan;
  std::optional<Scheme::Level<Host>> last;
  std::optional<SharpTable<Host>> table;
  schemes::detail::KeepLevelsAndLast<linalg::cpu::Executor, schemes::Plan<Scheme, Host>, Scheme::Level<Host>> sink{
      {plan}, exec, last, table};
  Sharpness<> sharpness{linalg::Coo<float>{V, V, {}, {}, {}}, linalg::Array<float>(V, 0.0f)};
  if (pinned) sharpness.vertices[0] = creasing::infinite;
  Options options;
  options.boundary = Boundary::edge_only;
  schemes::detail::build_half_edges<Scheme>(exec, std::move(mesh), sharpness, 1, options, sink);
  const auto& parent = std::get<QuadLevel<Host>>(plan.levels[0]);
  const auto& child = std::get<QuadLevel<Host>>(*last);
  const auto S = level_matrix(exec, parent);
  const QuadView parent_view = view(parent), child_view = view(child);
  const int K = fan_ring_size(faces);

  // Sector j's half-edge at the vertex along spoke j, on a level: face 0's corner 0 is the vertex
  // with spoke 0 next (and so is its child 0's, turned as its parent).
  auto sector_half = [&](const QuadView& q, int sector) {
    index_t h = 0;
    for (int j = 0; j < sector; ++j) h = q.twin[prev_half(h)];
    return h;
  };
  std::map<index_t, int> columns;  // the parent's fan: vertex -> column
  for (int j = 0; j < faces; ++j)
    quadrant_points(parent_view, sector_half(parent_view, j),
                    [&](int i, int t, index_t vertex) { columns.emplace(vertex, ring_index(j, i, t)); });
  if (int(columns.size()) != K) throw Error(what + ": the fan's points are not distinct");
  auto child_row = [&](int sector, int i, int t) {
    const auto row = restricted_row(S, grid_vertex(child_view, sector_half(child_view, sector), i, t), columns, what);
    return Eigen::Map<const Eigen::RowVectorXd>(row.data(), K).eval();
  };
  Eigen::MatrixXd A(K, K);
  for (int j = 0; j < faces; ++j)
    for (int t = 0; t < 3; ++t)
      for (int i = 0; i < 3; ++i) A.row(ring_index(j, i, t)) = child_row(j, i, t);
  // Sector j's child r net entry (x, y): child grid place (i, t) = (x + origin_s - 1, y +
  // origin_t - 1); a place at i = -1 is sector j + 1's (t, 1), at t = -1 sector j - 1's (1, i),
  // and beyond the boundary (no such sector) the reflection 2 P_0 - P_1 across it.
  auto reflected = [&](int sector, int i0, int t0, int i1, int t1) {  // 2 P_0 - P_1
    return (2 * child_row(sector, i0, t0) - child_row(sector, i1, t1)).eval();
  };
  std::vector<Eigen::MatrixXd> nets;
  for (int j = 0; j < faces; ++j)
    for (int r = 1; r <= 3; ++r) {
      const int origin_s = r == 3 ? 0 : 1, origin_t = r == 1 ? 0 : 1;
      Eigen::MatrixXd G(16, K);
      for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) {
          const int i = x + origin_s - 1, t = y + origin_t - 1;
          G.row(x + 4 * y) = i < 0   ? (j + 1 < faces ? child_row(j + 1, t, 1) : reflected(j, 0, t, 1, t))
                             : t < 0 ? (j > 0 ? child_row(j - 1, 1, i) : reflected(j, i, 0, i, 1))
                                     : child_row(j, i, t);
        }
      nets.push_back(std::move(G));
    }
  return tabled_powers(A, nets, depths, powers, what);
}

}  // namespace

const std::vector<double>& boundary_fan_tables(int faces, bool pinned) {
  if (faces < 1 || faces > max_fan_faces)
    throw InputError("catmull_clark boundary fan: " + std::to_string(faces) + " quads is not in [1, " +
                     std::to_string(max_fan_faces) + "]");
  static std::mutex lock;
  static std::map<int, std::unique_ptr<const std::vector<double>>> made;
  const std::lock_guard<std::mutex> hold(lock);
  auto& slot = made[fan_table(faces, pinned)];
  if (!slot)
    slot = std::make_unique<const std::vector<double>>(fan_tables(
        faces, pinned, tuning::boundary_fan_tabled_levels, tuning::boundary_fan_powers, fan_place,
        "catmull_clark boundary fan of " + std::to_string(faces) + (pinned ? " quads, pinned" : " quads")));
  return *slot;
}

const std::vector<double>& smooth_corner_tables() {
  static const std::vector<double> tables =  // (C++ makes a local static once, thread-safe)
      fan_tables(1, false, smooth_corner_depth + 1, 0, [](int, int i, int t) { return i + 3 * t; },
                 "catmull_clark smooth corner");
  return tables;
}

}  // namespace spmesh::schemes::catmull_clark
