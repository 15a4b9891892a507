// The command line on volume meshes (Medit .mesh, VTK .vtk and .vtu, gmsh .msh): `subdivide` by
// Catmull-Clark solids on the CPU or the GPU, with the same checks before work as for surfaces
// (outputs, input, 32-bit sizes, host and GPU memory), `build` and `replay` of its refinement
// matrix, `limit` (at samples, or on a grid of samples a cell written as a volume mesh, either
// after refining on request) and `info`.
#include "apps/args.hpp"
#include "apps/commands.hpp"
#include "apps/host_memory.hpp"
#include "apps/picture.hpp"
#include "apps/poses.hpp"
#include "apps/progress.hpp"
#include "apps/report.hpp"
#include "apps/sample_lines.hpp"
#include "apps/transfer.hpp"
#include "apps/volume.hpp"
#include "apps/volume_pipeline.hpp"
#include "meshops/checks.hpp"
#include "meshops/io.hpp"
#include "meshops/tuning.hpp"
#include "schemes/size_estimate.hpp"
#include "solids/checks.hpp"
#include "solids/classes.hpp"
#include "solids/medit.hpp"
#include "solids/polyhedra.hpp"
#include "solids/refined_samples.hpp"
#include "solids/tuning.hpp"
#include "solids/volume_io.hpp"
#include "solids/refine.hpp"
#include "solids/sharpness.hpp"
#include "solids/size_estimate.hpp"
#include "solids/write.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>

namespace spmesh::apps {

namespace {

constexpr std::int64_t MiB = std::int64_t(1) << 20;

// Options of surfaces that mean nothing for a volume: refused by name rather than ignored.
void refuse_surface_options(const Args& args) {
  if (const auto scheme = args.get("--scheme"); scheme && *scheme != "ccsolid")
    throw Error("--scheme " + *scheme + ": a volume mesh is refined by Catmull-Clark solids (--scheme ccsolid)");
  for (const char* option : {"--triangulate", "--boundary"})
    if (args.get(option)) throw Error(std::string(option) + " does not apply to a volume mesh");
}

// The host memory subdivide takes at most on a volume: the input (the file read whole, what is
// parsed from it, the mesh), the largest level's refinement (solids::refine_bytes), the boundary
// surface, the picture's cut-away and the writer's buffers (two layout windows or two text
// batches, the stream's 1 MiB); the process,
// and an eighth more and 16 MiB for what the allocator keeps, as host_estimate does for surfaces.
std::int64_t volume_host_bytes(std::int64_t file_bytes, const std::vector<solids::SolidCounts>& levels,
                               int scalar_bytes, bool sharp, bool picture) {
  const auto& base = levels.front();
  const std::int64_t input = file_bytes + 2 * (4 * base.corners + 8 * base.cells) + 2 * 24 * base.vertices +
                             4 * (base.corners + base.cells + 1) + 24 * base.vertices;
  std::int64_t refine = 0;
  for (std::size_t l = 0; l + 1 < levels.size(); ++l)
    refine = std::max(refine, solids::refine_bytes(levels[l], scalar_bytes, 3, sharp));
  // --surface: the last level's boundary faces (at most all its faces: offsets, 4 corners each,
  // the flags and signs a face), a renumbering a vertex, and the positions in double.
  const auto& last = levels.back();
  const std::int64_t surface = 4 * (last.faces + 1) + 16 * last.faces + 8 * last.faces + 4 * last.vertices +
                               24 * last.vertices;
  const std::int64_t writer = surface + 2 * std::int64_t(std::max(meshops::tuning::layout_window_bytes,
                                                                  meshops::tuning::emit_batch_bytes)) + MiB;
  // --picture: the last level's operators and its cut-away surface (at most all its faces, and
  // a flag a cell), besides the result (its cells and data).
  const std::int64_t result = 4 * (last.cells + 1) + 4 * last.corners + std::int64_t(scalar_bytes) * 3 * last.vertices;
  const std::int64_t cut = picture ? result + solids::operator_bytes(last) + surface + last.cells : 0;
  const std::int64_t process = 8 * MiB, total = process + input + std::max(refine, cut) + writer;
  return total + total / 8 + 16 * MiB;
}

// CapacityError unless every array of refining levels 0..L-1 has fewer than 2^31 entries.
void check_capacity(const std::vector<solids::SolidCounts>& levels) {
  const std::int64_t limit = std::numeric_limits<index_t>::max();
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const auto& c = levels[l];
    const std::int64_t widest = std::max({3 * c.vertices, 8 * c.cells, 4 * c.cell_faces, 2 * c.edges, c.face_sides});
    if (widest > limit)
      throw CapacityError("Catmull-Clark solids level " + std::to_string(l) + " needs " + std::to_string(widest) +
                          " entries in one array, over the 32-bit index limit (" + std::to_string(limit) + ")");
  }
}

std::string available_text(const HostAvailable& a) {
  return a.bytes == std::numeric_limits<std::int64_t>::max()
             ? "no known limit"
             : fmt::format("{:.1f} MiB available ({})", a.bytes / 1048576.0, a.limit);
}

// Faces (offsets, corners: vertex ids of P) as a surface over only the vertices they use, in
// their order of first use.
template <class T>
meshops::PolyMesh compact_surface(const std::vector<index_t>& offsets, std::vector<index_t> corners,
                                  const linalg::Dense<T>& P) {
  std::vector<index_t> renumber(std::size_t(P.rows), -1), used;
  for (index_t& v : corners) {
    if (renumber[std::size_t(v)] < 0) renumber[std::size_t(v)] = index_t(used.size()), used.push_back(v);
    v = renumber[std::size_t(v)];
  }
  meshops::PolyMesh surface;
  surface.positions = linalg::Dense<double>(index_t(used.size()), 3);
  for (std::size_t u = 0; u < used.size(); ++u)
    for (index_t x = 0; x < 3; ++x) surface.positions(index_t(u), x) = double(P(used[u], x));
  surface.M = linalg::MeshMatrix<>(index_t(used.size()), linalg::Array<index_t>(offsets), linalg::Array<index_t>(corners));
  return surface;
}

// visit(f, cycle, sides) for each face of `ops` that exactly one kept cell holds (every cell kept
// where `removed` is empty: the boundary faces), turned outward from that cell: its vertices in
// order, and the edge from each to the next.
template <class Visit>
void outward_faces(const solids::BoundaryOperators<>& ops, const std::vector<char>& removed, Visit visit) {
  using linalg::column_of;
  using linalg::sign_of;
  std::vector<int> kept(std::size_t(ops.faces()), 0), sign(std::size_t(ops.faces()), 1);
  for (index_t c = 0; c < ops.cells(); ++c)
    if (removed.empty() || !removed[std::size_t(c)])
      for (index_t p = ops.d3.offsets[c]; p < ops.d3.offsets[c + 1]; ++p) {
        const auto f = std::size_t(column_of(ops.d3.columns[p]));
        ++kept[f], sign[f] = sign_of(ops.d3.columns[p]);
      }
  std::vector<index_t> cycle, sides;
  for (index_t f = 0; f < ops.faces(); ++f) {
    if (kept[std::size_t(f)] != 1) continue;  // between two kept cells, or in removed ones only
    cycle.clear(), sides.clear();
    for (index_t p = ops.d2.offsets[f]; p < ops.d2.offsets[f + 1]; ++p) {
      const index_t e = column_of(ops.d2.columns[p]);
      cycle.push_back(sign_of(ops.d2.columns[p]) > 0 ? column_of(ops.d1.columns[2 * e]) : ops.d1.columns[2 * e + 1]);
      sides.push_back(e);
    }
    if (sign[std::size_t(f)] < 0) {  // turned outward: the cycle reversed, each side then before its vertex
      std::reverse(cycle.begin(), cycle.end());
      std::reverse(sides.begin(), sides.end());
      std::rotate(sides.begin(), sides.begin() + 1, sides.end());
    }
    visit(f, cycle, sides);
  }
}

// The boundary surface of a level, each boundary face turned outward, over the vertices it uses
// (their positions taken from P). With `refined`, the surface of the next level instead: each
// boundary face of `ops`' level split into a quad at each corner (v, its next side's edge point,
// the face point, its previous side's edge point), in the refined vertex order [V, E, F, C].
template <class T>
meshops::PolyMesh boundary_surface(const solids::BoundaryOperators<>& ops, const linalg::Dense<T>& P, bool refined) {
  const index_t V = ops.vertices(), E = ops.edges();
  std::vector<index_t> offsets{0}, corners;
  outward_faces(ops, {}, [&](index_t f, const std::vector<index_t>& cycle, const std::vector<index_t>& sides) {
    const std::size_t k = cycle.size();
    if (!refined) {
      corners.insert(corners.end(), cycle.begin(), cycle.end());
      offsets.push_back(index_t(corners.size()));
      return;
    }
    for (std::size_t i = 0; i < k; ++i) {
      corners.insert(corners.end(), {cycle[i], V + sides[i], V + E + f, V + sides[(i + k - 1) % k]});
      offsets.push_back(index_t(corners.size()));
    }
  });
  return compact_surface(offsets, std::move(corners), P);
}

// The refined solid as a picture shows it: its boundary with the octant nearest the viewer
// (picture.hpp looks from +x, -y, +z) cut away, so that the cells inside show where the cut
// goes: the faces of the kept cells that are on the boundary or meet a removed cell.
template <class T>
meshops::PolyMesh cut_away(const solids::CellMesh<>& cells, const linalg::Dense<T>& P) {
  cpu::Executor exec;
  const auto ops = solids::boundary_operators(exec, cells);
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (index_t v = 0; v < P.rows; ++v)
    for (int x = 0; x < 3; ++x) lo[x] = std::min(lo[x], double(P(v, x))), hi[x] = std::max(hi[x], double(P(v, x)));
  std::vector<char> removed(std::size_t(cells.cells()));
  for (index_t c = 0; c < cells.cells(); ++c) {
    double centre[3] = {0, 0, 0};
    const index_t n = cells.offsets[c + 1] - cells.offsets[c];
    for (index_t p = cells.offsets[c]; p < cells.offsets[c + 1]; ++p)
      for (int x = 0; x < 3; ++x) centre[x] += double(P(cells.indices[p], x)) / double(n);
    const double middle[3] = {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
    removed[std::size_t(c)] = centre[0] > middle[0] && centre[1] < middle[1] && centre[2] > middle[2];
  }
  std::vector<index_t> offsets{0}, corners;
  outward_faces(ops, removed, [&](index_t, const std::vector<index_t>& cycle, const std::vector<index_t>&) {
    corners.insert(corners.end(), cycle.begin(), cycle.end());
    offsets.push_back(index_t(corners.size()));
  });
  return compact_surface(offsets, std::move(corners), P);
}

// The rule at vertices on one extraordinary edge line (--vertex-rule; solids/refine.hpp) and the
// decay of semi-sharp creases (--crease).
solids::RefineOptions refine_options(const Args& args) {
  solids::RefineOptions options;
  if (args.choice("--vertex-rule", {"tensor-product", "joy-maccracken"}) == "joy-maccracken")
    options.vertex_rule = solids::VertexRule::joy_maccracken;
  if (args.choice("--crease", {"uniform", "chaikin"}) == "chaikin") options.crease = schemes::CreaseMethod::chaikin;
  return options;
}

// The input's sharp features (solids/sharpness.hpp): Medit's Ridges and Corners, and its Edges
// (gmsh's curves) with --sharp-edges; none when it has none.
std::optional<solids::SolidSharpness<>> input_sharpness(const Args& args, const solids::VolumeMesh& mesh,
                                                         const solids::BoundaryOperators<>& ops, const std::string& input) {
  auto edges = mesh.ridges;
  if (args.get("--sharp-edges")) edges.insert(edges.end(), mesh.line_edges.begin(), mesh.line_edges.end());
  if (edges.empty() && mesh.corners.empty()) return std::nullopt;
  return solids::tagged_sharpness(ops, edges, mesh.corners, input);
}

// A volume input as every command reads it: the mesh, checked (solids::check_geometry), its
// operators, its sharp features, and the sizes of `levels` levels, checked against 32-bit
// indices.
struct VolumeInput {
  solids::VolumeMesh mesh;
  solids::BoundaryOperators<> ops;
  std::optional<solids::SolidSharpness<>> sharpness;
  std::vector<solids::SolidCounts> sizes;
};

VolumeInput read_volume_input(const Args& args, const std::string& input, int levels) {
  VolumeInput in;
  {
    Progress progress("reading " + input);
    in.mesh = out_of_memory_names(input + ": reading it", [&] { return solids::read_volume(input); });
  }
  solids::check_geometry(input, in.mesh.positions, in.mesh.cells);
  cpu::Executor cpu;
  in.ops = solids::boundary_operators(cpu, in.mesh.cells);
  in.sharpness = input_sharpness(args, in.mesh, in.ops, input);
  in.sizes = solids::solid_levels(in.ops, in.mesh.cells.indices.size(), levels);
  check_capacity(in.sizes);
  return in;
}

template <class T>
int subdivide_volume_as(const Args& args) {
  refuse_surface_options(args);
  const int levels = args.levels();
  const std::string input = args.positional.at(0), device = args.device();
  const solids::RefineOptions options = refine_options(args);
  const bool dry = args.get("--dry-run").has_value(), gpu = device == "cuda";
  meshops::OutputFiles outputs({input});
  std::string out;
  solids::VolumeFormat format{};
  const std::optional<std::string> surface = args.get("--surface"), picture = args.get("--picture");
  if (!dry) {
    out = args.need("--output");
    format = solids::volume_output_format(out);
    outputs.add(out);
    if (surface) meshops::output_format(*surface), outputs.add(*surface);
    if (picture) {
      if (std::filesystem::path(*picture).extension() != ".svg")
        throw Error(*picture + ": --picture writes SVG; give a path ending in .svg");
      outputs.add(*picture);
    }
  }
  // The GPU's context is made while the input is read (start_gpu).
  const auto context = gpu ? start_gpu() : std::future<void>();
  auto [mesh, input_ops, sharpness, sizes] = read_volume_input(args, input, levels);
  cpu::Executor cpu;
  const std::int64_t host =
      volume_host_bytes(std::int64_t(std::filesystem::file_size(input)), sizes, sizeof(T), sharpness.has_value(),
                        picture.has_value());
  // The GPU's: the largest level's refinement (with no level, the input's, as a bound) and the
  // margin surfaces have for the GPU's slabs of small arrays (schemes/size_estimate.hpp).
  std::int64_t device_bytes = solids::refine_bytes(sizes[0], sizeof(T), 3, sharpness.has_value());
  for (std::size_t l = 1; l + 1 < sizes.size(); ++l)
    device_bytes = std::max(device_bytes, solids::refine_bytes(sizes[l], sizeof(T), 3, sharpness.has_value()));
  device_bytes += schemes::SizeEstimate::margin;
  const HostAvailable available = host_available();
  if (gpu) context.wait();
  if (dry) {
    for (std::size_t l = 0; l < sizes.size(); ++l)
      fmt::print("level {}: {} vertices, {} edges, {} faces, {} cells\n", l, sizes[l].vertices, sizes[l].edges,
                 sizes[l].faces, sizes[l].cells);
    fmt::print("ccsolid on {}: about {:.1f} MiB of host memory, {}: {}\n", device, host / 1048576.0,
               available_text(available), host <= available.bytes ? "fits" : "does not fit");
    if (gpu) {
      const std::int64_t free = device_free_bytes();
      fmt::print("ccsolid on cuda: about {:.1f} MiB of GPU memory, {:.1f} MiB free: {}\n", device_bytes / 1048576.0,
                 free / 1048576.0, device_bytes <= free ? "fits" : "does not fit");
    }
    return 0;
  }
  if (host > available.bytes)
    throw CapacityError(fmt::format("{}: {} levels need about {:.1f} MiB of host memory; {:.1f} MiB is available ({})",
                                    input, levels, host / 1048576.0, available.bytes / 1048576.0, available.limit));
  if (gpu) check_device_memory(device_bytes);

  const index_t base_cells = mesh.cell_count(), base_vertices = mesh.vertex_count();
  linalg::Dense<T> P0(mesh.positions.rows, 3);
  for (index_t i = 0; i < P0.data.size(); ++i) P0.data[i] = static_cast<T>(mesh.positions.data[i]);
  Stages stages;
  const auto refined = [&] {
    Progress progress(fmt::format("{} levels of ccsolid on {}", levels, device));
    return gpu ? refine_solid_on_gpu(mesh.cells, P0, levels, options, sharpness, stages)
               : refine_solid(cpu, mesh.cells, P0, levels, options, sharpness, stages);
  }();
  mesh = {}, P0 = {};
  const auto& P = refined.positions;
  if (const index_t v = meshops::first_non_finite(P); v >= 0)
    throw InputError(fmt::format("{}: the result's vertex {} (0-based) is not finite{}; nothing written", input, v,
                                 std::is_same_v<T, float> ? " (the values overflow float: --precision double may help)" : ""));
  const auto w = std::chrono::steady_clock::now();
  {
    Progress progress("writing " + out);
    solids::write_volume(outputs, out, format, input, P, refined.cells);
    if (surface) {
      const auto boundary = boundary_surface(refined.last_parent, P, levels > 0);
      meshops::write_mesh(outputs, *surface, meshops::output_format(*surface), input, boundary.positions, boundary.M);
    }
    if (picture) {
      const auto shown = cut_away(refined.cells, P);
      outputs.write(*picture, [&](std::ostream& o) {
        write_picture(o, shown.positions, shown.M,
                      fmt::format("{}: ccsolid, {} levels, {} cells (an octant cut away)", input, levels,
                                  refined.cells.cells()));
      });
    }
    outputs.commit();
  }
  fmt::print("ccsolid {} levels on {}: {} -> {} cells, {} -> {} vertices; refine {:.2f} ms, write {:.2f} ms", levels,
             device, base_cells, refined.cells.cells(), base_vertices, P.rows, stages.build_and_eval, elapsed_ms(w));
  if (gpu)
    fmt::print("; upload {:.2f} ms, download {:.2f} ms, peak GPU memory {:.1f} MiB (estimate {:.1f} MiB)",
               stages.upload, stages.download, stages.peak_bytes / 1048576.0, device_bytes / 1048576.0);
  fmt::print("\n");
  return 0;
}


// The host memory a solid's build holds at most besides its input: R (solids::refinement_bytes,
// as if composed on the CPU) and the refined cells, with the process and allocator margins of
// volume_host_bytes.
std::int64_t build_host_bytes(const std::vector<solids::SolidCounts>& levels, int scalar_bytes) {
  const auto &last = levels.back();
  const std::int64_t total = 8 * MiB + solids::refinement_bytes(levels, scalar_bytes) + 4 * (last.cells + 1 + last.corners);
  return total + total / 8 + 16 * MiB;
}

void check_host(std::int64_t bytes, const std::string& what) {
  const HostAvailable available = host_available();
  if (bytes > available.bytes)
    throw CapacityError(fmt::format("{} needs about {:.1f} MiB of host memory; {:.1f} MiB is available ({})", what,
                                    bytes / 1048576.0, available.bytes / 1048576.0, available.limit));
}

template <class T>
int build_volume_as(const Args& args) {
  refuse_surface_options(args);
  const int levels = args.levels();
  const std::string input = args.positional.at(0), device = args.device(), out = args.need("--output");
  const solids::RefineOptions options = refine_options(args);
  const bool gpu = device == "cuda";
  meshops::OutputFiles outputs({input});
  outputs.add(out);
  const auto context = gpu ? start_gpu() : std::future<void>();
  const auto in = read_volume_input(args, input, levels);
  check_host(build_host_bytes(in.sizes, sizeof(T)), fmt::format("{}: R of {} levels", input, levels));
  if (gpu) {
    context.wait();
    check_device_memory(solids::refinement_bytes(in.sizes, sizeof(T)) + schemes::SizeEstimate::margin);
  }
  Stages stages;
  schemes::Refinement<T> r;
  {
    Progress progress(fmt::format("R of {} levels of ccsolid on {}", levels, device));
    cpu::Executor cpu;
    r = gpu ? build_solid_on_gpu<T>(in.mesh.cells, in.ops, options, in.sharpness, levels, stages)
            : build_solid_refinement<T>(cpu, in.mesh.cells, in.ops, options, in.sharpness, levels, stages);
  }
  {
    Progress progress("writing " + out);
    outputs.write(out, [&](std::ostream& o) { schemes::write_refinement(o, r); });
    outputs.commit();
  }
  const index_t rows = schemes::rows(r.R), nnz = schemes::nnz(r.R);
  const index_t stencils = std::visit([](const auto& R) { return R.stencils; }, r.R);
  fmt::print("ccsolid {} levels on {}: R is {} x {} with {} non-zeros ({:.1f} per row) in {} stencils; build {:.2f} "
             "ms, compose {:.2f} ms{}\n",
             levels, device, rows, schemes::cols(r.R), nnz, double(nnz) / std::max<index_t>(rows, 1), stencils,
             stages.build, stages.compose,
             gpu ? fmt::format(", peak GPU memory {:.1f} MiB", stages.peak_bytes / 1048576.0) : std::string());
  return 0;
}

// Throws InputError naming the pose unless its cells are the base cells.
// The pose's cells, polyhedra's faces included, are those R was built for.
template <class T>
void check_cells(const solids::CellMesh<>& pose, const schemes::Refinement<T>& r, const std::string& pose_path,
                 const std::string& refinement_path) {
  auto equal = [](const linalg::Array<index_t>& a, const linalg::Array<index_t>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  };
  const bool polyhedra = solids::first_polyhedron(pose) >= 0;
  const bool same = pose.vertices == r.base.vertices && equal(pose.offsets, r.base.offsets) &&
                    equal(pose.indices, r.base.indices) &&
                    (polyhedra ? equal(pose.face_offsets, r.base_face_offsets) &&
                                     equal(pose.face_streams, r.base_face_streams)
                               : r.base_face_streams.size() == 0);
  if (!same) throw InputError(pose_path + ": its cells differ from those " + refinement_path + " was built from");
}

template <class T>
int replay_volume_as(const Args& args) {
  const std::string device = args.device();
  if (args.get("--triangulate")) throw Error("--triangulate does not apply to a volume mesh");
  const std::string& refinement_path = args.positional[0];
  const std::vector<std::string> pose_paths(args.positional.begin() + 1, args.positional.end());
  const bool gpu = device == "cuda";
  meshops::OutputFiles outputs(args.positional);
  const auto out_paths = reserve_pose_outputs(args, args.choice("--format", {"vtu", "vtk", "mesh"}), outputs);
  const auto out_format = solids::volume_output_format(out_paths.front());
  // Host memory from the file's header, before any work: R as loaded, the base cells, the refined
  // cells and the plan their rebuild holds (about 4 times them), the poses, a product, the writer.
  const auto shape = schemes::refinement_shape(refinement_path);
  const std::int64_t R_bytes = shape.table * (shape.scalar_bytes + sizeof(T)) + shape.nnz * shape.column_bytes +
                               shape.rows * 12;
  const std::int64_t cell_bytes = 4 * (shape.base_faces + 1 + shape.base_corners) +
                                  5 * 4 * (shape.refined_faces + 1 + shape.refined_corners);
  const std::int64_t data_bytes = std::int64_t(sizeof(T)) * 3 * (std::int64_t(pose_paths.size()) * shape.base_vertices +
                                                                  shape.rows);
  check_host(R_bytes + cell_bytes + data_bytes + 2 * std::int64_t(meshops::tuning::layout_window_bytes) + 24 * MiB,
             refinement_path + ": replay");
  const auto context = gpu ? start_gpu() : std::future<void>();

  // R and the base cells; the refined cells rebuilt (and checked) where the replay runs.
  auto stored = [&] {
    Progress progress("loading " + refinement_path);
    return schemes::load_refinement_parts<T>(refinement_path);
  }();
  auto& r = stored.r;
  Stages rebuild;
  cpu::Executor cpu;
  if (gpu) context.wait();
  const auto cells = gpu ? rebuild_solid_on_gpu(r, stored.refined, rebuild)
                         : rebuild_solid_cells(cpu, r, stored.refined, rebuild);
  std::vector<linalg::Dense<T>> poses;
  for (const auto& path : pose_paths) {
    const auto pose = solids::read_volume(path);
    check_cells(pose.cells, r, path, refinement_path);
    solids::check_geometry(path, pose.positions, pose.cells);
    linalg::Dense<T> P0(pose.vertex_count(), 3);
    for (index_t p = 0; p < P0.data.size(); ++p) P0.data[p] = static_cast<T>(pose.positions.data[p]);
    poses.push_back(std::move(P0));
  }

  // Each product written as it comes; the outputs appear together at the end, or none.
  Stages stages;
  double write_ms = 0;
  auto write = [&](std::size_t k, linalg::Dense<T>&& P) {
    const auto w = std::chrono::steady_clock::now();
    if (const index_t v = meshops::first_non_finite(P); v >= 0)
      throw InputError(fmt::format("{}: the result's vertex {} (0-based) is not finite; nothing written",
                                   pose_paths[k], v));
    solids::write_volume(outputs, out_paths[k], out_format, pose_paths[k], P, cells);
    write_ms += elapsed_ms(w);
  };
  {
    Progress progress(fmt::format("replaying {} poses", poses.size()));
    if (gpu)
      replay_on_gpu<T>(r.R, poses, write, stages);
    else
      std::visit([&](const auto& R) { replay<T>(cpu, R, poses, write, stages); }, r.R);
  }
  outputs.commit();
  for (const auto& path : out_paths) fmt::print("{}\n", path);
  fmt::print("ccsolid replay of {} poses on {}, {} -> {} vertices: rebuild the refined cells {:.2f} ms, products "
             "{:.2f} ms, write {:.2f} ms\n",
             poses.size(), device, schemes::cols(r.R), schemes::rows(r.R), rebuild.build + rebuild.download,
             stages.eval, write_ms);
  return 0;
}

// The levels `spmesh limit --refine L` refines a volume before its limit is evaluated (none
// without it).
int refine_levels(const Args& args) { return args.get("--refine") ? args.levels("--refine") : 0; }

// For messages: " 2 levels down", "" for none.
std::string levels_down(int levels) {
  return levels ? fmt::format(" {} level{} down", levels, levels > 1 ? "s" : "") : "";
}

// Checks, before any work, that the limit at `samples` samples of the volume refined `levels`
// levels fits in the host's memory (and with `gpu` the GPU's), beside `output_bytes` of what is
// written: the refinement as subdivide holds it (volume_host_bytes, refine_bytes), the refined
// level's operators and nets (64 points a cell), and a sample's cell and parameters (on the
// host and on the executor: the CPU's a copy) with its position and three derivatives.
void check_limit_memory(const std::string& input, const std::vector<solids::SolidCounts>& sizes, int scalar_bytes,
                        bool sharp, std::int64_t samples, std::int64_t output_bytes, bool gpu) {
  const auto& last = sizes.back();
  // The nets, and the irregular cells' tables as made on the host and copied (at most twice the budget).
  const std::int64_t nets = solids::operator_bytes(last) + 4 * (solids::tricubic_net_points + 2) * last.cells +
                            2 * solids::tuning::irregular_table_bytes;
  const std::int64_t sample_in = 4 + 3 * 8, sample_out = 4 * 3 * std::int64_t(scalar_bytes);
  const std::string what = fmt::format("{}: the limit at {} samples of {} cells (level {})", input, samples, last.cells,
                                       sizes.size() - 1);
  check_host(volume_host_bytes(std::int64_t(std::filesystem::file_size(input)), sizes, scalar_bytes, sharp, false) +
                 nets + (2 * sample_in + sample_out) * samples + output_bytes,
             what);
  if (!gpu) return;
  std::int64_t device_bytes = 0;
  for (std::size_t l = 0; l + 1 < sizes.size(); ++l)
    device_bytes = std::max(device_bytes, solids::refine_bytes(sizes[l], scalar_bytes, 3, sharp));
  check_device_memory(device_bytes + nets + (sample_in + sample_out) * samples + schemes::SizeEstimate::margin);
}

// The limit on the device asked for (volume_pipeline.hpp's solid_limit_at).
template <class T>
SolidSampleLimits<T> solid_limit(const std::string& device, const VolumeInput& in, int levels,
                                 const solids::RefineOptions& options, const SampleChoice& choose, Stages& stages) {
  linalg::Dense<T> P0(in.mesh.positions.rows, 3);
  for (index_t i = 0; i < P0.data.size(); ++i) P0.data[i] = static_cast<T>(in.mesh.positions.data[i]);
  Progress progress(fmt::format("the limit of ccsolid{} on {}", levels_down(levels), device));
  if (device == "cuda") return solid_limit_on_gpu<T>(in.mesh.cells, P0, in.sharpness, levels, options, choose, stages);
  cpu::Executor exec;
  return solid_limit_at<T>(exec, in.mesh.cells, P0, in.sharpness, levels, options, choose, stages);
}

// spmesh limit VOLUME --at SAMPLES.txt -o OUT.txt [--refine L]: the solid's limit at each line's
// (cell, u, v, w), written a line a sample: x y z, then the u, v and w derivatives. With --refine
// the limit is evaluated L levels down, in the refined cell holding the sample
// (solids/refined_samples.hpp), and its derivatives turned back onto the input cell's u, v and w.
template <class T>
int limit_volume_at_as(const Args& args) {
  for (const char* option : {"--jacobian", "--evaluable-only"})
    if (args.get(option))
      throw Error(std::string(option) + " applies to --samples K (--at writes a line for each line it reads)");
  const std::string input = args.positional.at(0), device = args.device(), samples_path = args.need("--at"),
                    out = args.need("--output");
  const int levels = refine_levels(args);
  meshops::OutputFiles outputs({input, samples_path});
  check_sample_output(out);
  outputs.add(out);
  const auto context = device == "cuda" ? start_gpu() : std::future<void>();
  const auto in = read_volume_input(args, input, levels);
  const auto samples = meshops::read_samples(samples_path, in.mesh.cell_count(), true);
  auto by_line = [&](index_t s, const std::string& what) {
    return InputError(fmt::format("{}:{}: {}", samples_path, samples.lines[std::size_t(s)], what));
  };
  std::vector<solids::RefinedSample> refined;
  try {
    refined = solids::refined_samples(in.mesh.cells, samples.faces, samples.u, samples.v, samples.w, levels);
  } catch (const schemes::SampleError& e) {
    throw by_line(e.sample, e.what());
  }
  check_limit_memory(input, in.sizes, sizeof(T), in.sharpness.has_value(), std::int64_t(refined.size()), 0,
                     device == "cuda");
  meshops::Samples there;  // the samples on the refined level
  for (const auto& r : refined)
    there.faces.push_back(r.cell), there.u.push_back(r.at[0]), there.v.push_back(r.at[1]), there.w.push_back(r.at[2]);
  Stages stages;
  auto r = [&] {
    try {
      return solid_limit<T>(device, in, levels, refine_options(args),
                            [&](const std::vector<std::uint8_t>&) { return SampleSet{std::move(there), {}}; }, stages);
    } catch (const schemes::SampleError& e) {  // naming the refined cell and parameters
      throw by_line(e.sample, levels ? fmt::format("evaluated{}: {}", levels_down(levels), e.what()) : e.what());
    }
  }();
  solids::to_input_axes(refined, r.limits);
  const auto t = std::chrono::steady_clock::now();
  write_sample_lines(outputs, out, {&r.limits.position, &r.limits.du, &r.limits.dv, &r.limits.dw});
  fmt::print("ccsolid limit at {} samples{} on {}: {}, write {:.2f} ms\n", r.limits.position.rows,
             levels ? " (evaluated" + levels_down(levels) + ")" : "", device, summary(stages, device), elapsed_ms(t));
  return 0;
}

// --samples K: K >= 2 (the cell's corners at least), K^3 points within 32-bit indices.
int samples_per_axis(const Args& args) {
  const std::string text = args.need("--samples");
  int k = 0;
  if (!meshops::parse_number(text, k) || k < 2)
    throw InputError("--samples " + text + ": K x K x K samples a cell, at (i, j, k) / (K - 1), need a whole K of 2 "
                     "or more");
  const double limit = double(std::numeric_limits<index_t>::max());
  if (double(k) * k * k > limit)
    throw CapacityError(fmt::format("--samples {}: {}^3 samples a cell are over the 32-bit index limit ({})", k, k,
                                    std::int64_t(limit)));
  return k;
}

// The samples of each of `cells` on its K x K x K grid: (i, j, k) / (K - 1), i (along u) first
// (solids::limit_on_grids' order).
SampleSet grid_samples(const std::vector<index_t>& cells, int K) {
  SampleSet out;
  out.samples.faces = cells;
  for (int i = 0; i < K; ++i) out.grid.push_back(double(i) / (K - 1));
  return out;
}

// The (K - 1)^3 hexahedra of each of `cells` sample grids (grid_samples' points, K^3 a cell, in
// its order), in VTK's corner order along (u, v, w), so that they turn as their cell does.
solids::CellMesh<> grid_hexahedra(index_t cells, int K) {
  const index_t per_cell = K * K * K, hexahedra = cells * (K - 1) * (K - 1) * (K - 1);
  const index_t corner[8] = {0, 1, 1 + K, K, K * K, 1 + K * K, 1 + K + K * K, K + K * K};
  solids::CellMesh<> out{cells * per_cell, linalg::Array<index_t>(hexahedra + 1),
                         linalg::Array<index_t>(8 * hexahedra)};
  index_t h = 0;
  for (index_t c = 0; c < cells; ++c)
    for (int k = 0; k + 1 < K; ++k)
      for (int j = 0; j + 1 < K; ++j)
        for (int i = 0; i + 1 < K; ++i, ++h) {
          const index_t origin = c * per_cell + i + K * (j + K * k);
          out.offsets[h] = 8 * h;
          for (int l = 0; l < 8; ++l) out.indices[8 * h + l] = origin + corner[l];
        }
  out.offsets[hexahedra] = 8 * hexahedra;
  return out;
}

// The determinant of [du dv dw] at each sample: the Jacobian of the map from (u, v, w) to space.
template <class T>
std::vector<T> jacobians(const solids::CellLimits<T>& limits) {
  std::vector<T> out(std::size_t(limits.position.rows));
  for (index_t s = 0; s < limits.position.rows; ++s) {
    const double a[3] = {double(limits.du(s, 0)), double(limits.du(s, 1)), double(limits.du(s, 2))};
    const double b[3] = {double(limits.dv(s, 0)), double(limits.dv(s, 1)), double(limits.dv(s, 2))};
    const double c[3] = {double(limits.dw(s, 0)), double(limits.dw(s, 1)), double(limits.dw(s, 2))};
    out[std::size_t(s)] = T(a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
                            a[2] * (b[0] * c[1] - b[1] * c[0]));
  }
  return out;
}

// spmesh limit VOLUME --samples K -o OUT.vtu [--refine L] [--jacobian] [--evaluable-only]: the
// solid's limit on a K x K x K grid of samples in each cell (of level L with --refine), written as
// a volume mesh: K^3 points a cell, not shared, and the (K - 1)^3 hexahedra between them; in a
// .vtu each hexahedron's cell id ("cell") and with --jacobian each point's Jacobian. A cell
// without a net refuses the run unless --evaluable-only, which leaves such cells out.
template <class T>
int limit_volume_grid_as(const Args& args) {
  const std::string input = args.positional.at(0), device = args.device(), out = args.need("--output");
  const int levels = refine_levels(args), K = samples_per_axis(args);
  const bool jacobian = args.get("--jacobian").has_value(), evaluable_only = args.get("--evaluable-only").has_value();
  const solids::VolumeFormat format = solids::volume_output_format(out);
  if (jacobian && format != solids::VolumeFormat::vtu)
    throw InputError(out + ": --jacobian writes point data, which spmesh writes to .vtu only; give a path ending in "
                     ".vtu");
  meshops::OutputFiles outputs({input});
  outputs.add(out);
  const auto context = device == "cuda" ? start_gpu() : std::future<void>();
  const auto in = read_volume_input(args, input, levels);
  const std::int64_t cells = in.sizes.back().cells, per_cell = std::int64_t(K) * K * K;
  const std::int64_t corners = 8 * cells * (K - 1) * (K - 1) * (K - 1), limit = std::numeric_limits<index_t>::max();
  if (std::max(cells * per_cell, corners) > limit)
    throw CapacityError(fmt::format("{}: {} cells (level {}) of {}^3 samples are {} points and {} hexahedron corners, "
                                    "over the 32-bit index limit ({})",
                                    input, cells, levels, K, cells * per_cell, corners, limit));
  // The output: positions, a Jacobian a point, the hexahedra and a cell id each, the writer's copy.
  const std::int64_t output = cells * per_cell * (3 + 1) * std::int64_t(sizeof(T)) + corners * 4 +
                              cells * (K - 1) * (K - 1) * (K - 1) * (4 + 4 + 1);
  check_limit_memory(input, in.sizes, sizeof(T), in.sharpness.has_value(), cells * per_cell, output,
                     device == "cuda");
  std::vector<index_t> evaluated;
  index_t level_cells = 0;
  const SampleChoice choose = [&](const std::vector<std::uint8_t>& kinds) {
    level_cells = index_t(kinds.size());
    for (index_t c = 0; c < level_cells; ++c)
      if (kinds[std::size_t(c)] != solids::no_net) evaluated.push_back(c);
    if (evaluated.empty())
      throw InputError(fmt::format("{}: none of the {} cells{} has a net spmesh's limit evaluates yet (spmesh info "
                                   "names why): no sample to write",
                                   input, level_cells, levels ? fmt::format(" of level {}", levels) : ""));
    if (index_t(evaluated.size()) < level_cells && !evaluable_only) {
      const index_t first = index_t(std::find(kinds.begin(), kinds.end(), solids::no_net) - kinds.begin());
      throw InputError(fmt::format("{}: {} of the {} cells{} have no net spmesh's limit evaluates yet, the first cell "
                                   "{} (ids count from 0; spmesh info names why); --evaluable-only samples the "
                                   "others, --refine L leaves fewer",
                                   input, level_cells - index_t(evaluated.size()), level_cells,
                                   levels ? fmt::format(" of level {}", levels) : "", first));
    }
    return grid_samples(evaluated, K);
  };
  Stages stages;
  const auto r = [&] {
    try {
      return solid_limit<T>(device, in, levels, refine_options(args), choose, stages);
    } catch (const schemes::SampleError& e) {
      throw InputError(input + ": " + e.what());  // not expected: only cells with nets are sampled
    }
  }();
  const auto t = std::chrono::steady_clock::now();
  const auto hexahedra = grid_hexahedra(index_t(evaluated.size()), K);
  solids::VolumeData data;
  if (format == solids::VolumeFormat::vtu) {
    std::vector<std::int32_t> ids;
    ids.reserve(std::size_t(hexahedra.cells()));
    for (const index_t c : evaluated) ids.insert(ids.end(), std::size_t((K - 1) * (K - 1) * (K - 1)), std::int32_t(c));
    data.cells.push_back({"cell", std::move(ids)});
  }
  if (jacobian) data.points.push_back({"jacobian", jacobians(r.limits)});
  {
    Progress progress("writing " + out);
    solids::write_volume(outputs, out, format, input, r.limits.position, hexahedra, data);
    outputs.commit();
  }
  fmt::print("ccsolid limit at {}^3 samples in each of {} cells{} on {}: {} points, {} hexahedra; {}, write {:.2f} ms\n",
             K, evaluated.size(), levels ? fmt::format(" of level {}", levels) : "", device, r.limits.position.rows,
             hexahedra.cells(), summary(stages, device), elapsed_ms(t));
  if (index_t(evaluated.size()) < level_cells)
    fmt::print("skipped   {} cells with no net (--evaluable-only)\n", level_cells - index_t(evaluated.size()));
  return 0;
}

// spmesh limit on a volume: --at SAMPLES.txt or --samples K, one of them.
template <class T>
int limit_volume_as(const Args& args) {
  refuse_surface_options(args);
  for (const char* option : {"--tessellate", "--levels", "--approximate"})
    if (args.get(option))
      throw Error(std::string(option) + " does not apply to a volume mesh: spmesh limit on a volume takes --at " +
                  "SAMPLES.txt (a line 'cell u v w' a sample) or --samples K, and --refine L to refine first");
  const bool at = args.get("--at").has_value(), grid = args.get("--samples").has_value();
  if (at == grid)
    throw Error(std::string("a volume mesh's limit is taken --at SAMPLES.txt or on --samples K a cell: ") +
                (at ? "one of them, not both" : "give one of them"));
  return at ? limit_volume_at_as<T>(args) : limit_volume_grid_as<T>(args);
}

}  // namespace

bool is_volume_file(const std::string& path) { return solids::is_volume_file(path); }

void refuse_volume_options(const Args& args) {
  for (const char* option : {"--surface", "--vertex-rule", "--sharp-edges", "--samples", "--refine", "--jacobian",
                              "--evaluable-only"})
    if (args.get(option))
      throw Error(std::string(option) + " applies to volume meshes (.mesh, .vtk, .vtu, .msh); this input is a surface");
}

int subdivide_volume(const Args& args) {
  return args.dbl() ? subdivide_volume_as<double>(args) : subdivide_volume_as<float>(args);
}

int build_volume(const Args& args) {
  return args.dbl() ? build_volume_as<double>(args) : build_volume_as<float>(args);
}

int replay_volume(const Args& args) {
  return args.dbl() ? replay_volume_as<double>(args) : replay_volume_as<float>(args);
}

int limit_volume(const Args& args) {
  return args.dbl() ? limit_volume_as<double>(args) : limit_volume_as<float>(args);
}

int info_volume(const std::string& path) {
  const auto mesh = solids::read_volume(path);
  cpu::Executor exec;
  const auto ops = solids::boundary_operators(exec, mesh.cells);
  const auto t2 = linalg::transpose(exec, ops.d2), t3 = linalg::transpose(exec, ops.d3);
  std::map<index_t, index_t> kinds, valences;  // kinds by vertex count, 0 for polyhedra
  for (index_t c = 0; c < mesh.cell_count(); ++c) {
    const auto shape = mesh.cells.view().shape(c);
    ++kinds[shape.polyhedron() ? 0 : shape.corners];
  }
  index_t boundary_faces = 0;
  for (index_t f = 0; f < ops.faces(); ++f) boundary_faces += t3.offsets[f + 1] - t3.offsets[f] == 1;
  for (index_t e = 0; e < ops.edges(); ++e) ++valences[t2.offsets[e + 1] - t2.offsets[e]];
  const std::int64_t chi = std::int64_t(ops.vertices()) - ops.edges() + ops.faces() - ops.cells();
  fmt::print("mesh      {}\nvertices  {}\nedges     {}\nfaces     {}\ncells     {}\n", path, ops.vertices(), ops.edges(),
             ops.faces(), ops.cells());
  fmt::print("euler     {} (V - E + F - C)\nboundary  {} faces\n", chi, boundary_faces);
  std::string kind_text, valence_text;
  for (const auto& [corners, n] : kinds)
    kind_text += fmt::format(" {} {}", n,
                             corners == 0   ? "polyhedra"
                             : corners == 4 ? "tetrahedra"
                             : corners == 6 ? "prisms"
                                            : "hexahedra");
  for (const auto& [faces, n] : valences) valence_text += fmt::format(" {}:{}", faces, n);
  fmt::print("kinds    {}\nedge valences (faces around an edge: edges){}\n", kind_text, valence_text);
  // Seed 000's cell classes (solids/classes.hpp), with the file's Ridges and Corners.
  std::optional<solids::SolidSharpness<>> sharpness;
  if (!mesh.ridges.empty() || !mesh.corners.empty())
    sharpness = solids::tagged_sharpness(ops, mesh.ridges, mesh.corners, path);
  const auto classes = solids::classify_cells(mesh.cells, ops, sharpness ? &*sharpness : nullptr);
  fmt::print("extraordinary edges {} (not 4 faces inside, 3 on the boundary; sharp rims, infinitely sharp edges of 2 "
             "faces on the boundary, apart: {})\n",
             classes.extraordinary_edges, classes.sharp_rims);
  fmt::print("extraordinary vertices {} (two extraordinary edges meet there in a cell)\n",
             classes.extraordinary_vertices);
  std::string layered;
  for (const auto& [valence, n] : classes.layered) layered += fmt::format(" {} of valence {},", n, valence);
  fmt::print("cell classes: {} regular inside, {} regular at the boundary ({} at sharp rims), layered:{} {} irregular, "
             "{} not evaluable\n",
             classes.regular_interior, classes.regular_boundary, classes.regular_at_rims,
             layered.empty() ? " none," : layered, classes.irregular, classes.not_evaluable.size());
  // The nets as `spmesh limit` finds them (other sharp cells have none).
  const auto nets = solids::cell_nets(exec, mesh.cells, ops, sharpness ? &*sharpness : nullptr);
  const auto& k = nets.kinds;
  fmt::print("limit     {} cells with nets: {} tricubic inside, {} tricubic at the boundary ({} of them at sharp "
             "rims and corners or across a slab), {} at smooth rims, {} layered, {} irregular (`spmesh limit` "
             "evaluates these so far; --refine 1 makes most irregular cells self-similar)\n",
             nets.cells, std::count(k.begin(), k.end(), solids::inside_net),
             std::count_if(k.begin(), k.end(), solids::is_boundary_net),
             std::count_if(k.begin(), k.end(), solids::is_folded_net),
             std::count_if(k.begin(), k.end(), solids::is_rim_net),
             std::count_if(k.begin(), k.end(), solids::is_layered_net),
             std::count_if(k.begin(), k.end(), solids::is_irregular_net));
  std::map<std::string, std::vector<index_t>> unevaluable;
  for (const auto& [cell, reason] : classes.not_evaluable) unevaluable[reason].push_back(cell);
  for (const auto& [reason, cells] : unevaluable) {
    std::string named;
    for (std::size_t i = 0; i < std::min<std::size_t>(cells.size(), 8); ++i) named += fmt::format(" {}", cells[i]);
    fmt::print("not evaluable ({}): {} cells:{}{} (ids count from 0)\n", reason, cells.size(), named,
               cells.size() > 8 ? " ..." : "");
  }
  if (const auto unused = solids::unused_vertices(mesh.cells); !unused.empty())
    fmt::print("note     {} vertices in no cell (the first: {}; ids count from 0): refinement keeps them\n",
               unused.size(), unused.front());
  try {
    solids::check_geometry(path, mesh.positions, mesh.cells);
  } catch (const InputError& e) {
    fmt::print("problem  {}\n", e.what());
  }
  return 0;
}

}  // namespace spmesh::apps
