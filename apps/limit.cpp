// spmesh limit: the limit surface at the vertices of level L, written as OBJ with a normal per
// vertex, in the vertex and face order of `spmesh subdivide --levels L`; or, with --at, at
// samples (face, u, v), a line of position and derivatives each.
#include "apps/args.hpp"
#include "apps/commands.hpp"
#include "apps/input.hpp"
#include "apps/progress.hpp"
#include "apps/report.hpp"
#include "apps/sample_lines.hpp"
#include "apps/transfer.hpp"
#include "apps/volume.hpp"
#include "meshops/io.hpp"
#include "meshops/samples.hpp"
#include "schemes/catmull_clark/tessellation.hpp"
#include "schemes/holes.hpp"
#include "schemes/loop/tessellation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>
#include <string>
#include <type_traits>

namespace spmesh::apps {

namespace {

// Catmull-Clark's or Loop's limit at the samples read from `samples_path` on the chosen device; a
// refused sample named by its file:line.
template <class T>
schemes::SampleLimits<T> evaluate_samples(const std::string& device, const Input& in, const std::string& samples_path,
                                          const meshops::Samples& samples, int depth, bool approximate,
                                          bool adaptive, Stages& stages) {
  try {
    Progress progress(fmt::format("limit at {} samples on {}", samples.faces.size(), device));
    if (device == "cuda")
      return sample_limits_on_gpu<T>(in.scheme, in.mesh, in.tags.sharpness, in.options, samples, depth, approximate,
                                     adaptive, stages);
    cpu::Executor exec;
    return sample_limits<T>(exec, in.scheme, in.mesh, in.tags.sharpness, in.options, samples, depth, approximate,
                            adaptive, stages);
  } catch (const schemes::SampleError& e) {
    throw InputError(samples_path + ":" + std::to_string(samples.lines[std::size_t(e.sample)]) + ": " + e.what());
  }
}

// For the report: how many samples --approximate evaluated between the limit points at level
// `depth` ("" for none).
std::string approximated(index_t count, int depth) {
  return count == 0 ? "" : fmt::format(" ({} approximated between the limit points of level {})", count, depth);
}

// The input of --at and --tessellate (Catmull-Clark or Loop): the mesh read for `depth` levels
// down (its memory estimated for the uniform levels; an adaptive plan's is not known before its
// build), its holes kept (a hole has no limit surface: --at refuses samples on one, --tessellate
// leaves its facets out).
Input sample_input(const Args& args, int depth, const char* option) {
  Input in = [&] {
    Progress progress("reading " + args.positional.at(0));
    return read_input(args, args.get("--adaptive") ? 0 : depth, false, true);
  }();
  if (in.scheme != "catmark" && in.scheme != "loop")
    throw InputError(std::string("spmesh limit ") + option + " evaluates Catmull-Clark and Loop (--scheme catmark, loop); " +
                     in.scheme + "'s limit at (face, u, v) is not built yet");
  return in;
}

// The mesh output of `spmesh limit` and of `--tessellate` (OBJ or PLY, with normals), checked and
// reserved before any work.
struct MeshOutput {
  std::string path;
  meshops::MeshFormat format;
};
MeshOutput mesh_output(const Args& args, meshops::OutputFiles& outputs) {
  MeshOutput out{args.need("--output"), meshops::MeshFormat::obj};
  out.format = meshops::output_format(out.path);
  outputs.add(out.path);
  return out;
}

// Limit points with their normals and faces written to `out`.
template <class T>
void write_limits(meshops::OutputFiles& outputs, const MeshOutput& out, const std::string& input, const Limits<T>& r) {
  Progress progress("writing " + out.path);
  meshops::write_mesh(outputs, out.path, out.format, input, r.positions, r.normals, r.mesh);
  outputs.commit();
}

// --at SAMPLES: Catmull-Clark's or Loop's limit at each line's (face, u, v), going down at most
// --levels levels (default 3), written one line a sample: x y z, then the u and the v derivative.
template <class T>
int limit_at_as(const Args& args) {
  const int depth = args.get("--levels") ? args.levels() : 3;
  const std::string device = args.device(), input = args.positional.at(0), samples_path = args.need("--at");
  meshops::OutputFiles outputs({input, samples_path});
  const std::string out = args.need("--output");
  check_sample_output(out);
  outputs.add(out);
  const auto gpu_started = device == "cuda" ? start_gpu() : std::future<void>();
  const Input in = sample_input(args, depth, "--at");
  const auto samples = meshops::read_samples(samples_path, in.mesh.face_count());
  if (const auto s = schemes::sample_on_hole(samples.faces, in.tags.holes); s >= 0)
    throw InputError(fmt::format("{}:{}: face {} is a hole (t hole in {}): it has no limit surface", samples_path,
                                 samples.lines[std::size_t(s)], samples.faces[std::size_t(s)], input));
  Stages stages;
  const bool approximate = args.get("--approximate").has_value();
  const auto r = evaluate_samples<T>(device, in, samples_path, samples, depth, approximate,
                                     args.get("--adaptive").has_value(), stages);
  const auto t = std::chrono::steady_clock::now();
  write_sample_lines(outputs, out, {&r.position, &r.du, &r.dv});
  fmt::print("{} limit at {} samples on {}{}: {}, write {:.2f} ms\n", in.scheme, r.position.rows, device,
             approximated(r.approximated, depth), summary(stages, device), elapsed_ms(t));
  return 0;
}

template <class T>
int tessellate_as(const Args& args, int depth, bool adaptive) {
  const std::string device = args.device(), input = args.positional.at(0), rate_text = args.need("--tessellate");
  int rate = 0;
  if (!meshops::parse_number(rate_text, rate) || rate < 1 || rate > 1024)
    throw InputError("--tessellate " + rate_text + ": a rate of 1 to 1024 segments an edge");
  meshops::OutputFiles outputs({input});
  const MeshOutput out = mesh_output(args, outputs);
  const auto gpu_started = device == "cuda" ? start_gpu() : std::future<void>();
  const Input in = sample_input(args, depth, "--tessellate");
  Stages stages;
  auto r = [&] {
    try {
      Progress progress(fmt::format("tessellation at {} on {}", rate, device));
      const bool approximate = args.get("--approximate").has_value();
      if (device == "cuda")
        return tessellation_on_gpu<T>(in.scheme, in.mesh, in.tags.sharpness, in.options, rate, depth, approximate,
                                      adaptive, stages);
      cpu::Executor exec;
      return tessellation<T>(exec, in.scheme, in.mesh, in.tags.sharpness, in.options, rate, depth, approximate,
                             adaptive, stages);
    } catch (const schemes::SampleError& e) {
      throw InputError(std::string("the tessellation's points: ") + e.what());
    }
  }();
  if (!in.tags.holes.empty()) {  // the holes' facets left out (their points in none)
    cpu::Executor exec;
    const bool polygons = linalg::has_faces_other_than(exec, in.mesh.M, 4);
    r.mesh = schemes::facets_without_holes(r.mesh, in.mesh.M, in.tags.holes, [&](index_t, index_t n) {
      return in.scheme == "loop" ? schemes::loop::facets_of_face(n, rate, polygons)
                                 : schemes::catmull_clark::facets_of_face(n, rate, polygons);
    });
  }
  const auto t = std::chrono::steady_clock::now();
  write_limits(outputs, out, input, r);
  fmt::print("{} limit tessellated at {} on {}: {} points{}, {} facets; {}, write {:.2f} ms\n", in.scheme, rate, device,
             r.positions.rows, approximated(r.approximated, depth), r.mesh.faces, summary(stages, device),
             elapsed_ms(t));
  return 0;
}

template <class T>
int limit_as(const Args& args) {
  if (args.get("--at") && args.get("--tessellate")) throw InputError("--at or --tessellate, not both");
  if (args.get("--at")) return limit_at_as<T>(args);
  if (args.get("--tessellate"))
    return tessellate_as<T>(args, args.get("--levels") ? args.levels() : 3, args.get("--adaptive").has_value());
  if (args.get("--approximate"))
    throw InputError("--approximate is for --at and --tessellate (the limit at vertices is exact)");
  if (args.get("--adaptive"))
    throw InputError("--adaptive is for --at and --tessellate (the limit at a level's vertices needs every "
                     "vertex of the level)");
  const int levels = args.get("--levels") ? args.levels() : 0;
  const std::string device = args.device(), input = args.positional.at(0);
  // The output is checked before any work: its name, format and place.
  meshops::OutputFiles outputs({input});
  const MeshOutput out = mesh_output(args, outputs);
  const auto gpu_started = device == "cuda" ? start_gpu() : std::future<void>();
  const Input in = [&] {
    Progress progress("reading " + input);
    return read_input(args, levels, false, true);
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
  r.mesh = schemes::without_holes(in.scheme, std::move(r.mesh), in.mesh.M, in.tags.holes, levels);
  const auto t = std::chrono::steady_clock::now();
  write_limits(outputs, out, input, r);
  fmt::print("{} limit at level {} on {}: {} vertices, {} faces; {}, write {:.2f} ms\n", in.scheme, levels, device,
             r.positions.rows, r.mesh.faces, summary(stages, device), elapsed_ms(t));
  return 0;
}

}  // namespace

int tessellate_command(const Args& args, int depth, bool adaptive) {
  return args.dbl() ? tessellate_as<double>(args, depth, adaptive) : tessellate_as<float>(args, depth, adaptive);
}

int limit_command(const Args& args) {
  if (is_volume_file(args.positional.at(0))) return limit_volume(args);
  refuse_volume_options(args);
  return args.dbl() ? limit_as<double>(args) : limit_as<float>(args);
}

}  // namespace spmesh::apps
