// Input is never silently shortened: read_file refuses what is not a regular file and fails on
// short reads and allocation failures; the OBJ, OFF and PLY readers reject unknown statements
// and data after the last element, and read a UTF-8 byte order mark and every line ending.
#include "meshops/io.hpp"

#include "input_error.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace spmesh;
using namespace spmesh::meshops;
using spmesh::test::input_error;
using spmesh::test::TempDir;
namespace fs = std::filesystem;

namespace {

std::string obj_error(const std::string& text) {
  return input_error([&] { parse_obj(text, "m.obj"); });
}
std::string off_error(const std::string& text) {
  return input_error([&] { parse_off(text, "m.off"); });
}
std::string ply_error(const std::string& bytes) {
  return input_error([&] { parse_ply(bytes, "m.ply"); });
}

// Every line break of `text` ("\n") replaced by `end`.
std::string with_line_ends(const std::string& text, const std::string& end) {
  std::string out;
  for (char c : text)
    if (c == '\n')
      out += end;
    else
      out += c;
  return out;
}

const std::string bom = "\xEF\xBB\xBF";
const std::string tri_obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
const std::string tri_off = "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
const std::string tri_ply_ascii =
    "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
    "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
    "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";

// One triangle as binary little-endian PLY: 3 float vertices, a uchar-counted int list.
std::string tri_ply_binary() {
  std::string s =
      "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\n"
      "property float y\nproperty float z\nelement face 1\n"
      "property list uchar int vertex_indices\nend_header\n";
  const float xyz[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const std::int32_t ids[3] = {0, 1, 2};
  s.append(reinterpret_cast<const char*>(xyz), sizeof xyz);
  s.push_back(3);
  s.append(reinterpret_cast<const char*>(ids), sizeof ids);
  return s;
}

// The triangle's positions, row by row.
std::vector<double> positions(const PolyMesh& m) {
  std::vector<double> xyz;
  for (index_t v = 0; v < m.positions.rows; ++v)
    for (int c = 0; c < 3; ++c) xyz.push_back(m.positions(v, c));
  return xyz;
}
const std::vector<double> tri_xyz = {0, 0, 0, 1, 0, 0, 0, 1, 0};

}  // namespace

TEST_CASE("read_file: a regular file's bytes come back whole, NUL bytes and all") {
  TempDir dir;
  const std::string bytes = std::string("a\0b\r\n", 5) + std::string(100000, 'x');
  std::ofstream(dir / "f.bin", std::ios::binary) << bytes;
  CHECK(read_file(dir / "f.bin") == bytes);
  std::ofstream(dir / "empty.obj").flush();
  CHECK(read_file(dir / "empty.obj").empty());
}

TEST_CASE("read_file: what is not a regular file is refused by name, never read or waited on") {
  TempDir dir;
  CHECK(input_error([&] { read_file(dir.path.string()); }) ==
        dir.path.string() + ": is a directory, not a mesh file (only regular files are read)");

  // A FIFO with no writer: opening it to read would block forever.
  REQUIRE(::mkfifo((dir / "pipe.obj").c_str(), 0600) == 0);
  CHECK(input_error([&] { read_file(dir / "pipe.obj"); }) ==
        dir / "pipe.obj" + ": is a FIFO (named pipe), not a mesh file (only regular files are read)");

  // /dev/null reads as empty, /dev/zero never ends.
  CHECK(input_error([] { read_file("/dev/null"); }) ==
        "/dev/null: is a character device, not a mesh file (only regular files are read)");
  CHECK(input_error([] { read_file("/dev/zero"); }) ==
        "/dev/zero: is a character device, not a mesh file (only regular files are read)");

  // A Unix socket cannot be opened as a file at all; the message still says what it is.
  const std::string socket_path = dir / "s.obj";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  REQUIRE(socket_path.size() < sizeof address.sun_path);
  std::memcpy(address.sun_path, socket_path.c_str(), socket_path.size() + 1);
  REQUIRE(::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
  CHECK(input_error([&] { read_file(socket_path); }) ==
        socket_path + ": is a socket, not a mesh file (only regular files are read)");
  ::close(fd);
}

TEST_CASE("read_file: a file whose size is not its content is an error, not a shortened string") {
  // sysfs reports 4096 bytes for an attribute that reads as a few dozen: a short read.
  const std::string sys = "/sys/kernel/mm/transparent_hugepage/enabled";
  struct stat st {};
  if (::stat(sys.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 4096) {
    const std::string error = input_error([&] { read_file(sys); });
    CHECK(error.rfind(sys + ": short read: the file ended after ", 0) == 0);
    CHECK(error.find(" of its 4096 bytes") != std::string::npos);
  } else {
    MESSAGE("no sysfs attribute of size 4096 here: the short-read case is not tried");
  }
  // procfs reports size 0 for a file with content: reading by its size alone would give "".
  CHECK(input_error([] { read_file("/proc/self/status"); }) ==
        "/proc/self/status: holds more than its size of 0 bytes (changed while being read, or a "
        "special file)");
}

// The size is checked against the machine's memory before any allocation (an overcommitting
// kernel would grant 8 TiB, and the read would run until memory ran out).
TEST_CASE("read_file: a file too large to hold in memory is an error naming the bytes needed") {
  TempDir dir;
  const std::string path = dir / "huge.obj";
  std::ofstream(path).flush();
  // A sparse 8 TiB file: no disk space used, more than any machine's memory.
  std::error_code ec;
  fs::resize_file(path, std::uintmax_t{1} << 43, ec);
  if (ec) {
    MESSAGE("this file system has no 8 TiB sparse files (" << ec.message() << "): not tried");
    return;
  }
  CHECK(input_error([&] { read_file(path); })
            .starts_with(path + ": cannot allocate 8796093022208 bytes to read the file (out of memory"));
}

TEST_CASE("obj: an unknown statement is an error naming file:line, a known one is ignored") {
  CHECK(obj_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf2 2 4 3\n") ==
        "m.obj:6: unknown statement 'f2' (not an OBJ statement; a typo?)");
  CHECK(obj_error("V 0 0 0\n" + tri_obj) ==
        "m.obj:1: unknown statement 'V' (not an OBJ statement; a typo?)");
  // Every other statement of the OBJ specification is read past.
  const std::string ignored =
      "mtllib a.mtl\no thing\ng group\ns 1\nusemtl red\nvt 0 0\nvn 0 0 1\nvp 0.5\nl 1 2\np 1\n"
      "cstype bspline\ndeg 3\nbmat u 1\nstep 1\ncurv 0 1 1 2\ncurv2 1 2\nsurf 0 1 0 1 1 2\n"
      "parm u 0 1\ntrim 0 1 1\nhole 0 1 1\nscrv 0 1 1\nsp 1\nend\ncon 1 0 1 1 2 0 1 1\n"
      "mg 1 0.5\nmaplib a.map\nusemap off\nc_interp on\nd_interp off\nlod 1\n"
      "shadow_obj s.obj\ntrace_obj t.obj\nctech cparm 1\nstech cparm 1 1\nbevel off\n"
      "call x.mod\ncsh -command\n";
  const PolyMesh m = parse_obj(ignored + tri_obj, "m.obj");
  CHECK(m.vertex_count() == 3);
  CHECK(m.face_count() == 1);
}

TEST_CASE("obj, off, ply: a UTF-8 byte order mark is skipped") {
  CHECK(positions(parse_obj(bom + tri_obj, "m.obj")) == tri_xyz);
  CHECK(positions(parse_off(bom + tri_off, "m.off")) == tri_xyz);
  CHECK(positions(parse_ply(bom + tri_ply_ascii, "m.ply")) == tri_xyz);
}

TEST_CASE("obj, off, ascii ply: CR-only and CRLF line ends read as lines, numbered right") {
  for (const std::string end : {"\r", "\r\n"}) {
    CAPTURE(end.size());
    const PolyMesh obj = parse_obj(with_line_ends(tri_obj, end), "m.obj");
    CHECK(positions(obj) == tri_xyz);
    CHECK(obj.face_count() == 1);
    CHECK(positions(parse_off(with_line_ends(tri_off, end), "m.off")) == tri_xyz);
    CHECK(positions(parse_ply(with_line_ends(tri_ply_ascii, end), "m.ply")) == tri_xyz);

    CHECK(obj_error(with_line_ends("v 0 0 0\nv 1 x 0\n", end)) == "m.obj:2: bad coordinate 'x'");
    CHECK(off_error(with_line_ends("OFF\n3 1 0\n0 0 0\n1 0 0\n0 y 0\n", end)) ==
          "m.off:5: bad coordinate 'y'");
    const std::string bad_ply = tri_ply_ascii.substr(0, tri_ply_ascii.size() - 6) + "0 1 z\n";
    CHECK(ply_error(with_line_ends(bad_ply, end)) == "m.ply:13: face 0: bad integer 'z'");
  }
  // A mixture, as an edited file may have: lines 1 to 4 end in \n, \r, \r\n, \n.
  CHECK(obj_error("v 0 0 0\nv 1 0 0\rv 0 1 0\r\nf 1 2 q\n") == "m.obj:4: bad vertex index 'q'");
}

TEST_CASE("off: data after the declared faces is an error naming file:line and the counts") {
  CHECK(off_error(tri_off + "3 2 1 0\n") ==
        "m.off:7: data after the last face ('3'): the header declares 3 vertices and 1 faces");
  CHECK(off_error(tri_off + "\n\ngarbage\n") ==
        "m.off:9: data after the last face ('garbage'): the header declares 3 vertices and 1 "
        "faces");
  // Blank lines, whitespace and comments may follow.
  CHECK(parse_off(tri_off + "\n  \t\n# the end\n", "m.off").face_count() == 1);
}

TEST_CASE("ply: data after the last element is an error naming the line or byte") {
  CHECK(ply_error(tri_ply_ascii + "3 2 1 0\n") ==
        "m.ply:14: data after the last element ('3'): the header declares vertex 3, face 1");
  CHECK(ply_error(tri_ply_ascii + "\n\n  x\n") ==
        "m.ply:16: data after the last element ('x'): the header declares vertex 3, face 1");
  CHECK(parse_ply(tri_ply_ascii + "\n \n", "m.ply").face_count() == 1);

  const std::string binary = tri_ply_binary();
  CHECK(positions(parse_ply(binary, "m.ply")) == tri_xyz);
  const std::string after = std::to_string(binary.size());
  CHECK(ply_error(binary + std::string(1, '\0')) ==
        "m.ply: 1 bytes of data after the last element (from byte " + after +
            "): the header declares vertex 3, face 1");
  CHECK(ply_error(binary + "\n\n") == "m.ply: 2 bytes of data after the last element (from byte " +
                                          after + "): the header declares vertex 3, face 1");
  // One final newline, which some writers add after binary data, is accepted.
  CHECK(parse_ply(binary + "\n", "m.ply").face_count() == 1);
  CHECK(parse_ply(binary + "\r\n", "m.ply").face_count() == 1);
}
