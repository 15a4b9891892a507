// spmesh limit: the limit surface at the vertices of level L, written as OBJ with a normal per
// vertex, in the vertex and face order of `spmesh subdivide --levels L`; or, with --at, at
// samples (face, u, v), a line of position and derivatives each.
#include "apps/args.hpp"
#include "apps/commands.hpp"
#include "apps/input.hpp"
#include "apps/progress.hpp"
#include "apps/report.hpp"
#include "apps/transfer.hpp"
#include "apps/volume.hpp"
#include "meshops/io.hpp"
#include "meshops/samples.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <ostream>
#include <string>
#include <type_traits>

namespace spmesh::apps {

namespace {

// --at SAMPLES: Catmull-Clark's limit at each line's (face, u, v), going down at most --levels
// levels (default 3), written one line a sample: x y z, then the u and the v derivative.
template <class T>
int limit_at_as(const Args& args) {
  const int depth = args.get("--levels") ? args.levels() : 3;
  const std::string device = args.device(), input = args.positional.at(0), samples_path = args.need("--at");
  meshops::OutputFiles outputs({input, samples_path});
  const std::string out = args.need("--output");
  if (!out.ends_with(".txt") && !out.starts_with("/dev/"))
    throw InputError(out + ": spmesh limit --at writes text, a line a sample; give a path ending in .txt");
  outputs.add(out);
  const auto gpu_started = device == "cuda" ? start_gpu() : std::future<void>();
  const Input in = [&] {
    Progress progress("reading " + input);
    return read_input(args, depth, false);
  }();
  if (in.scheme != "catmark")
    throw InputError("spmesh limit --at evaluates Catmull-Clark (--scheme catmark) only; " + in.scheme +
                     "'s limit at samples is not built yet");
  const auto samples = meshops::read_samples(samples_path, in.mesh.face_count());
  Stages stages;
  schemes::catmull_clark::SampleLimits<T> r;
  try {
    Progress progress(fmt::format("limit at {} samples on {}", samples.faces.size(), device));
    if (device == "cuda") {
      r = sample_limits_on_gpu<T>(in.mesh, in.tags.sharpness, in.options, samples, depth, stages);
    } else {
      cpu::Executor exec;
      r = sample_limits<T>(exec, in.mesh, in.tags.sharpness, in.options, samples, depth, stages);
    }
  } catch (const schemes::catmull_clark::SampleError& e) {  // named by its line
    throw InputError(samples_path + ":" + std::to_string(samples.lines[std::size_t(e.sample)]) + ": " + e.what());
  }
  const auto t = std::chrono::steady_clock::now();
  {
    Progress progress("writing " + out);
    outputs.write(out, [&](std::ostream& os) {
      const char* number = std::is_same_v<T, float> ? "{:.9g}" : "{:.17g}";
      std::string line;
      for (index_t s = 0; s < r.position.rows; ++s) {
        line.clear();
        for (const auto* block : {&r.position, &r.du, &r.dv})
          for (index_t c = 0; c < 3; ++c) {
            if (!line.empty()) line += ' ';
            line += fmt::format(fmt::runtime(number), (*block)(s, c));
          }
        os << line << '\n';
      }
    });
    outputs.commit();
  }
  fmt::print("catmark limit at {} samples on {}: {}, write {:.2f} ms\n", r.position.rows, device,
             summary(stages, device), elapsed_ms(t));
  return 0;
}

template <class T>
int limit_as(const Args& args) {
  if (args.get("--at")) return limit_at_as<T>(args);
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
