// classify_cells (solids/classes.hpp) on meshes whose classes are known by hand: a grid of
// hexahedra (its box edges are extraordinary: 2 faces on the boundary; sharp, they are not), an extruded surface
// (one extraordinary edge a cell), and a tetrahedron and a prism refined once.
#include "linalg/cpu/executor.hpp"
#include "schemes/catmull_clark/scheme.hpp"
#include "schemes/schemes.hpp"
#include "solids/classes.hpp"
#include "solids/refine.hpp"

#include "generated.hpp"

#include <doctest/doctest.h>

namespace spmesh::test::solid_classes {

solids::CellClasses classes_of(const CellMesh<>& mesh) {
  linalg::cpu::Executor cpu;
  return solids::classify_cells(mesh, solids::boundary_operators(cpu, mesh));
}

// One cell of `corners` vertices (0, 1, ...), refined once.
CellMesh<> one_cell_refined(index_t corners) {
  linalg::cpu::Executor cpu;
  CellMesh<> cell{corners, linalg::Array<index_t>(std::vector<index_t>{0, corners}), linalg::Array<index_t>(corners)};
  for (index_t i = 0; i < corners; ++i) cell.indices[i] = i;
  linalg::Dense<double> X(corners, 1);
  return solids::refine(cpu, cell, solids::boundary_operators(cpu, cell), X).cells;
}

TEST_CASE("cell classes: a 3 x 3 x 3 grid has its middle regular inside, its face cells regular on "
          "the boundary, its edge cells layered (valence 2) and its corner cells irregular") {
  const auto c = classes_of(grid_cells(3));
  CHECK(c.extraordinary_edges == 36);  // the box's 12 edges, 3 segments each
  CHECK(c.extraordinary_vertices == 8);
  CHECK(c.regular_interior == 1);
  CHECK(c.regular_boundary == 6);
  CHECK(c.layered == std::map<index_t, index_t>{{2, 12}});
  CHECK(c.irregular == 8);
  CHECK(c.not_evaluable.empty());
}

TEST_CASE("cell classes: with its box edges infinitely sharp, a 3 x 3 x 3 grid is regular everywhere (sharp rims "
          "are no extraordinary edges), its 20 cells at the rims named, and semi-sharp rims stay extraordinary") {
  linalg::cpu::Executor cpu;
  const CellMesh<> grid = grid_cells(3);
  const auto ops = solids::boundary_operators(cpu, grid);
  std::vector<std::array<index_t, 2>> rims;
  auto extreme = [](index_t v, int axis) {
    const index_t x = axis == 0 ? v % 4 : axis == 1 ? v / 4 % 4 : v / 16;
    return x == 0 || x == 3;
  };
  for (index_t e = 0; e < ops.edges(); ++e) {
    const index_t a = linalg::column_of(ops.d1.columns[2 * e]), b = ops.d1.columns[2 * e + 1];
    int shared = 0;  // the axes on which both ends lie on the same face of the box
    for (int axis = 0; axis < 3; ++axis) {
      const index_t step = axis == 0 ? 1 : axis == 1 ? 4 : 16;
      shared += extreme(a, axis) && a / step % 4 == b / step % 4;
    }
    if (shared == 2) rims.push_back({a, b});
  }
  REQUIRE(rims.size() == 36);
  const auto sharp = solids::tagged_sharpness(ops, rims, {}, "grid");
  const auto c = solids::classify_cells(grid, ops, &sharp);
  CHECK(c.extraordinary_edges == 0);
  CHECK(c.sharp_rims == 36);
  CHECK(c.extraordinary_vertices == 0);
  CHECK(c.regular_interior == 1);
  CHECK(c.regular_boundary == 26);
  CHECK(c.regular_at_rims == 20);
  CHECK(c.layered.empty());
  CHECK(c.irregular == 0);
  const auto semi = solids::tagged_sharpness(ops, rims, {}, "grid", std::vector<float>(rims.size(), 2.0f));
  const auto s = solids::classify_cells(grid, ops, &semi);
  CHECK(s.extraordinary_edges == 36);
  CHECK(s.sharp_rims == 0);
  CHECK(s.regular_boundary == 6);
}

TEST_CASE("cell classes: an extruded surface's cells are layered by the valence of the surface "
          "vertex under them") {
  std::mt19937 random(1);
  const Surface base = bipyramid(5, random);
  linalg::cpu::Executor cpu;
  // Refined once: each quad has one corner of valence 3 or 5 (the old vertices) and three of 4.
  const auto once = schemes::build_and_eval<schemes::CatmullClark>(cpu, base.M.clone(),
                                                                   schemes::smooth_sharpness(base.M.vertices), 1,
                                                                   base.positions);
  const auto c = classes_of(extrude(once.mesh.mesh(), 3));
  // 12 old vertices (2 poles, 10 of valence 3), a vertical extraordinary edge at each per layer.
  CHECK(c.extraordinary_edges == 12 * 3);
  CHECK(c.extraordinary_vertices == 0);
  CHECK(c.layered == std::map<index_t, index_t>{{3, 10 * 3 * 3}, {5, 2 * 5 * 3}});
  CHECK(c.regular_interior + c.regular_boundary + c.irregular == 0);
  CHECK(c.not_evaluable.empty());
}

TEST_CASE("cell classes: cells that are not hexahedra, with two extraordinary vertices, or with "
          "extraordinary edges through no common one are named as not evaluable") {
  const auto tet = classes_of(one_cell_refined(4));
  // Refined: the old corners (3 boundary edges of 2 faces each in their hexahedron) and the cell
  // point (4 inner edges of 3 faces) are extraordinary vertices, two in every hexahedron.
  CHECK(tet.extraordinary_edges == 12 + 4);
  CHECK(tet.extraordinary_vertices == 5);
  REQUIRE(tet.not_evaluable.size() == 4);
  for (const auto& cell : tet.not_evaluable) CHECK(cell.reason == "two extraordinary vertices");
  // A prism refined: the cell point is on one line of two extraordinary edges (to the triangles'
  // points, 3 faces each), so each hexahedron holds that edge and its old corner's three.
  const auto prism = classes_of(one_cell_refined(6));
  CHECK(prism.extraordinary_edges == 18 + 2);
  CHECK(prism.extraordinary_vertices == 6);
  REQUIRE(prism.not_evaluable.size() == 6);
  CHECK(prism.not_evaluable[3].cell == 3);
  for (const auto& cell : prism.not_evaluable)
    CHECK(cell.reason == "extraordinary edges through no common extraordinary vertex");
  CellMesh<> raw{4, linalg::Array<index_t>(std::vector<index_t>{0, 4}), linalg::Array<index_t>(std::vector<index_t>{0, 1, 2, 3})};
  const auto unrefined = classes_of(raw);
  REQUIRE(unrefined.not_evaluable.size() == 1);
  CHECK(unrefined.not_evaluable[0].reason == "not a hexahedron");
}

}  // namespace spmesh::test::solid_classes
