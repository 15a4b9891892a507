// Samples carried down spmesh's refinement (solids/refined_samples.hpp). In a uniform grid, which
// refines into the uniform grid of half the spacing, a carried sample is where it was (the
// refined cell's corners, placed by the refinement, span it at its new parameters) and its axes
// are the input cell's, halved and turned as the mapping says; in a perturbed grid whose cells are
// given in turned corner orders, the limit at the carried samples 1 and 2 levels down, their
// derivatives turned back, is the limit at the samples on the input (positions and derivatives,
// 1e-12): the refinement, the mapping and the evaluation are one function. Samples in other cells
// than hexahedra are refused, by index, once there is a level to go down.
#include "linalg/cpu/executor.hpp"
#include "solids/limit_at.hpp"
#include "solids/plan.hpp"
#include "solids/refined_samples.hpp"

#include "generated.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

namespace spmesh::test::refined_samples {

using solids::CellMesh;

constexpr int n = 5;  // grid_cells(n)

// The grid with every other cell's corners turned (corner (a, b, c) takes the vertex at (c, a, b):
// the axes cycled, the order still right-handed), so that the input cells' axes differ.
CellMesh<> turned_grid() {
  CellMesh<> mesh = grid_cells(n);
  for (index_t c = 1; c < mesh.cells(); c += 2) {
    std::array<index_t, 8> old;
    for (int i = 0; i < 8; ++i) old[std::size_t(i)] = mesh.indices[8 * c + i];
    for (int i = 0; i < 8; ++i) {
      const int a = solids::detail::hexahedron_coordinate(i, 0), b = solids::detail::hexahedron_coordinate(i, 1),
                z = solids::detail::hexahedron_coordinate(i, 2);
      mesh.indices[8 * c + i] = old[std::size_t(solids::detail::hexahedron_corner(z, a, b))];
    }
  }
  return mesh;
}

// Samples in each cell: its corners, centre, points on its halving planes and random points.
void samples_of(const std::vector<index_t>& cells, std::vector<index_t>& at_cells, std::vector<double>& u,
                std::vector<double>& v, std::vector<double>& w) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(0, 1);
  for (const index_t c : cells) {
    std::vector<std::array<double, 3>> mine = {{0, 0, 0}, {1, 1, 1}, {1, 0, 0.25}, {0.5, 0.5, 0.5}, {0.5, 0.2, 0.9}};
    for (int r = 0; r < 5; ++r) mine.push_back({unit(random), unit(random), unit(random)});
    for (const auto& [a, b, z] : mine) at_cells.push_back(c), u.push_back(a), v.push_back(b), w.push_back(z);
  }
}

// The cells with a net: inside the grid, with one face on the grid's face, or at the grid's
// edges (rim nets) or at its corners (irregular nets); `tricubic`: the first two only.
std::vector<index_t> cells_with_nets(const CellMesh<>& mesh, bool tricubic = false) {
  linalg::cpu::Executor exec;
  const auto kinds = solids::cell_nets(exec, mesh, solids::boundary_operators(exec, mesh)).kinds;
  std::vector<index_t> out;
  for (index_t c = 0; c < mesh.cells(); ++c)
    if (tricubic ? solids::is_tricubic_net(kinds[c]) : kinds[c] != solids::no_net) out.push_back(c);
  return out;
}

// The trilinear map of cell c's corners (positions X) at (u, v, w), and its derivative along axis d.
std::array<double, 3> trilinear(const CellMesh<>& mesh, const linalg::Dense<double>& X, index_t c, const double at[3],
                                int d = -1) {
  std::array<double, 3> out{0, 0, 0};
  for (int k = 0; k < 8; ++k) {
    double weight = 1;
    for (int a = 0; a < 3; ++a) {
      const bool one = solids::detail::hexahedron_coordinate(k, a) == 1;
      weight *= a == d ? (one ? 1 : -1) : (one ? at[a] : 1 - at[a]);
    }
    for (int x = 0; x < 3; ++x) out[std::size_t(x)] += weight * X(mesh.indices[8 * c + k], x);
  }
  return out;
}

// Away from the grid's edges and corners, where the boundary surface's rules round it off: in the
// cells with tricubic nets (their corners a step or more from the edges), to 3 levels.
TEST_CASE("a carried sample is where it was, in the refined cell that holds it, with the input cell's axes halved "
          "and turned (a uniform grid refines into the uniform grid of half the spacing)") {
  const CellMesh<> mesh = turned_grid();
  linalg::Dense<double> X = perturbed_grid(n, 1);
  for (index_t p = 0; p < X.rows; ++p)  // the unperturbed grid: P at its grid coordinates
    for (int x = 0; x < 3; ++x) X(p, x) = std::round(X(p, x));
  std::vector<index_t> cells;
  std::vector<double> u, v, w;
  samples_of(cells_with_nets(mesh, true), cells, u, v, w);
  linalg::cpu::Executor exec;
  for (int levels : {1, 2, 3}) {
    CAPTURE(levels);
    const auto refined = solids::build_and_eval(exec, mesh.clone(), X.clone(), levels);
    const auto carried = solids::refined_samples(mesh, cells, u, v, w, levels);
    double worst = 0;
    for (std::size_t s = 0; s < cells.size(); ++s) {
      const double at[3] = {u[s], v[s], w[s]};
      const auto& r = carried[s];
      for (int a = 0; a < 3; ++a) CHECK((r.at[a] >= 0 && r.at[a] <= 1));
      const auto here = trilinear(mesh, X, cells[s], at);
      const auto there = trilinear(refined.cells, refined.positions, r.cell, r.at);
      for (int x = 0; x < 3; ++x) worst = std::max(worst, std::abs(here[std::size_t(x)] - there[std::size_t(x)]));
      for (int a = 0; a < 3; ++a) {
        CHECK(std::abs(r.axes.scale[a]) == std::ldexp(1.0, levels));
        const auto input_axis = trilinear(mesh, X, cells[s], at, a);
        const auto refined_axis = trilinear(refined.cells, refined.positions, r.cell, r.at, r.axes.axis[a]);
        for (int x = 0; x < 3; ++x)
          worst = std::max(worst, std::abs(input_axis[std::size_t(x)] -
                                           r.axes.scale[a] * refined_axis[std::size_t(x)]));
      }
    }
    CHECK(worst <= 1e-12);
  }
}

TEST_CASE("the limit at samples carried 1 and 2 levels down, derivatives turned back, is the limit at the samples "
          "on the input (perturbed grid, turned cells: positions and derivatives)") {
  const CellMesh<> mesh = turned_grid();
  const linalg::Dense<double> P = perturbed_grid(n, 11);
  linalg::cpu::Executor exec;
  auto limits = [&](const CellMesh<>& cells, const linalg::Dense<double>& X, const std::vector<index_t>& at,
                    const std::vector<double>& u, const std::vector<double>& v, const std::vector<double>& w) {
    const auto nets = solids::cell_nets(exec, cells, solids::boundary_operators(exec, cells));
    return solids::limit_at_cells(exec, nets, linalg::Array<index_t>(at), linalg::Array<double>(u),
                                  linalg::Array<double>(v), linalg::Array<double>(w), X);
  };
  const std::vector<index_t> with_nets = cells_with_nets(mesh);
  const auto kinds = solids::cell_nets(exec, mesh, solids::boundary_operators(exec, mesh)).kinds;
  // At an irregular cell's extraordinary corner (the grid's corners here) the derivatives have no
  // limit (at a box's corner they grow with the levels toward it): positions only there.
  auto at_extraordinary_corner = [](std::uint8_t kind, double a, double b, double c) {
    if (!solids::is_irregular_net(kind)) return false;
    const int l = kind - solids::irregular_net(0);
    const double at[3] = {a, b, c};
    for (int d = 0; d < 3; ++d)
      if (at[d] != solids::detail::hexahedron_coordinate(l, d)) return false;
    return true;
  };
  std::vector<index_t> cells;
  REQUIRE(with_nets.size() == std::size_t(n * n * n));  // every cell: rim and irregular nets at the edges, corners
  std::vector<double> u, v, w;
  samples_of(with_nets, cells, u, v, w);
  const auto base = limits(mesh, P, cells, u, v, w);
  for (int levels : {1, 2}) {
    CAPTURE(levels);
    const auto refined = solids::build_and_eval(exec, mesh.clone(), P.clone(), levels);
    const auto carried = solids::refined_samples(mesh, cells, u, v, w, levels);
    std::vector<index_t> there;
    std::vector<double> ru, rv, rw;
    for (const auto& r : carried)
      there.push_back(r.cell), ru.push_back(r.at[0]), rv.push_back(r.at[1]), rw.push_back(r.at[2]);
    auto deep = limits(refined.cells, refined.positions, there, ru, rv, rw);
    solids::to_input_axes(carried, deep);
    double worst = 0;
    for (index_t s = 0; s < index_t(cells.size()); ++s)
      for (int x = 0; x < 3; ++x) {
        worst = std::max(worst, std::abs(deep.position(s, x) - base.position(s, x)));
        if (at_extraordinary_corner(kinds[cells[std::size_t(s)]], u[std::size_t(s)], v[std::size_t(s)], w[std::size_t(s)]))
          continue;
        worst = std::max(worst, std::abs(deep.du(s, x) - base.du(s, x)));
        worst = std::max(worst, std::abs(deep.dv(s, x) - base.dv(s, x)));
        worst = std::max(worst, std::abs(deep.dw(s, x) - base.dw(s, x)));
      }
    CHECK(worst <= 1e-12);
  }
}

TEST_CASE("samples in a cell that is no hexahedron are refused by index once there is a level to go down, and "
          "stay as they are with none") {
  CellMesh<> prism;
  prism.vertices = 6;
  prism.offsets = linalg::Array<index_t>{0, 6};
  prism.indices = linalg::Array<index_t>{0, 1, 2, 3, 4, 5};
  const std::vector<index_t> cells = {0, 0};
  const std::vector<double> u = {0.1, 0.2}, v = {0.3, 0.4}, w = {0.5, 0.6};
  const auto same = solids::refined_samples(prism, cells, u, v, w, 0);
  CHECK(same[1].cell == 0);
  CHECK(same[1].at[2] == 0.6);
  CHECK(same[1].axes.axis[1] == 1);
  CHECK(same[1].axes.scale[1] == 1);
  CHECK_THROWS_WITH_AS(solids::refined_samples(prism, cells, u, v, w, 1),
                       "refined_samples: sample 0 is in cell 0, a prism: (u, v, w) names a point of a hexahedron only "
                       "(ids count from 0)",
                       schemes::SampleError);
}

}  // namespace spmesh::test::refined_samples
