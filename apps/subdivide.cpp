// spmesh subdivide: a mesh refined L levels, written as a mesh file (and a picture).
#include "apps/args.hpp"
#include "apps/commands.hpp"
#include "apps/input.hpp"
#include "apps/picture.hpp"
#include "apps/progress.hpp"
#include "apps/report.hpp"
#include "apps/transfer.hpp"
#include "apps/volume.hpp"
#include "meshops/checks.hpp"
#include "meshops/io.hpp"
#include "schemes/holes.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <type_traits>

namespace spmesh::apps {

namespace {

// InputError naming the first vertex of the result that is not finite, if any: finite input can
// still overflow (1e39 is inf in float).
template <class T>
void check_result(const std::string& input, const linalg::Dense<T>& positions) {
  const index_t v = meshops::first_non_finite(positions);
  if (v < 0) return;
  throw InputError(fmt::format(
      "{}: the result's vertex {} (0-based) is ({}, {}, {}), not finite{}; nothing written",
      input, v, positions(v, 0), positions(v, 1), positions(v, 2),
      std::is_same_v<T, float> ? " (the values overflow float: --precision double may help)"
                               : " (the input's values are too large)"));
}

// Whether `path` is this process's standard output (/dev/stdout, or the file it goes to): the
// report then goes to stderr, so that it does not end up inside the mesh.
bool is_standard_output(const std::string& path) {
  struct stat out {}, file {};
  return ::fstat(STDOUT_FILENO, &out) == 0 && ::stat(path.c_str(), &file) == 0 &&
         out.st_dev == file.st_dev && out.st_ino == file.st_ino;
}

template <class T>
int subdivide_as(const Args& args) {
  refuse_volume_options(args);
  const int levels = args.levels();
  const std::string device = args.device(), input = args.positional.at(0);
  // The outputs are checked before any work: their names, formats and places.
  meshops::OutputFiles outputs({input});
  std::optional<std::string> out, picture = args.get("--picture");
  std::optional<meshops::MeshFormat> format;
  if (!args.get("--dry-run")) {
    out = args.need("--output");
    format = meshops::output_format(*out);
    outputs.add(*out);
    if (picture) {
      if (std::filesystem::path(*picture).extension() != ".svg")
        throw Error(*picture + ": --picture writes SVG; give a path ending in .svg");
      outputs.add(*picture);
    }
  }
  const auto gpu_started = device == "cuda" ? start_gpu() : std::future<void>();
  const Input in = [&] {
    Progress progress("reading " + input);
    return read_input(args, levels, true, true);
  }();
  if (args.get("--dry-run")) return dry_run(in, device);

  Stages stages;
  Subdivided<T> r;
  {
    Progress progress(fmt::format("{} levels of {} on {}", levels, in.scheme, device));
    if (device == "cuda") {
      r = subdivide_on_gpu<T>(in.scheme, in.mesh, in.tags.sharpness, in.options, levels, stages);
    } else {
      cpu::Executor exec;
      r = with_scheme(in.scheme, [&]<class Scheme>() {
        return subdivide<T, Scheme>(exec, in.mesh, in.tags.sharpness, in.options, levels, stages);
      });
    }
  }
  check_result(input, r.positions);
  r.mesh = schemes::without_holes(in.scheme, std::move(r.mesh), in.mesh.M, in.tags.holes, levels);
  const auto t = std::chrono::steady_clock::now();
  {
    Progress progress("writing " + *out);
    meshops::write_mesh(outputs, *out, *format, *out, r.positions, r.mesh);
    if (picture)
      outputs.write(*picture, [&](std::ostream& o) {
        write_picture(o, r.positions, r.mesh,
                      fmt::format("{}: {}, {} levels, {} faces", input, in.scheme, levels, r.mesh.faces));
      });
    outputs.commit();
  }
  const double write_ms = elapsed_ms(t);
  std::FILE* report = is_standard_output(*out) ? stderr : stdout;
  fmt::print(report, "{} {} levels on {}: {} -> {} faces, {} -> {} vertices; {}, write {:.2f} ms\n", in.scheme,
             levels, device, in.mesh.face_count(), r.mesh.faces, in.mesh.vertex_count(),
             r.positions.rows, summary(stages, device), write_ms);
  if (picture) fmt::print(report, "picture: {}\n", *picture);
  return 0;
}

}  // namespace

int subdivide_command(const Args& args) {
  if (args.get("--adaptive")) return subdivide_adaptive(args);
  for (const char* option : {"--select", "--tessellate", "--approximate", "--adaptive-rings"})
    if (args.get(option)) throw InputError(std::string(option) + " is for --adaptive L (Catmull-Clark's adaptive plan)");
  if (is_volume_file(args.positional.at(0))) return subdivide_volume(args);
  return args.dbl() ? subdivide_as<double>(args) : subdivide_as<float>(args);
}

}  // namespace spmesh::apps
