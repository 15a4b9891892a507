// spmesh limit: the limit surface at the vertices of level L, written as OBJ with a normal per
// vertex, in the vertex and face order of `spmesh subdivide --levels L`.
#include "apps/args.hpp"
#include "apps/commands.hpp"
#include "apps/input.hpp"
#include "apps/progress.hpp"
#include "apps/report.hpp"
#include "apps/transfer.hpp"
#include "apps/volume.hpp"
#include "meshops/io.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace spmesh::apps {

namespace {

template <class T>
int limit_as(const Args& args) {
  const int levels = args.get("--levels") ? args.levels() : 0;
  const std::string device = args.device(), input = args.positional.at(0);
  // The output is checked before any work: its name, format and place.
  meshops::OutputFiles outputs({input});
  const std::string out = args.need("--output");
  if (meshops::output_format(out) != meshops::MeshFormat::obj)
    throw InputError(out + ": spmesh limit writes OBJ (positions and vn normals); give a path ending in .obj");
  outputs.add(out);
  const auto gpu_started = device == "cuda" ? start_gpu() : std::future<void>();
  const Input in = [&] {
    Progress progress("reading " + input);
    return read_input(args, levels, false);
  }();
  Stages stages;
  Limits<T> r;
  {
    Progress progress(fmt::format("limit of {} at level {} on {}", in.scheme, levels, device));
    if (device == "cuda") {
      r = limits_on_gpu<T>(in.scheme, in.mesh, in.tags.sharpness, in.options, levels, stages);
    } else {
      cpu::Executor exec;
      r = with_scheme(in.scheme, [&]<class Scheme>() {
        return limits<T, Scheme>(exec, in.mesh, in.tags.sharpness, in.options, levels, stages);
      });
    }
  }
  const auto t = std::chrono::steady_clock::now();
  {
    Progress progress("writing " + out);
    meshops::write_obj(outputs, out, input, r.positions, r.normals, r.mesh);
    outputs.commit();
  }
  fmt::print("{} limit at level {} on {}: {} vertices, {} faces; {}, write {:.2f} ms\n", in.scheme, levels, device,
             r.positions.rows, r.mesh.faces, summary(stages, device), elapsed_ms(t));
  return 0;
}

}  // namespace

int limit_command(const Args& args) {
  if (is_volume_file(args.positional.at(0)))
    throw InputError(args.positional.at(0) + ": spmesh limit takes surface meshes (.obj, .off, .ply)");
  return args.dbl() ? limit_as<double>(args) : limit_as<float>(args);
}

}  // namespace spmesh::apps
