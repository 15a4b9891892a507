// OutputFiles: outputs checked before any work (never an input, never twice, never a directory
// or socket), devices written in place, links kept, a command's outputs appearing together or
// not at all, with nothing left behind on failure, and laid-out files reserved whole and streamed.
#include "meshops/output.hpp"

#include "linalg/base.hpp"
#include "meshops/tuning.hpp"

#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace spmesh;
using namespace spmesh::meshops;
using spmesh::test::TempDir;
namespace fs = std::filesystem;

namespace {

void put(const std::string& path, const std::string& text) { std::ofstream(path) << text; }
std::string get(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
auto text(std::string t) {
  return [t](std::ostream& out) { out << t; };
}
std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("output: an input is never an output, under any name") {
  const TempDir dir;
  put(dir / "c.obj", "input");
  fs::create_symlink(dir / "c.obj", dir / "link.obj");
  fs::create_hard_link(dir / "c.obj", dir / "hard.obj");
  for (const std::string& out : {dir / "c.obj", dir / "../" + dir.path.filename().string() + "/c.obj",
                                dir / "link.obj", dir / "hard.obj"}) {
    OutputFiles outputs({dir / "c.obj"});
    CHECK(refusal([&] { outputs.add(out); }) ==
          out + ": is also an input of this command; choose another output");
  }
  CHECK(get(dir / "c.obj") == "input");
}

TEST_CASE("output: two outputs of one command are never the same file") {
  const TempDir dir;
  OutputFiles outputs;
  outputs.add(dir / "a.obj");
  CHECK(refusal([&] { outputs.add(dir / "./a.obj"); }) ==
        dir / "./a.obj" + ": named twice as an output (" + dir / "a.obj" + " is the same file)");
}

TEST_CASE("output: folders, sockets and missing folders are refused before any work") {
  const TempDir dir;
  fs::create_directory(dir / "sub");
  OutputFiles outputs;
  CHECK(refusal([&] { outputs.add(dir / "sub"); }) ==
        dir / "sub" + ": is a directory, not a file to write");
  CHECK(refusal([&] { outputs.add(dir / "none/a.obj"); }) ==
        dir / "none/a.obj" + ": its folder " + dir / "none" + " does not exist");
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string socket_path = dir / "s";
  if (fd >= 0 && socket_path.size() < sizeof address.sun_path) {
    std::strcpy(address.sun_path, socket_path.c_str());
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    CHECK(refusal([&] { outputs.add(socket_path); }) ==
          socket_path + ": is not a regular file (a socket or block device); not written");
    ::close(fd);
  }
  CHECK(refusal([&] { outputs.add(""); }) == "an output path is empty");
}

TEST_CASE("output: a device is written in place and stays a device") {
  OutputFiles outputs;
  outputs.add("/dev/null");
  outputs.write("/dev/null", text("nothing"));
  outputs.commit();
  CHECK(fs::is_character_file("/dev/null"));
}

TEST_CASE("output: a link is followed, and stays a link") {
  const TempDir dir;
  put(dir / "target.obj", "old");
  fs::create_symlink(dir / "target.obj", dir / "link.obj");
  write_atomically(dir / "link.obj", text("new"));
  CHECK(fs::is_symlink(dir / "link.obj"));
  CHECK(get(dir / "target.obj") == "new");
  CHECK(dir.names() == std::vector<std::string>{"link.obj", "target.obj"});
}

TEST_CASE("output: a command's outputs appear together or not at all") {
  const TempDir dir;
  put(dir / "b.svg", "old picture");
  SUBCASE("the second fails: neither appears, the old file stays") {
    {
      OutputFiles outputs;
      outputs.add(dir / "a.obj");
      outputs.add(dir / "b.svg");
      outputs.write(dir / "a.obj", text("mesh"));
      CHECK_THROWS_WITH(outputs.write(dir / "b.svg",
                                      [](std::ostream& out) {
                                        out << "half";
                                        throw std::runtime_error("picture failed");
                                      }),
                        "picture failed");
    }
    CHECK(dir.names() == std::vector<std::string>{"b.svg"});
    CHECK(get(dir / "b.svg") == "old picture");
  }
  SUBCASE("both written: both appear at commit, not before") {
    OutputFiles outputs;
    outputs.add(dir / "a.obj");
    outputs.add(dir / "b.svg");
    outputs.write(dir / "a.obj", text("mesh"));
    outputs.write(dir / "b.svg", text("picture"));
    CHECK(dir.names() == std::vector<std::string>{"b.svg"});  // nothing named yet
    outputs.commit();
    CHECK(dir.names() == std::vector<std::string>{"a.obj", "b.svg"});
    CHECK(get(dir / "a.obj") == "mesh");
    CHECK(get(dir / "b.svg") == "picture");
  }
}

TEST_CASE("output: a new file gets the permissions a new file gets") {
  const TempDir dir;
  const mode_t mask = ::umask(022);
  write_atomically(dir / "p.obj", text("x"));
  ::umask(mask);
  CHECK((fs::status(dir / "p.obj").permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
         fs::perms::others_read));
}

namespace {

// A layout of `size` bytes, byte k a function of k.
char byte_at(std::size_t k) { return static_cast<char>((k * 2654435761u) >> 13); }
FileLayout counted(std::size_t size) {
  FileLayout layout;
  layout.add(size, [](char* out, std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) out[k - begin] = byte_at(k);
  });
  return layout;
}

}  // namespace

TEST_CASE("output: a laid-out file is written window by window, reserved whole, and appears at "
          "commit") {
  const TempDir dir;
  const std::size_t size = tuning::layout_window_bytes + 4097;  // two windows, the last ragged
  put(dir / "big.ply", "old");
  {
    OutputFiles outputs;
    outputs.add(dir / "big.ply");
    outputs.write(dir / "big.ply", counted(size));
    CHECK(get(dir / "big.ply") == "old");  // not before commit
    outputs.commit();
  }
  const std::string bytes = get(dir / "big.ply");
  REQUIRE(bytes.size() == size);
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < size; ++k) wrong += bytes[k] != byte_at(k);
  CHECK(wrong == 0);
  CHECK(dir.names() == std::vector<std::string>{"big.ply"});
}

TEST_CASE("output: a laid-out device output is streamed in place, an empty layout makes an empty "
          "file") {
  OutputFiles outputs;
  outputs.add("/dev/null");
  outputs.write("/dev/null", counted(3 << 20));
  outputs.commit();
  CHECK(fs::is_character_file("/dev/null"));

  const TempDir dir;
  write_atomically(dir / "empty.ply", FileLayout{});
  CHECK(fs::file_size(dir / "empty.ply") == 0);
}

TEST_CASE("output: a laid-out file with no room is refused naming its bytes before any is "
          "written, and nothing is left") {
  const TempDir dir;
  put(dir / "m.ply", "old");
  // A file-size limit stands in for a full disk: fallocate fails as it would (EFBIG, not ENOSPC)
  // and the process is not killed by SIGXFSZ.
  struct sigaction ignore {}, before {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGXFSZ, &ignore, &before);
  rlimit saved{};
  ::getrlimit(RLIMIT_FSIZE, &saved);
  rlimit small = saved;
  small.rlim_cur = 1 << 20;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  const std::string message = refusal([&] { write_atomically(dir / "m.ply", counted(2 << 20)); });
  ::setrlimit(RLIMIT_FSIZE, &saved);
  ::sigaction(SIGXFSZ, &before, nullptr);
  CHECK(message == dir / "m.ply" + ": cannot reserve its 2097152 bytes (File too large)");
  CHECK(get(dir / "m.ply") == "old");
  CHECK(dir.names() == std::vector<std::string>{"m.ply"});
}
