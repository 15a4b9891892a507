// Reading and checking a command's input mesh (input.hpp).
#include "apps/input.hpp"

#include "apps/commands.hpp"
#include "meshops/checks.hpp"
#include "meshops/info.hpp"
#include "schemes/holes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <new>
#include <utility>

namespace spmesh::apps {

namespace {

schemes::SizeEstimate size_estimate(const Input& in, int levels, bool dbl) {
  cpu::Executor exec;
  const auto info = meshops::mesh_info(exec, in.mesh);
  return schemes::with_scheme(in.scheme, [&]<class Scheme>() {
    return schemes::estimate_size<Scheme>(
        {info.vertices, info.faces, in.mesh.M.nnz(), info.edges, info.boundary_edges}, levels, 3,
        dbl ? 8 : 4);
  });
}

}  // namespace

std::optional<meshops::Triangulation> triangulation(const Args& args) {
  if (!args.get("--triangulate")) return std::nullopt;
  return args.choice("--triangulate", {"fan", "shortest-diagonal"}) == "fan"
             ? meshops::Triangulation::fan
             : meshops::Triangulation::shortest_diagonal;
}

Input read_input(const Args& args, int levels, bool one_pass, bool keep_holes) {
  const std::string& path = args.positional.at(0);
  Input in{args.choice("--scheme", {"catmark", "loop", "sqrt3"}), {}, {}, {}, {}, {}, {}};
  in.mesh = out_of_memory_names(path + ": reading it", [&] { return meshops::read_mesh(path); });
  if (const auto how = triangulation(args))
    in.mesh = out_of_memory_names(path + ": triangulating it",
                                  [&] { return meshops::triangulate(in.mesh, *how); });
  meshops::check_mesh(in.mesh);
  const auto [triangles, crease_rules] = with_scheme(in.scheme, []<class Scheme>() {
    return std::pair{Scheme::triangles_only, Scheme::crease_rules};
  });
  if (triangles)
    for (index_t f = 0; f < in.mesh.face_count(); ++f)
      if (in.mesh.M.offsets[f + 1] - in.mesh.M.offsets[f] != 3)
        throw InputError(in.mesh.source + ": " + in.scheme + " needs triangles, but face " +
                         std::to_string(f) + " has " +
                         std::to_string(in.mesh.M.offsets[f + 1] - in.mesh.M.offsets[f]) +
                         " vertices (use --triangulate fan|shortest-diagonal)");
  in.tags = schemes::read_tags(in.mesh, keep_holes);
  schemes::check_holes_kept(in.scheme, in.tags.holes, in.mesh.source);
  if (!crease_rules) {  // sqrt3: Kobbelt's one boundary rule, no creases
    for (const char* option : {"--boundary", "--crease"})
      if (args.get(option)) throw Error(std::string(option) + " does not apply to " + in.scheme);
    const auto& C = in.tags.sharpness;
    const auto corners = std::count_if(C.vertices.begin(), C.vertices.end(),
                                       [](float s) { return s != 0; });
    if (C.edges.nnz() > 0 || corners > 0)
      throw InputError(fmt::format(
          "{}: {} has no crease rules, but the mesh has {} crease and {} corner tags (remove its "
          "t crease/corner lines to refine it smooth)",
          in.mesh.source, in.scheme, C.edges.nnz(), corners));
  }
  std::optional<schemes::Boundary> boundary;
  if (auto b = args.get("--boundary"))
    boundary = args.choice("--boundary", {"edge-only", "edge-and-corner"}) == "edge-only"
                   ? schemes::Boundary::edge_only
                   : schemes::Boundary::edge_and_corner;
  std::optional<schemes::CreaseMethod> crease;
  if (auto c = args.get("--crease"))
    crease = args.choice("--crease", {"uniform", "chaikin"}) == "uniform"
                 ? schemes::CreaseMethod::uniform
                 : schemes::CreaseMethod::chaikin;
  in.options = schemes::options_from(in.tags, boundary, crease);
  for (const auto& note : in.tags.ignored) fmt::print(stderr, "spmesh: note: {}\n", note);

  // Say before any work if the levels cannot be indexed, or held on the GPU or the host.
  const bool dbl = args.choice("--precision", {"float", "double"}) == "double";
  const bool on_gpu = args.choice("--device", {"cpu", "cuda"}) == "cuda";
  const schemes::SizeEstimate size = size_estimate(in, levels, dbl);
  in.size = one_pass ? size.one_pass() : size;
  in.size.check_indices();
  std::error_code no_size;
  const auto file_bytes = std::filesystem::file_size(path, no_size);
  in.host = host_estimate(
      size, {.build = !one_pass,
             .on_gpu = on_gpu,
             .scalar_bytes = dbl ? 8 : 4,
             .picture = args.get("--picture").has_value(),
             .triangulated = triangulation(args).has_value(),
             .file_bytes = no_size ? 0 : std::int64_t(file_bytes),
             .crease_count = in.tags.sharpness.edges.nnz(),
             .stencil_width = one_pass ? 0 : stencil_width(in.mesh.M, in.scheme == "sqrt3" ? 2 : 1)});
  in.available = host_available();
  if (args.get("--dry-run")) return in;
  if (in.host.bytes > in.available.bytes)
    throw CapacityError(fmt::format(
        "{}: {} {} levels need about {:.1f} MiB of host memory; {:.1f} MiB is available ({})",
        path, in.scheme, levels, in.host.bytes / 1048576.0, in.available.bytes / 1048576.0,
        in.available.limit));
  if (on_gpu) check_device_memory(in.size.bytes);
  return in;
}

int dry_run(const Input& in, const std::string& device) {
  for (std::size_t l = 0; l < in.size.levels.size(); ++l) {
    const auto& c = in.size.levels[l];
    fmt::print("level {}: {} vertices, {} faces, {} edges\n", l, c.vertices, c.faces, c.edges);
  }
  if (device == "cuda") {
    const std::int64_t free = device_free_bytes();
    fmt::print("{} on cuda: about {:.1f} MiB of GPU memory, {:.1f} MiB free: {}\n", in.scheme,
               in.size.bytes / 1048576.0, free / 1048576.0,
               in.size.bytes <= free ? "fits" : "does not fit");
  }
  const auto& a = in.available;
  const std::string available =
      a.bytes == std::numeric_limits<std::int64_t>::max()
          ? "no known limit"
          : fmt::format("{:.1f} MiB available ({})", a.bytes / 1048576.0, a.limit);
  fmt::print("{} on {}: about {:.1f} MiB of host memory, {}: {}\n", in.scheme, device,
             in.host.bytes / 1048576.0, available,
             in.host.bytes <= a.bytes ? "fits" : "does not fit");
  return 0;
}

}  // namespace spmesh::apps
