// spmesh info: a mesh's counts and statistics.
#include "apps/args.hpp"
#include "apps/input.hpp"
#include "apps/pipeline.hpp"
#include "apps/volume.hpp"
#include "linalg/cpu/executor.hpp"
#include "meshops/info.hpp"
#include "meshops/io.hpp"
#include "schemes/catmull_clark/adaptive.hpp"

#include <fmt/format.h>

namespace spmesh::apps {

namespace {

// --adaptive L: Catmull-Clark's adaptive plan to isolation level L (schemes/catmull_clark/adaptive.hpp),
// per level its faces and points and the faces each patch kind takes there.
int info_adaptive(const Args& args) {
  namespace cc = schemes::catmull_clark;
  const int isolation = args.levels("--adaptive");
  if (const auto scheme = args.get("--scheme")) check_adaptive(*scheme, true);
  const Input in = read_input(args, 0, false);  // the plan's memory is not known before its build
  cpu::Executor exec;
  const auto plan = cc::build_adaptive(exec, in.mesh.M.clone(),
                                       schemes::Sharpness<>{in.tags.sharpness.edges.clone(), in.tags.sharpness.vertices.clone()},
                                       isolation, in.options);
  const auto counts = cc::patch_counts(exec, plan);
  fmt::print("{}: Catmull-Clark adaptive to isolation level {}: {} levels, {} points in all\n", args.positional[0],
             plan.isolation, counts.size(), plan.points());
  fmt::print("{:>5} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}\n", "level", "faces", "points", "reached",
             "patch", "boundary", "stam", "corner", "fan", "refined");
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const std::size_t l = i + std::size_t(plan.first_level());
    const auto& c = counts[i];
    index_t reached = 0;
    for (index_t n : c) reached += n;
    using H = cc::FaceHolder;
    auto at = [&](H h) { return c[std::size_t(h)]; };
    fmt::print("{:>5} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}{}\n", l, plan.levels[l].faces,
               plan.levels[l].vertices, reached, at(H::patch), at(H::boundary_patch), at(H::stam), at(H::smooth_corner),
               at(H::boundary_fan), at(H::none), l + 1 == plan.levels.size() && at(H::none) > 0 ? " (left: approximated or refused)" : "");
  }
  return 0;
}

}  // namespace

int info_command(const Args& args) {
  if (args.positional.size() != 1) throw Error("info takes one mesh file");
  if (args.get("--adaptive")) return info_adaptive(args);
  if (is_volume_file(args.positional[0])) return info_volume(args.positional[0]);
  cpu::Executor exec;
  const auto mesh = meshops::read_mesh(args.positional[0]);
  fmt::print("{}", meshops::format_info(meshops::mesh_info(exec, mesh), args.positional[0]));
  return 0;
}

}  // namespace spmesh::apps
