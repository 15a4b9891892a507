// The samples file of `spmesh limit --at`: a line `face u v` a sample, comments and blank lines
// skipped, every line ending and a byte order mark read, and every bad line named; and the face
// selection of `spmesh subdivide --select`.
#include "meshops/samples.hpp"

#include "input_error.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace spmesh;
using namespace spmesh::meshops;
using spmesh::test::input_error;

TEST_CASE("samples: face u v a line, each with its line number, whatever the line endings") {
  const Samples s = parse_samples("\xEF\xBB\xBF# samples\r\n3 0.25 0.5\r\n\r\n0 1 0 # a corner\r7 0 1e-3\n", "s.txt", 8);
  CHECK(s.faces == std::vector<index_t>{3, 0, 7});
  CHECK(s.u == std::vector<double>{0.25, 1, 0});
  CHECK(s.v == std::vector<double>{0.5, 0, 1e-3});
  CHECK(s.lines == std::vector<index_t>{2, 4, 5});
  CHECK(parse_samples("", "s.txt", 8).faces.empty());
}

TEST_CASE("samples: a bad line is refused by file:line and what is wrong") {
  auto error = [](const std::string& text) { return input_error([&] { parse_samples(text, "s.txt", 8); }); };
  CHECK(error("0 0.5 0.5\n8 0.5 0.5\n") == "s.txt:2: face 8 is out of range (the mesh has faces 0 to 7)");
  CHECK(error("-1 0.5 0.5") == "s.txt:1: face -1 is out of range (the mesh has faces 0 to 7)");
  CHECK(error("1 0.5 nan") == "s.txt:1: u and v are finite and not negative (u 0.500000, v nan)");
  CHECK(error("1 inf 0.5") == "s.txt:1: u and v are finite and not negative (u inf, v 0.500000)");
  CHECK(error("1 0.5 -0.0001") == "s.txt:1: u and v are finite and not negative (u 0.500000, v -0.000100)");
  CHECK(error("1 0.5") == "s.txt:1: a sample is 'face u v': v is missing");
  CHECK(error("1") == "s.txt:1: a sample is 'face u v': u and v are missing");
  CHECK(error("1 0.5 0.5 0.5") == "s.txt:1: a sample is 'face u v': more follows");
  CHECK(error("1.5 0.5 0.5") == "s.txt:1: bad face '1.5' (a sample is 'face u v')");
  CHECK(error("1 half 0.5") == "s.txt:1: bad parameter 'half'");
}

TEST_CASE("samples of a solid: cell u v w a line, in [0, 1]^3, and every bad line named") {
  const Samples s = parse_samples("# cells\n3 0.25 0.5 1\n\n0 0 0 0\n", "c.txt", 4, true);
  CHECK(s.faces == std::vector<index_t>{3, 0});
  CHECK(s.u == std::vector<double>{0.25, 0});
  CHECK(s.v == std::vector<double>{0.5, 0});
  CHECK(s.w == std::vector<double>{1, 0});
  CHECK(s.lines == std::vector<index_t>{2, 4});
  auto error = [](const std::string& text) { return input_error([&] { parse_samples(text, "c.txt", 4, true); }); };
  CHECK(error("4 0.5 0.5 0.5") == "c.txt:1: cell 4 is out of range (the mesh has cells 0 to 3)");
  CHECK(error("1 0.5 0.5 1.5") == "c.txt:1: u, v and w are in [0, 1] (u 0.500000, v 0.500000, w 1.500000)");
  CHECK(error("1 nan 0.5 0.5") == "c.txt:1: u, v and w are in [0, 1] (u nan, v 0.500000, w 0.500000)");
  CHECK(error("1 0.5 0.5") == "c.txt:1: a sample is 'cell u v w': w is missing");
  CHECK(error("1") == "c.txt:1: a sample is 'cell u v w': u, v and w are missing");
  CHECK(error("1 0.5 0.5 0.5 0.5") == "c.txt:1: a sample is 'cell u v w': more follows");
  CHECK(error("x 0.5 0.5 0.5") == "c.txt:1: bad cell 'x' (a sample is 'cell u v w')");
}

TEST_CASE("a face selection: face ids, any number a line, every bad one named") {
  const auto selected = parse_face_selection("\xEF\xBB\xBF# chosen\r\n3 0\n\n3 # again\n5", "f.txt", 6);
  CHECK(selected == std::vector<std::uint8_t>{1, 0, 0, 1, 0, 1});
  auto error = [](const std::string& text) { return input_error([&] { parse_face_selection(text, "f.txt", 6); }); };
  CHECK(error("0\n1 6\n") == "f.txt:2: face 6 is out of range (the mesh has faces 0 to 5)");
  CHECK(error("-1") == "f.txt:1: face -1 is out of range (the mesh has faces 0 to 5)");
  CHECK(error("1 two") == "f.txt:1: bad face 'two' (a face id, 0-based)");
  CHECK(error("# none\n\n") == "f.txt: no face selected");
}
