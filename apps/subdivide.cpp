// spmesh subdivide: a mesh refined L levels, written as a mesh file (and a picture).
#include "apps/args.hpp"
#include "apps/commands.hpp"
#include "apps/input.hpp"
#include "apps/transfer.hpp"
#include "apps/report.hpp"
#include "apps/picture.hpp"
#include "meshops/io.hpp"

#include <fmt/format.h>

namespace spmesh::apps {

namespace {

template <class T>
int subdivide_as(const Args& args) {
  const int levels = args.levels();
  const std::string device = args.choice("--device", {"cpu", "cuda"});
  const Input in = read_input(args, levels, true);
  if (args.get("--dry-run")) return dry_run(in, device);
  const std::string out = args.need("--output");
  Stages stages;
  Subdivided<T> r;
  if (device == "cuda") {
    r = subdivide_on_gpu<T>(in.scheme, in.mesh, in.tags.sharpness, in.options, levels, stages);
  } else {
    cpu::Executor exec;
    r = with_scheme(in.scheme, [&]<class Scheme>() {
      return subdivide<T, Scheme>(exec, in.mesh, in.tags.sharpness, in.options, levels, stages);
    });
  }
  meshops::write_mesh(out, r.positions, r.mesh);
  fmt::print("{} {} levels on {}: {} -> {} faces, {} -> {} vertices; {}\n", in.scheme, levels, device,
             in.mesh.face_count(), r.mesh.faces, in.mesh.vertex_count(), r.positions.rows,
             summary(stages, device));
  if (auto picture = args.get("--picture")) {
    write_picture(*picture, r.positions, r.mesh,
                  fmt::format("{}: {}, {} levels, {} faces", args.positional[0], in.scheme,
                              levels, r.mesh.faces));
    fmt::print("picture: {}\n", *picture);
  }
  return 0;
}

}  // namespace

int subdivide_command(const Args& args) {
  return args.dbl() ? subdivide_as<double>(args) : subdivide_as<float>(args);
}

}  // namespace spmesh::apps
