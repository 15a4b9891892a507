// OpenSubdiv tags -> level-0 sharpness and options, and every bad tag rejected with file:line.
#include "meshops/obj.hpp"
#include "meshops/triangulate.hpp"
#include "schemes/tags.hpp"

#include <doctest/doctest.h>

#include <string>

namespace spmesh::test::tag_tests {

// Two quads sharing the edge 1-4: vertices 0..5 (0-based in tags).
const std::string quads = "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 1 0\nv 1 1 0\nv 2 1 0\n"
                          "f 1 2 5 4\nf 2 3 6 5\n";

schemes::TagSettings tags(const std::string& lines) {
  return schemes::read_tags(meshops::parse_obj(quads + lines, "two.obj"));
}

TEST_CASE("tags give sharpness per edge and vertex, the boundary mode and the crease method") {
  const auto t = tags("t crease 2/1/0 1 4 2.5\nt crease 3/1/0 0 1 2 10\nt corner 1/1/0 5 3\n"
                      "t crease 2/1/0 4 1 0.5\nt interpolateboundary 1/0/0 1\n"
                      "t creasemethod 0/0/1 chaikin\nt facevaryinginterpolateboundary 1/0/0 1\n");
  const auto& C = t.sharpness.edges;
  REQUIRE(C.nnz() == 3);  // 0-1, 1-2, 1-4 (the later 4-1 tag replaced 2.5 by 0.5)
  CHECK(C.row_indices[0] == 0);
  CHECK(C.col_indices[0] == 1);
  CHECK(C.values[0] == 10.0f);
  CHECK(C.row_indices[2] == 1);
  CHECK(C.col_indices[2] == 4);
  CHECK(C.values[2] == 0.5f);
  CHECK(t.sharpness.vertices[5] == 3.0f);
  CHECK(t.sharpness.vertices[0] == 0.0f);
  CHECK(t.boundary == schemes::Boundary::edge_and_corner);
  CHECK(t.crease == schemes::CreaseMethod::chaikin);
  CHECK(t.ignored.size() == 1);
  const auto o = schemes::options_from(t, schemes::Boundary::edge_only);
  CHECK(o.boundary == schemes::Boundary::edge_only);  // the caller's choice wins
  CHECK(o.crease == schemes::CreaseMethod::chaikin);
  CHECK(o.triangles == schemes::TriangleRule::catmark);  // no smoothtriangles tag
  CHECK(schemes::options_from(tags("t smoothtriangles 0/0/1 smooth\n")).triangles == schemes::TriangleRule::smooth);
  CHECK(schemes::options_from(tags("t smoothtriangles 0/0/1 catmark\n")).triangles == schemes::TriangleRule::catmark);
}

TEST_CASE("bad tags are rejected naming file:line and the problem") {
  auto fails_with = [](const std::string& line, const std::string& what) {
    CHECK_THROWS_WITH_AS(tags(line), doctest::Contains(what.c_str()), InputError);
  };
  fails_with("t crease 2/1/0 0 5 1\n", "two.obj:9: crease names edge 0-5, but no face has that edge");
  fails_with("t crease 2/1/0 0 9 1\n", "names vertex 9, but the mesh has 6 vertices");
  fails_with("t crease 2/1/0 0 1 -1\n", "sharpness -1.000000 is not a finite value >= 0");
  fails_with("t crease 2/1/0 0 1 nan\n", "is not a finite value");
  fails_with("t corner 1/1/0 -1 2\n", "names vertex -1");
  fails_with("t hole 1/0/0 0\n", "two.obj:9: tag 'hole' is kept by subdivide, build, replay and limit (Catmull-Clark and Loop) only");
  fails_with("t vertexedit 1/0/0 0\n", "tag 'vertexedit' is not supported");
  fails_with("t interpolateboundary 1/0/0 7\n", "interpolateboundary 7");
  fails_with("t creasemethod 0/0/1 fancy\n", "creasemethod expects");
  fails_with("t smoothtriangles 0/0/1 loop\n", "two.obj:9: smoothtriangles expects 'catmark' or 'smooth'");
  fails_with("t crease 3/3/0 0 1 2 1 1 1\n", "has 3 sharpness values for 2 items");
}

TEST_CASE("hole tags, where kept, flag their faces, a triangulated face's triangles with it, and a face out "
          "of range is refused") {
  const auto mesh = meshops::parse_obj(quads + "t hole 1/0/0 1\n", "two.obj");
  CHECK(schemes::read_tags(mesh, true).holes == std::vector<char>{0, 1});
  const auto triangles = meshops::triangulate(mesh, meshops::Triangulation::fan);
  CHECK(schemes::read_tags(triangles, true).holes == std::vector<char>{0, 0, 1, 1});
  CHECK_THROWS_WITH_AS(schemes::read_tags(meshops::parse_obj(quads + "t hole 1/0/0 2\n", "two.obj"), true),
                       "two.obj:9: tag 'hole' names face 2, but the mesh has 2 faces (ids are 0-based)", InputError);
}

}  // namespace spmesh::test::tag_tests
