// spmesh subdivide --adaptive L: Catmull-Clark's feature-adaptive plan to isolation level L
// (schemes/catmull_clark/adaptive.hpp) written as its patches (OUT.patches: patch_file.hpp),
// with --select FACES.txt those faces refined to level L too; with --select and a mesh output
// (.obj, .ply) the selective refinement as a crack-free mesh (selective_mesh.hpp); with
// --tessellate N the limit surface tessellated at rate N through the plan. A mesh's holes (t hole)
// take part in the rules and have neither patches nor facets.
#include "apps/args.hpp"
#include "apps/commands.hpp"
#include "apps/input.hpp"
#include "apps/progress.hpp"
#include "apps/report.hpp"
#include "apps/transfer.hpp"
#include "meshops/io.hpp"
#include "meshops/samples.hpp"
#include "schemes/catmull_clark/patch_file.hpp"
#include "schemes/holes.hpp"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace spmesh::apps {

namespace {

namespace cc = schemes::catmull_clark;

// InputError naming what --adaptive does not take with it: --levels (L is --adaptive's),
// --picture, --dry-run, --select with --tessellate, and --adaptive-rings but for patches.
void check_adaptive_options(const Args& args) {
  if (args.get("--levels")) throw InputError("--adaptive L is the isolation level: --levels is not taken with it");
  // More rings change the patches, not the surface: a mesh of the surface would be the same.
  if (args.get("--adaptive-rings") && std::filesystem::path(args.get("--output").value_or("")).extension() != ".patches")
    throw InputError("--adaptive-rings changes the patches, not the surface: taken with an output ending in .patches");
  if (args.get("--tessellate") && args.get("--select"))
    throw InputError("--select or --tessellate, not both (--select's mesh is a tessellation of its faces at 2^L)");
  for (const char* option : {"--picture", "--dry-run"})
    if (args.get(option)) throw InputError(std::string(option) + " is not taken with --adaptive");
}

// The patches of the faces that are not holes (t hole faces take part in the rules and have no
// surface).
cc::AdaptivePatches<linalg::Host> without_holes(cc::AdaptivePatches<linalg::Host> patches, const std::vector<char>& holes) {
  std::vector<index_t> kept;
  for (index_t p = 0; p < patches.size(); ++p)
    if (!holes[std::size_t(patches.base_face[p])]) kept.push_back(p);
  const auto n = index_t(kept.size());
  cc::AdaptivePatches<linalg::Host> out{linalg::Array<index_t>(n), linalg::Array<double>(n), linalg::Array<double>(n),
                                        linalg::Array<std::uint8_t>(n), linalg::Array<index_t>(n),
                                        linalg::Array<std::uint8_t>(n), linalg::Array<std::uint8_t>(n),
                                        linalg::Array<index_t>(n + 1), {}};
  std::vector<index_t> points;
  out.offsets[0] = 0;
  for (index_t i = 0; i < n; ++i) {
    const index_t p = kept[std::size_t(i)];
    out.base_face[i] = patches.base_face[p], out.u0[i] = patches.u0[p], out.v0[i] = patches.v0[p];
    out.level[i] = patches.level[p], out.face[i] = patches.face[p], out.kind[i] = patches.kind[p];
    out.detail[i] = patches.detail[p];
    points.insert(points.end(), patches.points.data() + patches.offsets[p], patches.points.data() + patches.offsets[p + 1]);
    out.offsets[i + 1] = index_t(points.size());
  }
  out.points = linalg::Array<index_t>(points);
  return out;
}

template <class T>
int adaptive_as(const Args& args) {
  const int isolation = args.levels("--adaptive");
  const std::string device = args.device(), input = args.positional.at(0), out = args.need("--output");
  const auto select = args.get("--select");
  const bool patches = std::filesystem::path(out).extension() == ".patches";
  if (!patches && !select)
    throw InputError(out + ": --adaptive writes its patches (an output ending in .patches), or with --select FACES.txt "
                     "a selective refinement as a mesh (.obj, .ply), or with --tessellate N a tessellation");
  const int rings = args.get("--adaptive-rings") ? args.levels("--adaptive-rings") : 0;
  meshops::OutputFiles outputs(select ? std::vector<std::string>{input, *select} : std::vector<std::string>{input});
  std::optional<meshops::MeshFormat> format;
  if (!patches) format = meshops::output_format(out);
  outputs.add(out);
  const auto gpu_started = device == "cuda" ? start_gpu() : std::future<void>();
  const Input in = [&] {
    Progress progress("reading " + input);
    return read_input(args, 0, false, true);  // the plan's memory is not known before its build
  }();
  check_adaptive(in.scheme, true);
  const std::vector<std::uint8_t> selected =
      select ? meshops::read_face_selection(*select, in.mesh.face_count()) : std::vector<std::uint8_t>{};
  Stages stages;
  const bool approximate = args.get("--approximate").has_value();
  if (patches) {
    PatchSet<T> r;
    {
      Progress progress(fmt::format("adaptive patches to level {} on {}", isolation, device));
      if (device == "cuda") {
        r = adaptive_patch_set_on_gpu<T>(in.mesh, in.tags.sharpness, in.options, isolation, selected, rings, stages);
      } else {
        cpu::Executor exec;
        r = adaptive_patch_set<T>(exec, in.mesh, in.tags.sharpness, in.options, isolation, selected, rings, stages);
      }
    }
    if (!in.tags.holes.empty()) r.patches = without_holes(std::move(r.patches), in.tags.holes);
    const auto t = std::chrono::steady_clock::now();
    {
      Progress progress("writing " + out);
      outputs.write(out, [&](std::ostream& o) { cc::write_patch_file(o, input, r.points, r.level_rows, r.patches); });
      outputs.commit();
    }
    fmt::print("catmark adaptive to level {} on {}: {} patches, {} points on {} levels; {}, write {:.2f} ms\n",
               isolation, device, r.patches.size(), r.points.rows, r.level_rows.size(), summary(stages, device),
               elapsed_ms(t));
    return 0;
  }
  Limits<T> r;
  try {
    Progress progress(fmt::format("selective refinement to level {} on {}", isolation, device));
    if (device == "cuda") {
      r = selective_on_gpu<T>(in.mesh, in.tags.sharpness, in.options, isolation, selected, approximate, stages);
    } else {
      cpu::Executor exec;
      r = selective<T>(exec, in.mesh, in.tags.sharpness, in.options, isolation, selected, approximate, stages);
    }
  } catch (const schemes::SampleError& e) {
    throw InputError(std::string("the selective mesh's points: ") + e.what() + " (--approximate takes them)");
  }
  if (!in.tags.holes.empty()) {  // the holes' facets left out (their points in none)
    const int N = 1 << isolation;
    cpu::Executor exec;
    const bool polygons = linalg::has_faces_other_than(exec, in.mesh.M, 4);
    r.mesh = schemes::facets_without_holes(r.mesh, in.mesh.M, in.tags.holes, [&](index_t f, index_t n) {
      return selected[std::size_t(f)] ? cc::facets_of_face(n, N, polygons) : 1;
    });
  }
  const auto t = std::chrono::steady_clock::now();
  {
    Progress progress("writing " + out);
    meshops::write_mesh(outputs, out, *format, input, r.positions, r.normals, r.mesh);
    outputs.commit();
  }
  fmt::print("catmark selective to level {} on {}: {} points, {} facets{}; {}, write {:.2f} ms\n", isolation, device,
             r.positions.rows, r.mesh.faces,
             r.approximated ? fmt::format(" ({} points approximated)", r.approximated) : std::string(),
             summary(stages, device), elapsed_ms(t));
  return 0;
}

}  // namespace

int subdivide_adaptive(const Args& args) {
  check_adaptive_options(args);
  if (args.get("--tessellate")) return tessellate_command(args, args.levels("--adaptive"), true);
  return args.dbl() ? adaptive_as<double>(args) : adaptive_as<float>(args);
}

}  // namespace spmesh::apps
