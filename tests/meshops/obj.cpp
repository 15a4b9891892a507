// OBJ reader: what it accepts (index forms, negative indices, comments, tags) and how it
// rejects malformed input (file:line and the problem).
#include "meshops/obj.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace spmesh;
using namespace spmesh::meshops;

namespace {

// The message of the InputError that parsing `text` throws ("" if none).
std::string parse_error(const std::string& text) {
  try {
    parse_obj(text, "mesh.obj");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::vector<index_t> face(const PolyMesh& m, index_t f) {
  return {m.M.indices.begin() + m.M.offsets[f], m.M.indices.begin() + m.M.offsets[f + 1]};
}

}  // namespace

TEST_CASE("obj: vertices, polygon faces and every index form are read") {
  const auto m = parse_obj(
      "# a comment\n"
      "v 0 0 0\nv 1 0 0\nv 1 1 0 1.0\nv 0 1 0   # trailing comment\n"
      "vt 0 0\nvn 0 0 1\n"
      "f 1 2 3 4\n"
      "f 1/1 2/1 3/1\n"
      "f 1//1 3//1 4//1\n"
      "f 1/1/1 -3/1/1 -2\r\n",
      "mesh.obj");
  CHECK(m.vertex_count() == 4);
  CHECK(m.face_count() == 4);
  CHECK(face(m, 0) == std::vector<index_t>{0, 1, 2, 3});
  CHECK(face(m, 1) == std::vector<index_t>{0, 1, 2});
  CHECK(face(m, 2) == std::vector<index_t>{0, 2, 3});
  CHECK(face(m, 3) == std::vector<index_t>{0, 1, 2});  // -3 and -2 count back from vertex 4
  CHECK(m.positions(2, 0) == 1.0);
  CHECK(m.positions(2, 1) == 1.0);
  CHECK(m.positions(3, 1) == 1.0);
}

TEST_CASE("obj: negative indices are relative to the vertices read so far") {
  const auto m = parse_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\nv 5 5 5\nf -4 -3 -1\n", "m");
  CHECK(face(m, 0) == std::vector<index_t>{0, 1, 2});
  CHECK(face(m, 1) == std::vector<index_t>{0, 1, 3});
}

TEST_CASE("obj: OpenSubdiv t tags are kept with their arguments") {
  const auto m = parse_obj(
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"
      "t crease 2/1/0 0 1 2.5\n"
      "t interpolateboundary 1/0/0 1\n"
      "t creasemethod 0/0/1 chaikin\n",
      "m");
  REQUIRE(m.tags.size() == 3);
  CHECK(m.tags[0].name == "crease");
  CHECK(m.tags[0].ints == std::vector<int>{0, 1});
  CHECK(m.tags[0].floats == std::vector<double>{2.5});
  CHECK(m.tags[0].line == 5);
  CHECK(m.tags[1].ints == std::vector<int>{1});
  CHECK(m.tags[2].strings == std::vector<std::string>{"chaikin"});
}

TEST_CASE("obj: malformed input names file:line and the problem") {
  const std::string tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  CHECK(parse_error("v 0 0 zero\n") == "mesh.obj:1: bad coordinate 'zero'");
  CHECK(parse_error("v 0 0\n") == "mesh.obj:1: vertex has 2 coordinates, expected 3");
  CHECK(parse_error(tri + "f 1 2 x\n") == "mesh.obj:4: bad vertex index 'x'");
  CHECK(parse_error(tri + "f 0 1 2\n") == "mesh.obj:4: vertex index 0 (OBJ indices start at 1)");
  CHECK(parse_error(tri + "f 1 2 9\n") ==
        "mesh.obj:4: vertex index 9 out of range (the file has 3 vertices, counted from 1)");
  CHECK(parse_error(tri + "f 1 2 -4\n") ==
        "mesh.obj:4: relative index -4 reaches before the first vertex");
  CHECK(parse_error(tri + "f 1 2\n") == "mesh.obj:4: face has 2 vertices, needs at least 3");
  CHECK(parse_error(tri + "f 1 2 3\nt crease 2/1/0 0 1\n") ==
        "mesh.obj:5: tag 'crease' is missing float arguments");
  CHECK(parse_error(tri + "f 1 2 3\nt crease 2/1\n") ==
        "mesh.obj:5: tag counts '2/1' are not 'ints/floats/strings'");
  CHECK(parse_error("") == "mesh.obj: no vertices (empty or not an OBJ file)");
  CHECK(parse_error("# only a comment\n") == "mesh.obj: no vertices (empty or not an OBJ file)");
  CHECK(parse_error(tri) == "mesh.obj: no faces");
}

TEST_CASE("obj: unreadable paths are reported by name") {
  CHECK_THROWS_WITH_AS(read_obj("/nonexistent/mesh.obj"), "/nonexistent/mesh.obj: cannot open for reading (No such file or directory)",
                       InputError);
  const auto dir = std::filesystem::temp_directory_path();
  CHECK_THROWS_AS(read_obj(dir.string()), InputError);
}

TEST_CASE("obj: a file round trip through read_obj gives the parsed mesh") {
  const auto path = std::filesystem::temp_directory_path() / "spmesh_test_obj.obj";
  {
    std::ofstream out(path);
    out << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n";
  }
  const auto m = read_obj(path.string());
  CHECK(m.vertex_count() == 4);
  CHECK(m.face_count() == 1);
  CHECK(m.source == path.string());
  std::filesystem::remove(path);
}
