// spmesh info: a mesh's counts and statistics.
#include "apps/args.hpp"
#include "apps/volume.hpp"
#include "linalg/cpu/executor.hpp"
#include "meshops/info.hpp"
#include "meshops/io.hpp"

#include <fmt/format.h>

namespace spmesh::apps {

int info_command(const Args& args) {
  if (args.positional.size() != 1) throw Error("info takes one mesh file");
  if (is_volume_file(args.positional[0])) return info_volume(args.positional[0]);
  cpu::Executor exec;
  const auto mesh = meshops::read_mesh(args.positional[0]);
  fmt::print("{}", meshops::format_info(meshops::mesh_info(exec, mesh), args.positional[0]));
  return 0;
}

}  // namespace spmesh::apps
