// The Medit reader: sections, tags and comments read; every bad input named with file:line; the
// team's hex meshes read whole into valid boundary operators (their cells checked against
// meshio's reading by the ctest solids_meshio).
#include "solids/medit.hpp"
#include "solids/topology.hpp"

#include "linalg/cpu/executor.hpp"

#include "hex_meshes.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <string>

namespace spmesh::test::medit_tests {

using solids::parse_medit;

std::string refusal(const std::string& text) {
  try {
    parse_medit(text, "m.mesh");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(none)";
}

const std::string two_cells =
    "MeshVersionFormatted 2\n"
    "Dimension 3\n"
    "# a hexahedron and a tetrahedron on three corners of its top face (sharing no face)\n"
    "Vertices\n9\n"
    "0 0 0 1\n1 0 0 1\n1 1 0 1\n0 1 0 1\n0 0 1 1\n1 0 1 1\n1 1 1 1\n0 1 1 1\n0.5 0.25 2 7\n"
    "Edges\n2\n1 2 3\n2 3 3\n"
    "Ridges\n1\n2\n"
    "Corners\n1\n1\n"
    "Quadrilaterals\n1\n1 4 3 2 5\n"
    "hexahedra\n1\n1 2 3 4 5 6 7 8 4\n"
    "Tetrahedra 1 5 6 8 9 5\n"  // a section may share its keyword's line
    "End\n";

TEST_CASE("medit: vertices, cells in file order with their refs, edges, ridges, corners and "
          "comments are read") {
  const auto mesh = parse_medit(two_cells, "m.mesh");
  REQUIRE(mesh.vertex_count() == 9);
  CHECK(mesh.positions(8, 0) == 0.5);
  CHECK(mesh.positions(8, 1) == 0.25);
  CHECK(mesh.positions(8, 2) == 2);
  REQUIRE(mesh.cell_count() == 2);
  CHECK(mesh.cells.vertices == 9);
  CHECK(mesh.cells.offsets[1] == 8);
  CHECK(mesh.cells.offsets[2] == 12);
  CHECK(mesh.cells.indices[0] == 0);
  CHECK(mesh.cells.indices[7] == 7);
  CHECK(mesh.cells.indices[11] == 8);
  CHECK(mesh.cell_refs == std::vector<index_t>{4, 5});
  CHECK(mesh.line_edges.size() == 2);
  REQUIRE(mesh.ridges.size() == 1);
  CHECK(mesh.ridges[0] == std::array<index_t, 2>{1, 2});
  CHECK(mesh.corners == std::vector<index_t>{0});
  linalg::cpu::Executor exec;
  const auto ops = solids::boundary_operators(exec, mesh.cells);
  CHECK(ops.faces() == 6 + 4);
}

TEST_CASE("medit: bad input names file:line and the problem") {
  const std::string head = "MeshVersionFormatted 2\nDimension 3\nVertices\n4\n0 0 0 0\n1 0 0 0\n0 1 0 0\n0 0 1 0\n";
  CHECK(refusal(head + "Tetrahedra\n1\n1 2 3 5 0\nEnd\n") ==
        "m.mesh:11: Tetrahedra 1: vertex 5 out of range (1 to 4; ids count from 1)");
  CHECK(refusal(head + "Tetrahedra\n1\n1 2 3 0 0\n") ==
        "m.mesh:11: Tetrahedra 1: vertex 0 out of range (1 to 4; ids count from 1)");
  CHECK(refusal(head + "Pyramids\n1\n1 2 3 4 4 0\n") ==
        "m.mesh:9: Pyramids: a pyramid does not subdivide into hexahedra (spmesh refines "
        "tetrahedra, prisms and hexahedra)");
  CHECK(refusal(head + "Hexagons\n1\n") == "m.mesh:9: unknown keyword 'Hexagons'");
  CHECK(refusal(head + "Tetrahedra\n2\n1 2 3 4 0\n") ==
        "m.mesh:12: truncated: the file ends before Tetrahedra 2");
  CHECK(refusal("MeshVersionFormatted 2\nDimension 2\n") ==
        "m.mesh:2: Dimension 2: a volume mesh has dimension 3");
  CHECK(refusal(head + "Tetrahedra\n1\n1 2 x 4 0\n") == "m.mesh:11: expected Tetrahedra 1, found 'x'");
  CHECK(refusal(head + "End\nVertices\n") == "m.mesh:10: data after End ('Vertices')");
  CHECK(refusal(head + "Ridges\n1\n1\n") ==
        "m.mesh:11: ridge 1: edge 1 out of range (1 to 0 Edges read so far; ids count from 1)");
  CHECK(refusal("Dimension 3\nHexahedra\n1\n1 2 3 4 5 6 7 8 0\n") ==
        "m.mesh:4: Hexahedra 1 before any Vertices");
  CHECK(refusal(head + "Tetrahedra\n99999999\n") ==
        "m.mesh:10: Tetrahedra: 99999999 items are more than the rest of the file holds");
  CHECK(refusal("") == "m.mesh:1: no Vertices (empty or not a Medit .mesh file)");
}

TEST_CASE("medit: the team's hex meshes read into valid boundary operators") {
  const auto dir = hex_mesh_folder();
  if (!dir) return;
  struct Expected {
    const char* file;
    index_t vertices, cells, edges, faces, components;
  };
  // Edges and faces counted independently (a Python pass over the files' hexahedra); hex_demo
  // is three separate blocks, disc_extrude has two vertices in no cell (gmsh's circle centres).
  for (const Expected& e : {Expected{"hex_demo.mesh", 375, 192, 900, 720, 3},
                            Expected{"disc_extrude.mesh", 372, 244, 966, 841, 1},
                            Expected{"sphere_allhex.mesh", 3445, 2716, 9356, 8628, 1}}) {
    CAPTURE(e.file);
    const auto mesh = solids::read_medit((*dir / e.file).string());
    CHECK(mesh.vertex_count() == e.vertices);
    REQUIRE(mesh.cell_count() == e.cells);
    for (index_t c = 0; c < e.cells; ++c) REQUIRE(mesh.cells.offsets[c + 1] - mesh.cells.offsets[c] == 8);
    linalg::cpu::Executor exec;
    const auto ops = solids::boundary_operators(exec, mesh.cells);
    CHECK(ops.edges() == e.edges);
    CHECK(ops.faces() == e.faces);
    const std::set<index_t> used(mesh.cells.indices.begin(), mesh.cells.indices.end());
    CHECK(index_t(used.size()) - ops.edges() + ops.faces() - ops.cells() == e.components);
  }
}

}  // namespace spmesh::test::medit_tests
