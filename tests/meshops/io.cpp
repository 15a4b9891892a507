// Mesh file I/O: OFF and PLY readers on hand-written files with known answers, their errors
// (file:line or byte offset and the problem), bit-exact OBJ and PLY round trips, the text the
// OBJ writer prints against printf, and the writers' promise never to leave a half-written file.
#include "meshops/io.hpp"

#include "input_error.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace spmesh;
using namespace spmesh::meshops;
using spmesh::test::input_error;
using spmesh::test::TempDir;
namespace fs = std::filesystem;

namespace {

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<index_t> face(const PolyMesh& m, index_t f) {
  return {m.M.indices.begin() + m.M.offsets[f], m.M.indices.begin() + m.M.offsets[f + 1]};
}

linalg::MeshMatrix<> mesh_matrix(index_t vertices, const std::vector<std::vector<index_t>>& faces) {
  std::vector<index_t> offsets{0}, indices;
  for (const auto& f : faces) {
    indices.insert(indices.end(), f.begin(), f.end());
    offsets.push_back(static_cast<index_t>(indices.size()));
  }
  return {vertices, linalg::Array<index_t>(offsets), linalg::Array<index_t>(indices)};
}

// Coordinates that are hard to round-trip: subnormal, extreme, negative zero, non-terminating
// fractions, then random bit patterns of every exponent.
template <class T>
linalg::Dense<T> tricky_positions(index_t rows) {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0.1),        T(1) / T(3), T(-0.0),      L::denorm_min(),
                      L::max(),      -L::min(),   T(1e-30),     T(2) / T(3),
                      T(123456.789), T(-7.25),    L::epsilon(), T(1)};
  using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
  std::mt19937_64 rng(7);
  while (static_cast<index_t>(v.size()) < rows * 3) {
    const T x = std::bit_cast<T>(static_cast<Bits>(rng()));
    if (std::isfinite(x)) v.push_back(x);
  }
  v.resize(static_cast<std::size_t>(rows) * 3);
  return {rows, 3, linalg::Array<T>(v)};
}

template <class T>
std::vector<std::uint64_t> bits_of(const linalg::Dense<T>& P) {
  std::vector<std::uint64_t> out;
  for (T x : P.data)
    out.push_back(
        std::bit_cast<std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>>(x));
  return out;
}

// A quad, a triangle, a pentagon and a hexagon over 12 vertices.
const std::vector<std::vector<index_t>> mixed_faces = {
    {0, 1, 2, 3}, {3, 2, 4}, {4, 5, 6, 7, 8}, {8, 9, 10, 11, 0, 1}};

void check_same_faces(const PolyMesh& m, const linalg::MeshMatrix<>& M) {
  CHECK(m.M.vertices == M.vertices);
  CHECK(m.M.offsets.to_vector() == M.offsets.to_vector());
  CHECK(m.M.indices.to_vector() == M.indices.to_vector());
}

// Little-endian bytes for hand-made binary PLY files.
template <class T>
void put(std::string& s, T v) {
  static_assert(std::endian::native == std::endian::little,
                "hand-made PLY bytes assume a little-endian host");
  char b[sizeof v];
  std::memcpy(b, &v, sizeof v);
  s.append(b, sizeof v);
}

}  // namespace

// ---- OFF ----------------------------------------------------------------------------------------

TEST_CASE("off: vertices, polygon faces, comments and trailing colours are read") {
  const auto m = parse_off(
      "OFF\n"
      "# a unit square and a roof triangle\n"
      "5 2 0\n"
      "\n"
      "0 0 0\n"
      "1 0 0   # trailing comment\n"
      "1 1 0 0.5 0.5 0.5 1\n"
      "0 1 0\r\n"
      "0.5 0.5 -2.5e1\n"
      "4 0 1 2 3\n"
      "3 0 1 4  255 0 0\n",
      "m.off");
  CHECK(m.vertex_count() == 5);
  REQUIRE(m.face_count() == 2);
  CHECK(face(m, 0) == std::vector<index_t>{0, 1, 2, 3});
  CHECK(face(m, 1) == std::vector<index_t>{0, 1, 4});
  CHECK(m.positions(2, 0) == 1.0);
  CHECK(m.positions(4, 2) == -25.0);
  CHECK(m.tags.empty());
  CHECK(m.source == "m.off");
}

TEST_CASE("off: COFF with counts on the keyword line, and OFF without a keyword") {
  const auto c = parse_off(
      "COFF 3 1 3\n0 0 0 255 0 0 255\n1 0 0 0 255 0 255\n0 1 0 0 0 255 255\n"
      "3 2 1 0\n",
      "c.off");
  CHECK(face(c, 0) == std::vector<index_t>{2, 1, 0});
  CHECK(c.positions(1, 0) == 1.0);
  const auto plain = parse_off("3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n", "p.off");
  CHECK(plain.vertex_count() == 3);
  CHECK(face(plain, 0) == std::vector<index_t>{0, 1, 2});
}

TEST_CASE("off: malformed input names file:line and the problem") {
  auto error = [](const std::string& text) {
    return input_error([&] { parse_off(text, "m.off"); });
  };
  const std::string tri = "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n";
  CHECK(error(tri + "3 0 1 5\n") ==
        "m.off:6: vertex index 5 out of range (the file has 3 vertices, counted from 0)");
  CHECK(error(tri + "3 0 -1 2\n") ==
        "m.off:6: vertex index -1 out of range (the file has 3 vertices, counted from 0)");
  CHECK(error(tri + "2 0 1\n") == "m.off:6: face has 2 vertices, needs at least 3");
  CHECK(error(tri + "4 0 1 2\n") == "m.off:6: face lists 3 of its 4 vertices");
  CHECK(error(tri + "3 0 one 2\n") == "m.off:6: bad vertex index 'one'");
  CHECK(error(tri) == "m.off:5: truncated: the file ends before face 0 of 1");
  CHECK(error("OFF\n3 1 0\n0 0 0\n1 0 0\n") ==
        "m.off:4: truncated: the file ends before vertex 2 of 3");
  CHECK(error("OFF\n3 1 0\n0 0\n") == "m.off:3: vertex has 2 coordinates, expected 3");
  CHECK(error("OFF\n3 1 0\n0 zero 0\n") == "m.off:3: bad coordinate 'zero'");
  CHECK(error("OFF\n3 x\n") == "m.off:2: expected the counts 'vertices faces edges'");
  CHECK(error("OFF\n# counts missing\n") ==
        "m.off:2: truncated: the file ends before the vertex and face counts");
  CHECK(error("ply\n") == "m.off:1: not an OFF file (expected 'OFF' or the counts, found 'ply')");
  CHECK(error("4OFF\n") ==
        "m.off:1: unsupported OFF variant '4OFF' (only 3D OFF: OFF, COFF, NOFF, STOFF and their "
        "combinations)");
  CHECK(error("OFF BINARY\n") == "m.off:1: binary OFF is unsupported (only ASCII OFF)");
  CHECK(error("") == "m.off: no vertices (empty or not an OFF file)");
  CHECK(error("OFF\n0 0 0\n") == "m.off: no vertices");
  CHECK(error("OFF\n3 0 0\n0 0 0\n1 0 0\n0 1 0\n") == "m.off: no faces");
  CHECK_THROWS_WITH_AS(read_off("/nonexistent/m.off"),
                       "/nonexistent/m.off: cannot open for reading (No such file or directory)",
                       InputError);
}

// ---- PLY ----------------------------------------------------------------------------------------

TEST_CASE("ply: ascii with extra properties and elements, lists included, reads x y z and faces") {
  const auto m = parse_ply(
      "ply\n"
      "format ascii 1.0\n"
      "comment made by hand\n"
      "element vertex 4\n"
      "property float x\nproperty float y\nproperty float z\n"
      "property float nx\nproperty uchar red\n"
      "element material 2\n"
      "property list uchar float coeffs\nproperty int id\n"
      "element face 2\n"
      "property uchar flags\nproperty list uint8 int32 vertex_index\nproperty float quality\n"
      "element edge 1\n"
      "property int vertex1\nproperty int vertex2\n"
      "end_header\n"
      "0 0 0 1 255\n1 0 0 1 255\n1 2.5 0 1 255\n0 1 -3 1 255\n"
      "3 0.5 0.25 1 7\n0 8\n"
      "1 4 0 1 2 3 0.5\n"
      "0 3 0 2 3\n0.25\n"  // an item may span lines: ascii PLY is a token stream
      "0 1\n",
      "m.ply");
  CHECK(m.vertex_count() == 4);
  REQUIRE(m.face_count() == 2);
  CHECK(face(m, 0) == std::vector<index_t>{0, 1, 2, 3});
  CHECK(face(m, 1) == std::vector<index_t>{0, 2, 3});
  CHECK(m.positions(2, 1) == 2.5);
  CHECK(m.positions(3, 2) == -3.0);
  CHECK(m.source == "m.ply");
}

TEST_CASE("ply: binary little endian skips other properties and elements by their types") {
  std::string b =
      "ply\r\nformat binary_little_endian 1.0\r\n"
      "element vertex 3\r\n"
      "property double x\r\nproperty uchar flag\r\nproperty float y\r\nproperty int16 z\r\n"
      "property list uchar short ring\r\n"
      "element note 1\r\nproperty list int uint8 text\r\n"
      "element face 1\r\nproperty list uint int vertex_indices\r\nproperty double area\r\n"
      "end_header\r\n";
  const double xs[] = {0.1, 1.0 / 3, -0.0};
  for (int v = 0; v < 3; ++v) {
    put(b, xs[v]), put<std::uint8_t>(b, 9), put(b, 0.5f * static_cast<float>(v));
    put<std::int16_t>(b, static_cast<std::int16_t>(-v)), put<std::uint8_t>(b, 2);
    put<std::int16_t>(b, 1), put<std::int16_t>(b, 2);
  }
  put<std::int32_t>(b, 5), b += "hello";
  put<std::uint32_t>(b, 3);
  for (std::int32_t i : {2, 0, 1}) put(b, i);
  put(b, 0.5);
  const auto m = parse_ply(b, "b.ply");
  CHECK(m.vertex_count() == 3);
  REQUIRE(m.face_count() == 1);
  CHECK(face(m, 0) == std::vector<index_t>{2, 0, 1});
  CHECK(m.positions(1, 0) == 1.0 / 3);
  CHECK(m.positions(1, 1) == 0.5);
  CHECK(m.positions(2, 2) == -2.0);
  CHECK(std::signbit(m.positions(2, 0)));
}

TEST_CASE("ply: malformed input names where (line or byte, element, item) and the problem") {
  auto error = [](const std::string& bytes) {
    return input_error([&] { parse_ply(bytes, "m.ply"); });
  };
  const std::string vertex3 =
      "element vertex 3\nproperty float x\nproperty float y\nproperty float z\n";
  const std::string face_list = "element face 1\nproperty list uchar int vertex_indices\n";
  const std::string ascii = "ply\nformat ascii 1.0\n" + vertex3 + face_list + "end_header\n";
  const std::string tri = "0 0 0\n1 0 0\n0 1 0\n";

  SUBCASE("header") {
    CHECK(error("PLY\n") == "m.ply:1: not a PLY file (the first line is not 'ply')");
    CHECK(error("") == "m.ply: empty file (not a PLY file)");
    CHECK(error("ply\nformat binary_big_endian 1.0\n") ==
          "m.ply:2: binary_big_endian PLY is unsupported (only ascii and binary_little_endian)");
    CHECK(error("ply\nformat ascii 2.0\n") ==
          "m.ply:2: unsupported PLY version '2.0' (expected 1.0)");
    CHECK(error("ply\nformat ascii 1.0\nelement vertex 3\n") ==
          "m.ply:3: header ends without 'end_header' (truncated, or not a PLY file)");
    CHECK(error("ply\nformat ascii 1.0\nelement vertex 3\nproperty int64 x\n") ==
          "m.ply:4: unknown property type 'int64'");
    CHECK(error("ply\nformat ascii 1.0\nproperty float x\n") ==
          "m.ply:3: property before any element");
    CHECK(error("ply\nformat ascii 1.0\nelement vertex many\n") ==
          "m.ply:3: element line needs a name and a count, e.g. 'element vertex 8'");
    CHECK(
        error("ply\nformat ascii 1.0\nelement face 1\nproperty list float int vertex_indices\n") ==
        "m.ply:4: list count type float is not an integer type");
    CHECK(error("ply\nelement vertex 0\nend_header\n") == "m.ply:3: the header has no format line");
    CHECK(error("ply\nformat ascii 1.0\nflavour vanilla\n") ==
          "m.ply:3: unknown header line 'flavour'");
  }
  SUBCASE("what the mesh needs") {
    CHECK(error("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n" +
                face_list + "end_header\n") == "m.ply:3: element vertex has no property 'z'");
    CHECK(error("ply\nformat ascii 1.0\n" + vertex3 +
                "element face 1\nproperty int vertex_indices\n" + "end_header\n") ==
          "m.ply:7: element face has no list property 'vertex_indices' or 'vertex_index'");
    CHECK(error("ply\nformat ascii 1.0\n" + vertex3 + "element face 1\n" +
                "property list uchar float vertex_indices\nend_header\n") ==
          "m.ply:8: face vertex indices have type float, expected an integer type");
    CHECK(error("ply\nformat ascii 1.0\n" + vertex3 + "end_header\n" + tri) ==
          "m.ply: no faces (the header has no element 'face')");
    CHECK(error("ply\nformat ascii 1.0\n" + vertex3 + "element vertex 1\nend_header\n") ==
          "m.ply:7: a second element 'vertex'");
  }
  SUBCASE("ascii data") {
    CHECK(error(ascii + tri + "3 0 1 7\n") ==
          "m.ply:13: face 0: vertex index 7 out of range (the file has 3 vertices, counted from 0)");
    CHECK(error(ascii + tri + "2 0 1\n") ==
          "m.ply:13: face 0: face has 2 vertices, needs at least 3");
    CHECK(error(ascii + tri + "3 0 1\n") ==
          "m.ply:13: face 0: truncated: the data ends inside this item (element face declares 1)");
    CHECK(error(ascii + "0 0 0\n1 x 0\n") == "m.ply:11: vertex 1: bad number 'x'");
  }
  SUBCASE("binary data") {
    const std::string header =
        "ply\nformat binary_little_endian 1.0\n" + vertex3 +
        "element face 2\nproperty list uchar int vertex_indices\nend_header\n";
    std::string b = header;
    for (float x : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, 0.f}) put(b, x);
    std::string ok_face = b;
    put<std::uint8_t>(ok_face, 3), put(ok_face, 0), put(ok_face, 1), put(ok_face, 2);
    const std::size_t face1 = header.size() + 36 + 13;  // where face 1 starts

    CHECK(error(header + std::string(20, '\0')) ==
          "m.ply: element vertex (byte " + std::to_string(header.size()) +
              "): truncated: 3 items need at least 36 bytes, 20 available");
    std::string cut = ok_face;
    put<std::uint8_t>(cut, 3), put(cut, 0), put<std::int16_t>(cut, 1);  // 2 of 4 bytes
    CHECK(error(cut) == "m.ply: face 1 (byte " + std::to_string(face1) + "): truncated at byte " +
                            std::to_string(face1 + 5) + ": needs 4 bytes, 2 available");
    std::string far = ok_face;
    put<std::uint8_t>(far, 3), put(far, 0), put(far, 7), put(far, 1);
    CHECK(error(far) == "m.ply: face 1 (byte " + std::to_string(face1) +
                            "): vertex index 7 out of range (the file has 3 vertices, counted from 0)");
  }
}

// ---- writers ------------------------------------------------------------------------------------

TEST_CASE("io: the OBJ writer prints %.17g for double, %.9g for float, and 1-based faces") {
  const TempDir dir;
  auto expected = [](const auto& P, const char* format) {
    std::string text;
    char line[128];
    for (index_t v = 0; v < P.rows; ++v) {
      std::snprintf(line, sizeof line, format, double(P(v, 0)), double(P(v, 1)), double(P(v, 2)));
      text += line;
    }
    return text + "f 1 2 3 4\nf 4 3 5\nf 5 6 7 8 9\nf 9 10 11 12 1 2\n";
  };
  const auto M = mesh_matrix(12, mixed_faces);
  const auto P = tricky_positions<double>(12);
  write_obj(dir / "d.obj", P, M);
  CHECK(file_bytes(dir / "d.obj") == expected(P, "v %.17g %.17g %.17g\n"));
  const auto Pf = tricky_positions<float>(12);
  write_obj(dir / "f.obj", Pf, M);
  CHECK(file_bytes(dir / "f.obj") == expected(Pf, "v %.9g %.9g %.9g\n"));
}

TEST_CASE("io: OBJ round trip keeps every bit of double positions and the faces") {
  const TempDir dir;
  const auto P = tricky_positions<double>(400);
  const auto M = mesh_matrix(400, mixed_faces);
  write_obj(dir / "m.obj", P, M);
  const auto m = read_obj(dir / "m.obj");
  CHECK(bits_of(m.positions) == bits_of(P));
  check_same_faces(m, M);
}

TEST_CASE("io: float positions written as text read back as the same float") {
  const TempDir dir;
  const auto P = tricky_positions<float>(2000);
  write_obj(dir / "m.obj", P, mesh_matrix(2000, mixed_faces));
  const auto m = read_obj(dir / "m.obj");
  linalg::Dense<float> back(m.positions.rows, 3);
  for (index_t i = 0; i < back.data.size(); ++i)
    back.data[i] = static_cast<float>(m.positions.data[i]);
  CHECK(bits_of(back) == bits_of(P));
}

TEST_CASE("io: PLY round trip is bit-exact for double and float positions") {
  const TempDir dir;
  const auto M = mesh_matrix(12, mixed_faces);
  const auto P = tricky_positions<double>(12);
  write_ply(dir / "d.ply", P, M);
  const std::string bytes = file_bytes(dir / "d.ply");
  CHECK(
      bytes.starts_with("ply\nformat binary_little_endian 1.0\nelement vertex 12\n"
                        "property double x\nproperty double y\nproperty double z\n"
                        "element face 4\nproperty list uchar int vertex_indices\nend_header\n"));
  const auto m = read_ply(dir / "d.ply");
  CHECK(bits_of(m.positions) == bits_of(P));
  check_same_faces(m, M);

  const auto Pf = tricky_positions<float>(12);
  write_ply(dir / "f.ply", Pf, M);
  CHECK(file_bytes(dir / "f.ply").find("property float x\n") != std::string::npos);
  const auto mf = read_ply(dir / "f.ply");
  for (index_t i = 0; i < Pf.data.size(); ++i) CHECK(mf.positions.data[i] == double(Pf.data[i]));
}

TEST_CASE("io: a PLY face of more than 255 vertices gets an int count") {
  const TempDir dir;
  std::vector<index_t> big(300);
  std::iota(big.begin(), big.end(), 0);
  const auto M = mesh_matrix(300, {big, {0, 1, 2}});
  const auto P = tricky_positions<double>(300);
  write_ply(dir / "big.ply", P, M);
  CHECK(file_bytes(dir / "big.ply").find("property list int int vertex_indices\n") !=
        std::string::npos);
  const auto m = read_ply(dir / "big.ply");
  CHECK(bits_of(m.positions) == bits_of(P));
  check_same_faces(m, M);
}

TEST_CASE("io: read_mesh and write_mesh choose the format by extension, in any letter case") {
  const TempDir dir;
  const auto M = mesh_matrix(12, mixed_faces);
  const auto P = tricky_positions<double>(12);
  for (const char* name : {"a.OBJ", "b.Ply", "c.obj", "d.ply"}) {
    CAPTURE(name);
    write_mesh(dir / name, P, M);
    const auto m = read_mesh(dir / name);
    CHECK(bits_of(m.positions) == bits_of(P));
    check_same_faces(m, M);
  }
  CHECK(file_bytes(dir / "b.Ply").starts_with("ply\n"));
  CHECK(file_bytes(dir / "a.OBJ").starts_with("v "));
  write_bytes(dir / "e.Off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n");
  CHECK(read_mesh(dir / "e.Off").face_count() == 1);

  CHECK(input_error([&] { read_mesh(dir / "x.stl"); }) ==
        dir / "x.stl" +
            ": unknown mesh format, extension '.stl' (read_mesh knows .obj, .off and .ply)");
  CHECK(input_error([&] { read_mesh(dir / "noext"); }) ==
        dir / "noext" +
            ": unknown mesh format, no extension (read_mesh knows .obj, .off and .ply)");
  CHECK(input_error([&] { write_mesh(dir / "x.off", P, M); }) ==
        dir / "x.off" +
            ": cannot write a mesh file with extension '.off' (spmesh writes .obj and .ply)");
  CHECK(dir.names() == std::vector<std::string>{"a.OBJ", "b.Ply", "c.obj", "d.ply", "e.Off"});
}

TEST_CASE("io: writers reject positions that do not fit the mesh matrix, before any file exists") {
  const TempDir dir;
  const auto M = mesh_matrix(12, mixed_faces);
  CHECK_THROWS_AS(write_obj(dir / "m.obj", tricky_positions<double>(11), M), DimensionError);
  CHECK_THROWS_AS(write_ply(dir / "m.ply", linalg::Dense<double>(12, 2), M), DimensionError);
  const auto out_of_range = mesh_matrix(12, {{0, 1, 12}});
  CHECK(
      input_error([&] { write_ply(dir / "m.ply", tricky_positions<double>(12), out_of_range); }) ==
      dir / "m.ply" + ": face 0 has vertex index 12, out of range (the mesh has 12 vertices; ids count from 0)");
  std::ostringstream sink;
  CHECK_THROWS_AS(write_obj(sink, tricky_positions<float>(12), out_of_range), InputError);
  CHECK(sink.str().empty());
  CHECK(dir.names().empty());
}

TEST_CASE("io: writing into a missing directory throws naming the path and creates nothing") {
  const TempDir dir;
  const std::string path = dir / "missing/m.obj";
  CHECK_THROWS_WITH_AS(write_obj(path, tricky_positions<double>(12), mesh_matrix(12, mixed_faces)),
                       (path + ": its folder " + dir / "missing" + " does not exist").c_str(), Error);
  CHECK_THROWS_AS(
      write_ply(dir / "missing/m.ply", tricky_positions<double>(12), mesh_matrix(12, mixed_faces)),
      Error);
  CHECK(dir.names().empty());
}

TEST_CASE("io: a failed write keeps the old file and leaves no temporary file") {
  const TempDir dir;
  const std::string path = dir / "m.obj";
  write_bytes(path, "old contents\n");
  SUBCASE("the writer throws half way") {
    auto half_then_fail = [](std::ostream& out) {
      out << "v 0 0 0\n";
      throw std::runtime_error("simulated failure");
    };
    CHECK_THROWS_WITH(write_atomically(path, half_then_fail), "simulated failure");
  }
  SUBCASE("the stream goes bad") {
    CHECK_THROWS_WITH_AS(
        write_atomically(path, [](std::ostream& out) { out.setstate(std::ios::badbit); }),
        (path + ": write error (the writer's stream failed)").c_str(), Error);
  }
  SUBCASE("the target is a directory: refused before writing") {
    fs::create_directory(dir / "d.obj");
    CHECK_THROWS_WITH_AS(
        write_obj(dir / "d.obj", tricky_positions<double>(12), mesh_matrix(12, mixed_faces)),
        (dir / "d.obj" + ": is a directory, not a file to write").c_str(), Error);
    fs::remove(dir / "d.obj");
  }
  CHECK(file_bytes(path) == "old contents\n");
  CHECK(dir.names() == std::vector<std::string>{"m.obj"});
}

TEST_CASE("io: a successful write replaces the old file and leaves only it") {
  const TempDir dir;
  const std::string path = dir / "m.ply";
  write_bytes(path, "old contents\n");
  write_mesh(path, tricky_positions<double>(12), mesh_matrix(12, mixed_faces));
  CHECK(read_mesh(path).face_count() == 4);
  CHECK(dir.names() == std::vector<std::string>{"m.ply"});
}

TEST_CASE("ply and off: every truncation of a valid file is an InputError or a whole mesh") {
  const auto M = mesh_matrix(12, mixed_faces);
  std::ostringstream ply;
  write_ply(ply, tricky_positions<double>(12), M);
  const std::string binary = ply.str();
  for (std::size_t n = 0; n < binary.size(); ++n) {
    CAPTURE(n);
    CHECK_THROWS_AS(parse_ply(binary.substr(0, n), "cut.ply"), InputError);  // every byte counts
  }

  // The same mesh as text: a cut may still parse (a shorter last number) but must not crash.
  std::string data;
  char line[128];
  const auto P = tricky_positions<float>(12);
  for (index_t v = 0; v < P.rows; ++v) {
    std::snprintf(line, sizeof line, "%.9g %.9g %.9g\n", P(v, 0), P(v, 1), P(v, 2));
    data += line;
  }
  for (const auto& f : mixed_faces) {
    data += std::to_string(f.size());
    for (index_t i : f) data.append(" ").append(std::to_string(i));
    data += '\n';
  }
  const std::string off = "OFF\n12 4 0\n" + data;
  const std::string ascii =
      "ply\nformat ascii 1.0\nelement vertex 12\nproperty float x\nproperty float y\n"
      "property float z\nelement face 4\nproperty list uchar int vertex_indices\nend_header\n" +
      data;
  auto check_cuts = [](const std::string& text, auto parse) {
    CHECK(parse(text).face_count() == 4);
    for (std::size_t n = 0; n < text.size(); ++n) {
      CAPTURE(n);
      try {
        const PolyMesh m = parse(text.substr(0, n));
        CHECK(m.face_count() == 4);
      } catch (const InputError&) {
      }
    }
  };
  check_cuts(off, [](const std::string& t) { return parse_off(t, "cut.off"); });
  check_cuts(ascii, [](const std::string& t) { return parse_ply(t, "cut.ply"); });
}

namespace {

// A strip of n quads over 2n + 2 vertices: enough faces for several of the writers' blocks.
linalg::MeshMatrix<> quad_strip(index_t n) {
  linalg::Array<index_t> offsets(n + 1), indices(4 * n);
  for (index_t f = 0; f < n; ++f) {
    offsets[f] = 4 * f;
    const index_t a = 2 * f;
    indices[4 * f] = a, indices[4 * f + 1] = a + 2, indices[4 * f + 2] = a + 3, indices[4 * f + 3] = a + 1;
  }
  offsets[n] = 4 * n;
  return linalg::MeshMatrix<>(2 * n + 2, std::move(offsets), std::move(indices));
}

template <class T>
std::string written(MeshFormat format, const linalg::Dense<T>& P, const linalg::MeshMatrix<>& M) {
  std::ostringstream out;
  write_mesh(out, format, "mesh", P, M);
  return std::move(out).str();
}
template <class T>
std::string written(const linalg::Dense<T>& P, const EncodedFaces& faces) {
  std::ostringstream out;
  write_mesh(out, "pose", P, faces);
  return std::move(out).str();
}

}  // namespace

TEST_CASE_TEMPLATE("io: faces encoded once write the same file as the mesh matrix, which reads "
                   "back as the mesh, over several blocks (1.1M quads)",
                   T, float, double) {
  const index_t n = (1 << 20) + 50000;  // more than one PLY block and many OBJ batches
  const auto M = quad_strip(n);
  linalg::Dense<T> P(M.vertices, 3);
  for (index_t i = 0; i < P.data.size(); ++i) P.data[i] = static_cast<T>(0.001 * i - 7.25);
  for (const auto format : {MeshFormat::ply, MeshFormat::obj}) {
    const auto faces = encode_faces(format, "mesh", M);
    CHECK(faces.faces == n);
    const std::string direct = written(format, P, M), encoded = written(P, faces);
    CHECK(encoded.size() == direct.size());
    CHECK(encoded == direct);
    // An independent reader sees the mesh: every face and position (reading back, PLY only:
    // the OBJ text's digits are checked by the round-trip tests above).
    if (format == MeshFormat::ply) {
      const auto m = parse_ply(encoded, "strip.ply");
      REQUIRE(m.M.faces == n);
      CHECK(std::equal(m.M.indices.begin(), m.M.indices.end(), M.indices.begin()));
      CHECK(std::equal(m.M.offsets.begin(), m.M.offsets.end(), M.offsets.begin()));
      CHECK(m.positions.data[P.data.size() - 1] == double(P.data[P.data.size() - 1]));
      CHECK(faces.bytes() == std::size_t(n) * 17);  // a uchar count and four int indices
    }
  }
}

TEST_CASE_TEMPLATE("io: a command's mesh outputs (PLY laid out and mapped, OBJ streamed) have the "
                   "stream's bytes, from the mesh matrix and from encoded faces",
                   T, float, double) {
  const TempDir dir;
  const auto M = quad_strip((1 << 20) + 123);
  linalg::Dense<T> P(M.vertices, 3);
  for (index_t i = 0; i < P.data.size(); ++i) P.data[i] = static_cast<T>(0.37 * i - 11.5);
  for (const auto format : {MeshFormat::ply, MeshFormat::obj}) {
    const std::string ext = format == MeshFormat::ply ? ".ply" : ".obj";
    const auto faces = encode_faces(format, "mesh", M);
    OutputFiles outputs;
    outputs.add(dir / ("direct" + ext));
    outputs.add(dir / ("encoded" + ext));
    write_mesh(outputs, dir / ("direct" + ext), format, "mesh", P, M);
    write_mesh(outputs, dir / ("encoded" + ext), "pose", P, faces);
    outputs.commit();
    const std::string expected = written(format, P, M);
    CHECK(file_bytes(dir / ("direct" + ext)) == expected);
    CHECK(file_bytes(dir / ("encoded" + ext)) == expected);
  }
}

TEST_CASE_TEMPLATE("io: a mesh output with normals: OBJ vn lines and f v//vn corners, PLY nx ny nz after each "
                   "vertex's x y z: both read back as the positions and faces",
                   T, float, double) {
  const TempDir dir;
  const auto M = quad_strip(5);
  linalg::Dense<T> P(M.vertices, 3), N(M.vertices, 3);
  for (index_t i = 0; i < P.data.size(); ++i) P.data[i] = static_cast<T>(0.37 * i - 11.5), N.data[i] = static_cast<T>(0.25 * i);
  OutputFiles outputs;
  outputs.add(dir / "n.obj");
  outputs.add(dir / "n.ply");
  write_mesh(outputs, dir / "n.obj", MeshFormat::obj, "mesh", P, N, M);
  write_mesh(outputs, dir / "n.ply", MeshFormat::ply, "mesh", P, N, M);
  outputs.commit();
  const std::string obj = file_bytes(dir / "n.obj"), ply = file_bytes(dir / "n.ply");
  CHECK(obj.find("vn ") != std::string::npos);
  CHECK(obj.find(" 2//2") != std::string::npos);
  const std::string type = std::is_same_v<T, float> ? "float" : "double";
  CHECK(ply.find("property " + type + " z\nproperty " + type + " nx\nproperty " + type + " ny\nproperty " + type +
                 " nz\nelement face") != std::string::npos);
  const std::size_t body = ply.find("end_header\n") + 11;
  for (index_t v = 0; v < M.vertices; ++v)
    for (int c = 0; c < 6; ++c) {
      T value;
      std::memcpy(&value, ply.data() + body + sizeof(T) * std::size_t(6 * v + c), sizeof(T));
      CHECK(value == (c < 3 ? P(v, c) : N(v, c - 3)));
    }
  for (const auto& path : {dir / "n.obj", dir / "n.ply"}) {
    const auto back = read_mesh(path);
    CHECK(back.M.indices.to_vector() == M.indices.to_vector());
    for (index_t i = 0; i < P.data.size(); ++i) CHECK(static_cast<T>(back.positions.data[i]) == P.data[i]);
  }
  // Normals of another shape: refused before anything is written.
  OutputFiles refused;
  refused.add(dir / "bad.ply");
  CHECK_THROWS_AS(write_mesh(refused, dir / "bad.ply", MeshFormat::ply, "mesh", P, linalg::Dense<T>(2, 3), M),
                  DimensionError);
}

TEST_CASE("io: write_mesh with encoded faces refuses a non-finite position naming the vertex, "
          "and positions of another size, writing nothing") {
  const auto M = quad_strip(3);
  const auto faces = encode_faces(MeshFormat::ply, "mesh", M);
  linalg::Dense<float> P(M.vertices, 3);
  for (index_t i = 0; i < P.data.size(); ++i) P.data[i] = float(i);
  P(5, 1) = std::numeric_limits<float>::infinity();
  std::ostringstream out;
  CHECK_THROWS_WITH_AS(write_mesh(out, "pose.obj", P, faces),
                       doctest::Contains("pose.obj"), InputError);
  try {
    write_mesh(out, "pose.obj", P, faces);
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("vertex 5") != std::string::npos);
  }
  CHECK(out.str().empty());
  const linalg::Dense<float> small(M.vertices - 1, 3);
  CHECK_THROWS_AS(write_mesh(out, "pose.obj", small, faces), DimensionError);
  CHECK(out.str().empty());
  // A face index out of range is refused when encoding, naming the source.
  auto bad = quad_strip(3);
  bad.indices[5] = 99;
  CHECK_THROWS_WITH_AS(encode_faces(MeshFormat::obj, "refined.spr", bad),
                       doctest::Contains("refined.spr"), InputError);
}

TEST_CASE("io: the file writers refuse a non-finite position naming the vertex, creating nothing") {
  const TempDir dir;
  const auto M = quad_strip(3);
  linalg::Dense<double> P(M.vertices, 3);
  for (index_t i = 0; i < P.data.size(); ++i) P.data[i] = double(i);
  P(2, 0) = std::numeric_limits<double>::quiet_NaN();
  for (const std::string name : {"m.obj", "m.ply"}) {
    const std::string path = dir / name;
    CHECK(input_error([&] { write_mesh(path, P, M); }).starts_with(
        path + ": vertex 2 (0-based) is (nan, 7.000000, 8.000000): not finite, not written"));
  }
  CHECK(dir.names().empty());
}
