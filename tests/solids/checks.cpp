// Geometry checks of volume meshes: inverted and flat cells named with the corner, non-finite
// positions named, unused vertices listed; the team's meshes pass.
#include "solids/checks.hpp"

#include "solids/medit.hpp"

#include "hex_meshes.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <limits>
#include <vector>

namespace spmesh::test::solid_checks {

using solids::CellMesh;

CellMesh<> one_hex(std::vector<index_t> vertices, index_t count) {
  CellMesh<> mesh;
  mesh.vertices = count;
  mesh.offsets = linalg::Array<index_t>{0, 8};
  mesh.indices = linalg::Array<index_t>(vertices);
  return mesh;
}

linalg::Dense<double> unit_cube(index_t extra = 0) {
  linalg::Dense<double> P(8 + extra, 3);
  const double corners[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  for (index_t v = 0; v < 8; ++v)
    for (int x = 0; x < 3; ++x) P(v, x) = corners[v][x];
  return P;
}

std::string refusal(const linalg::Dense<double>& P, const CellMesh<>& cells) {
  try {
    solids::check_geometry("m.mesh", P, cells);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(none)";
}

TEST_CASE("geometry checks: inverted and flat cells are named with their corner, non-finite "
          "positions with their vertex") {
  const auto P = unit_cube();
  CHECK(refusal(P, one_hex({0, 1, 2, 3, 4, 5, 6, 7}, 8)) == "(none)");
  CHECK(refusal(P, one_hex({4, 5, 6, 7, 0, 1, 2, 3}, 8)) ==
        "m.mesh: cell 0 (a hexahedron) is inverted or degenerate at its corner 0 (vertex 4): the "
        "Jacobian there is -1.000000 (ids count from 0)");
  auto flat = P.clone();
  for (index_t v = 4; v < 8; ++v) flat(v, 2) = 0;
  CHECK(refusal(flat, one_hex({0, 1, 2, 3, 4, 5, 6, 7}, 8)).starts_with(
      "m.mesh: cell 0 (a hexahedron) is inverted or degenerate at its corner 0 (vertex 0): the Jacobian there is 0.000000"));
  // Vertex 6 pulled through the cell to (-0.5, -0.5, 1): the frames that hold it turn, and the
  // first of them in corner order (corner 5: edges to 4, 6 and 1) is named.
  auto dented = P.clone();
  dented(6, 0) = dented(6, 1) = -0.5;
  CHECK(refusal(dented, one_hex({0, 1, 2, 3, 4, 5, 6, 7}, 8)) ==
        "m.mesh: cell 0 (a hexahedron) is inverted or degenerate at its corner 5 (vertex 5): the "
        "Jacobian there is -0.500000 (ids count from 0)");
  auto bad = P.clone();
  bad(3, 1) = std::numeric_limits<double>::infinity();
  CHECK(refusal(bad, one_hex({0, 1, 2, 3, 4, 5, 6, 7}, 8)).find("vertex 3") != std::string::npos);
}

TEST_CASE("a polyhedron's corners are checked as a kind's: an L-shaped prism is refused at its inner corner") {
  // An L-shaped hexagon 0-5 (its inner corner at 3) at z = 0 and 6-11 above, as a polyhedron.
  const double outline[6][2] = {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
  linalg::Dense<double> P(12, 3);
  for (index_t v = 0; v < 12; ++v) P(v, 0) = outline[v % 6][0], P(v, 1) = outline[v % 6][1], P(v, 2) = double(v / 6);
  CellMesh<> cells;
  cells.vertices = 12;
  cells.offsets = linalg::Array<index_t>{0, 12};
  cells.indices = linalg::Array<index_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  std::vector<index_t> stream{6, 0, 5, 4, 3, 2, 1, 6, 6, 7, 8, 9, 10, 11};
  for (index_t k = 0; k < 6; ++k) stream.insert(stream.end(), {4, k, (k + 1) % 6, 6 + (k + 1) % 6, 6 + k});
  cells.face_offsets = linalg::Array<index_t>{0, index_t(stream.size())};
  cells.face_streams = linalg::Array<index_t>(stream);
  CHECK(refusal(P, cells) ==
        "m.mesh: cell 0 (a polyhedron of 8 faces) is inverted or degenerate at its corner 3 (vertex 3): the Jacobian "
        "there is -1.000000 (ids count from 0)");
  P(3, 0) = P(3, 1) = P(9, 0) = P(9, 1) = 1.8;  // convex: fine
  CHECK(refusal(P, cells) == "(none)");
}

TEST_CASE("unused vertices are listed, the team's hex meshes pass the geometry checks") {
  CHECK(solids::unused_vertices(one_hex({0, 1, 2, 3, 4, 5, 6, 7}, 10)) == std::vector<index_t>{8, 9});
  const auto dir = hex_mesh_folder();
  if (!dir) return;
  for (const char* file : team_hex_meshes) {
    CAPTURE(file);
    const auto mesh = solids::read_medit((*dir / file).string());
    CHECK_NOTHROW(solids::check_geometry(file, mesh.positions, mesh.cells));
    CHECK(solids::unused_vertices(mesh.cells).size() == (std::string(file) == "disc_extrude.mesh" ? 2u : 0u));
  }
}

}  // namespace spmesh::test::solid_checks
