// The spmesh command line: `spmesh info MESH` (more subcommands arrive with the schemes).
#include "linalg/cpu/executor.hpp"
#include "meshops/info.hpp"
#include "meshops/obj.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

constexpr const char* usage =
    "usage: spmesh info MESH.obj    print vertex, edge and face counts, Euler characteristic,\n"
    "                               boundary edges, face-order and valence histograms\n";

int info(const std::vector<std::string>& args) {
  if (args.size() != 1) throw spmesh::Error("info takes one mesh file");
  spmesh::cpu::Executor exec;
  const auto mesh = spmesh::meshops::read_obj(args[0]);
  const auto info = spmesh::meshops::mesh_info(exec, mesh);
  fmt::print("{}", spmesh::meshops::format_info(info, args[0]));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "-h" || args[0] == "--help") {
    std::fputs(usage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  try {
    if (command == "info") return info(args);
    fmt::print(stderr, "spmesh: unknown command '{}'\n{}", command, usage);
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "spmesh {}: {}\n", command, e.what());
    return 1;
  }
}
