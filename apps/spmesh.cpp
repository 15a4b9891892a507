// The spmesh command line: info, subdivide, build and replay (see `usage`).
#include "apps/commands.hpp"
#include "apps/picture.hpp"
#include "apps/transfer.hpp"
#include "meshops/checks.hpp"
#include "meshops/info.hpp"
#include "meshops/io.hpp"
#include "meshops/triangulate.hpp"
#include "schemes/tags.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace spmesh::apps {

namespace {

constexpr const char* usage = R"(usage:
  spmesh info MESH
      vertex, edge and face counts, Euler characteristic, boundary, face orders, valences
  spmesh subdivide IN -o OUT --levels L [options] [--picture FILE.svg] [--dry-run]
      subdivision of IN (.obj/.off/.ply) into OUT (.obj/.ply); --dry-run prints every level's
      size and the memory needed (and free, with --device cuda), and stops
  spmesh build IN --levels L -o FILE [options]
      the refinement matrix R of L levels, saved for replay
  spmesh replay FILE POSES... -o OUTDIR [--device cpu|cuda] [--format obj|ply] [--triangulate ...]
      P_L = R P_0 for each pose (a mesh with IN's topology, triangulated as for build if asked),
      written to OUTDIR/<pose>.<format>
options:
  --scheme catmark|loop|sqrt3               Catmull-Clark (default), Loop or sqrt(3) (both
                                            triangles only)
  --triangulate fan|shortest-diagonal       make polygons triangles first (for loop and sqrt3; a
                                            quad is cut along its shorter diagonal, larger
                                            polygons fanned)
  --boundary edge-only|edge-and-corner      default: the mesh's tags, else edge-only (not sqrt3)
  --crease uniform|chaikin                  default: the mesh's tags, else uniform (not sqrt3)
  --device cpu|cuda                         default cpu
  --precision float|double                  default float
Crease and corner tags of OpenSubdiv's OBJ shapes (t crease/corner/interpolateboundary/
creasemethod) are honoured. sqrt3 has Kobbelt's rules: no creases (a mesh with crease or
corner tags is refused), and boundary edges cut in three on every second level. Errors: one line on stderr, exit code 1, no partial output file.
)";

// Parsed command line: positional arguments and --name value options.
struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> options;

  // `known`: options with a value; `flags`: options without one.
  Args(const std::vector<std::string>& args, const std::vector<std::string>& known,
       const std::vector<std::string>& flags = {}) {
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string& a = args[i];
      if (!a.starts_with("-")) {
        positional.push_back(a);
        continue;
      }
      const std::string name = a == "-o" ? "--output" : a;
      if (std::find(flags.begin(), flags.end(), name) != flags.end()) {
        options[name] = "";
        continue;
      }
      if (std::find(known.begin(), known.end(), name) == known.end())
        throw Error("unknown option '" + a + "'");
      if (i + 1 == args.size()) throw Error("option '" + a + "' needs a value");
      options[name] = args[++i];
    }
  }

  std::optional<std::string> get(const std::string& name) const {
    auto it = options.find(name);
    return it == options.end() ? std::nullopt : std::optional(it->second);
  }
  std::string need(const std::string& name) const {
    if (auto v = get(name)) return *v;
    throw Error("missing " + name);
  }
  std::string choice(const std::string& name, const std::vector<std::string>& allowed) const {
    const std::string v = get(name).value_or(allowed[0]);
    if (std::find(allowed.begin(), allowed.end(), v) == allowed.end())
      throw Error(name + " '" + v + "' (expected " + fmt::format("{}", fmt::join(allowed, " or ")) +
                  ")");
    return v;
  }
  int levels() const {
    const std::string v = need("--levels");
    int l = -1;
    if (!meshops::parse_number(v, l) || l < 0 || l > 16)
      throw Error("--levels '" + v + "' (expected 0 to 16)");
    return l;
  }
};

const std::vector<std::string> scheme_options = {
    "--output", "--levels",    "--scheme",  "--boundary",   "--crease",
    "--device", "--precision", "--picture", "--triangulate"};

// The mesh, checked, the options its tags and the command line ask for, and the sizes of its
// levels.
struct Input {
  std::string scheme;
  meshops::PolyMesh mesh;
  schemes::TagSettings tags;
  schemes::Options options;
  schemes::SizeEstimate size;
};

schemes::SizeEstimate size_estimate(const Input& in, int levels, bool dbl) {
  cpu::Executor exec;
  const auto info = meshops::mesh_info(exec, in.mesh);
  return with_scheme(in.scheme, [&]<class Scheme>() {
    return schemes::estimate_size<Scheme>(
        {info.vertices, info.faces, in.mesh.M.nnz(), info.edges, info.boundary_edges}, levels, 3,
        dbl ? 8 : 4);
  });
}

// --triangulate, if given.
std::optional<meshops::Triangulation> triangulation(const Args& args) {
  if (!args.get("--triangulate")) return std::nullopt;
  return args.choice("--triangulate", {"fan", "shortest-diagonal"}) == "fan"
             ? meshops::Triangulation::fan
             : meshops::Triangulation::shortest_diagonal;
}

// The mesh, its tags and options, and the memory estimate: build_and_eval's (one_pass, for
// subdivide) or a plan's (for build).
Input read_input(const Args& args, int levels, bool one_pass) {
  Input in{args.choice("--scheme", {"catmark", "loop", "sqrt3"}),
           meshops::read_mesh(args.positional.at(0)), {}, {}, {}};
  if (const auto how = triangulation(args)) in.mesh = meshops::triangulate(in.mesh, *how);
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
  in.tags = schemes::read_tags(in.mesh);
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

  // Say before any work if the levels cannot be indexed (or, on the GPU, held).
  in.size = size_estimate(in, levels, args.choice("--precision", {"float", "double"}) == "double");
  if (one_pass) in.size = in.size.one_pass();
  in.size.check_indices();
  if (args.choice("--device", {"cpu", "cuda"}) == "cuda" && !args.get("--dry-run"))
    check_device_memory(in.size.bytes);
  return in;
}

// --dry-run: every level's size and the bytes needed (and on the GPU, what is free).
int dry_run(const Input& in, const std::string& device) {
  for (std::size_t l = 0; l < in.size.levels.size(); ++l) {
    const auto& c = in.size.levels[l];
    fmt::print("level {}: {} vertices, {} faces, {} edges\n", l, c.vertices, c.faces, c.edges);
  }
  fmt::print("{} on {}: about {:.1f} MiB of {} memory", in.scheme, device,
             in.size.bytes / 1048576.0, device == "cuda" ? "GPU" : "host");
  if (device == "cuda") {
    const std::int64_t free = device_free_bytes();
    fmt::print(", {:.1f} MiB free: {}", free / 1048576.0,
               in.size.bytes <= free ? "fits" : "does not fit");
  }
  fmt::print("\n");
  return 0;
}

std::string summary(const Stages& s, const std::string& device) {
  std::string line = fmt::format("upload {:.2f} ms, ", s.upload);
  if (s.build > 0) line += fmt::format("build {:.2f} ms, ", s.build);
  if (s.build_and_eval > 0) line += fmt::format("build and eval {:.2f} ms, ", s.build_and_eval);
  if (s.compose > 0) line += fmt::format("compose R {:.2f} ms, ", s.compose);
  if (s.eval > 0) line += fmt::format("eval {:.2f} ms, ", s.eval);
  line += fmt::format("download {:.2f} ms", s.download);
  if (device == "cuda") line += fmt::format(", peak GPU memory {:.1f} MiB", s.peak_bytes / 1048576.0);
  return line;
}

int info(const Args& args) {
  if (args.positional.size() != 1) throw Error("info takes one mesh file");
  cpu::Executor exec;
  const auto mesh = meshops::read_mesh(args.positional[0]);
  fmt::print("{}", meshops::format_info(meshops::mesh_info(exec, mesh), args.positional[0]));
  return 0;
}

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

template <class T>
int build_as(const Args& args) {
  const int levels = args.levels();
  const std::string out = args.need("--output"), device = args.choice("--device", {"cpu", "cuda"});
  const Input in = read_input(args, levels, false);
  Stages stages;
  schemes::Refinement<T> r;
  if (device == "cuda") {
    r = build_on_gpu<T>(in.scheme, in.mesh, in.tags.sharpness, in.options, levels, stages);
  } else {
    cpu::Executor exec;
    r = with_scheme(in.scheme, [&]<class Scheme>() {
      return build_refinement<T, Scheme>(exec, in.mesh, in.tags.sharpness, in.options, levels,
                                         stages);
    });
  }
  schemes::save_refinement(out, r);
  fmt::print("{} {} levels on {}: R is {} x {} with {} non-zeros ({:.1f} per row); {}\n",
             in.scheme, levels, device, r.R.rows, r.R.cols, r.R.nnz(), double(r.R.nnz()) / r.R.rows,
             summary(stages, device));
  return 0;
}

template <class T>
int replay_as(const Args& args) {
  if (args.positional.size() < 2) throw Error("replay takes a refinement file and poses");
  const std::string outdir = args.need("--output"), device = args.choice("--device", {"cpu", "cuda"});
  const std::string format = args.choice("--format", {"obj", "ply"});
  const auto r = schemes::load_refinement<T>(args.positional[0]);
  if (!std::filesystem::is_directory(outdir)) throw Error(outdir + ": not a directory");
  for (std::size_t k = 1; k < args.positional.size(); ++k) {
    auto pose = meshops::read_mesh(args.positional[k]);
    if (const auto how = triangulation(args)) pose = meshops::triangulate(pose, *how);
    meshops::check_mesh(pose);
    const bool same_topology =
        pose.M.nnz() == r.base.nnz() && pose.M.faces == r.base.faces &&
        std::equal(pose.M.indices.begin(), pose.M.indices.end(), r.base.indices.begin()) &&
        std::equal(pose.M.offsets.begin(), pose.M.offsets.end(), r.base.offsets.begin());
    if (!same_topology || pose.vertex_count() != r.R.cols)
      throw InputError(args.positional[k] + ": its faces differ from the mesh " +
                       args.positional[0] + " was built from (after --triangulate, if given)");
    linalg::Dense<T> P0(pose.vertex_count(), 3);
    for (index_t p = 0; p < P0.data.size(); ++p) P0.data[p] = static_cast<T>(pose.positions.data[p]);
    Stages stages;
    linalg::Dense<T> P = device == "cuda" ? replay_on_gpu<T>(r.R, P0, stages) : [&] {
      cpu::Executor exec;
      return replay<T>(exec, r.R, P0, stages);
    }();
    const auto out = std::filesystem::path(outdir) /
                     (std::filesystem::path(args.positional[k]).stem().string() + "." + format);
    meshops::write_mesh(out.string(), P, r.refined);
    fmt::print("{}: {} vertices, replay {:.3f} ms\n", out.string(), P.rows, stages.eval);
  }
  return 0;
}

template <template <class> class Command>
int by_precision(const Args& args) {
  const bool dbl = args.choice("--precision", {"float", "double"}) == "double";
  return dbl ? Command<double>::run(args) : Command<float>::run(args);
}
template <class T>
struct Subdivide {
  static int run(const Args& a) { return subdivide_as<T>(a); }
};
template <class T>
struct Build {
  static int run(const Args& a) { return build_as<T>(a); }
};
template <class T>
struct Replay {
  static int run(const Args& a) { return replay_as<T>(a); }
};

int dispatch(const std::string& command, const std::vector<std::string>& rest) {
  if (command == "info") return info(Args(rest, {}));
  if (command == "subdivide")
    return by_precision<Subdivide>(Args(rest, scheme_options, {"--dry-run"}));
  if (command == "build") return by_precision<Build>(Args(rest, scheme_options));
  if (command == "replay")
    return by_precision<Replay>(
        Args(rest, {"--output", "--device", "--precision", "--format", "--triangulate"}));
  fmt::print(stderr, "spmesh: unknown command '{}'\n{}", command, usage);
  return 2;
}

}  // namespace

}  // namespace spmesh::apps

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "-h" || args[0] == "--help") {
    std::fputs(spmesh::apps::usage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  try {
    return spmesh::apps::dispatch(command, args);
  } catch (const std::exception& e) {
    fmt::print(stderr, "spmesh {}: {}\n", command, e.what());
    return 1;
  }
}
