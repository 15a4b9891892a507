// A helper of tests/apps/host_memory.sh: what spmesh estimates a command takes on the host, and
// what a command took (its peak resident memory).
//   host_memory_probe estimate subdivide|build ARGS...   prints the host estimate in bytes
//   host_memory_probe peak OUTFILE PROGRAM ARGS...        runs PROGRAM, writes its peak resident
//                                                         bytes to OUTFILE, exits with its code
// The peak is wait4's ru_maxrss: it includes this helper's resident pages at the fork (about
// 2 MiB, as it has read nothing then), which only makes the test stricter.
#include "apps/args.hpp"
#include "apps/input.hpp"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

namespace {

int peak(const char* outfile, char** argv) {
  const pid_t child = fork();
  if (child < 0) return std::perror("fork"), 2;
  if (child == 0) {
    execv(argv[0], argv);
    std::perror(argv[0]);
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (wait4(child, &status, 0, &usage) != child) return std::perror("wait4"), 2;
  std::ofstream(outfile) << usage.ru_maxrss * 1024 << "\n";  // ru_maxrss is in KiB
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int estimate(const std::string& command, std::vector<std::string> rest) {
  using namespace spmesh::apps;
  rest.push_back("--dry-run");  // read_input's estimate without its refusal
  const Args args(rest,
                  {"--output", "--levels", "--scheme", "--boundary", "--crease", "--device",
                   "--precision", "--picture", "--triangulate"},
                  {"--dry-run"});
  const Input in = read_input(args, args.levels(), command == "subdivide");
  std::printf("%lld\n", static_cast<long long>(in.host.bytes));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  try {
    if (mode == "peak" && argc > 3) return peak(argv[2], argv + 3);
    if (mode == "estimate" && argc > 2)
      return estimate(argv[2], std::vector<std::string>(argv + 3, argv + argc));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "host_memory_probe: %s\n", e.what());
    return 1;
  }
  std::fputs("usage: host_memory_probe estimate subdivide|build ARGS... | peak OUTFILE PROGRAM ARGS...\n", stderr);
  return 2;
}
