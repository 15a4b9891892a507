// spmesh replay: P_L = R P_0 for each pose, from a saved refinement. R is loaded and (on the
// GPU) uploaded once, the refined mesh rebuilt where the replay runs and its faces encoded once;
// every pose is read and checked, and every output path reserved, before the first product, so
// a bad pose leaves no output; each output is written (with every thread) while the next product
// is computed, and they appear together at the end.
#include "apps/args.hpp"
#include "apps/commands.hpp"
#include "apps/host_memory.hpp"
#include "apps/input.hpp"
#include "apps/poses.hpp"
#include "apps/progress.hpp"
#include "apps/transfer.hpp"
#include "apps/volume.hpp"
#include "apps/report.hpp"
#include "meshops/checks.hpp"
#include "meshops/io.hpp"
#include "meshops/tuning.hpp"
#include "schemes/holes.hpp"

#include <algorithm>
#include <filesystem>
#include <future>
#include <optional>
#include <vector>

#include <fmt/format.h>

namespace spmesh::apps {

namespace {

// Throws InputError naming the pose unless its faces are the base mesh's.
void check_topology(const meshops::PolyMesh& pose, const linalg::MeshMatrix<>& base,
                    const std::string& pose_path, const std::string& refinement_path) {
  const bool same = pose.vertex_count() == base.vertices && pose.M.faces == base.faces &&
                    pose.M.nnz() == base.nnz() &&
                    std::equal(pose.M.offsets.begin(), pose.M.offsets.end(), base.offsets.begin()) &&
                    std::equal(pose.M.indices.begin(), pose.M.indices.end(), base.indices.begin());
  if (!same)
    throw InputError(pose_path + ": its faces differ from the mesh " + refinement_path +
                     " was built from (after --triangulate, if given)");
}

// The most host memory replay holds at once, from the file's header before any work: R as
// loaded (its arrays and the stored stencil ids read on the way), the base mesh, the refined
// mesh and, on the CPU, the plan its rebuild holds (about 4 times the refined mesh: the
// refined levels' topology), the poses, two products (one being written, the next computed),
// the encoded faces, and the writer's buffers: the text of a pose being formatted (OBJ) or two
// layout windows (PLY: meshops/layout.hpp).
std::int64_t replay_host_bytes(const schemes::RefinementShape& s, std::size_t poses,
                               int scalar_bytes, bool on_gpu, meshops::MeshFormat format) {
  const std::int64_t R = s.table * (s.scalar_bytes + scalar_bytes) + s.nnz * s.column_bytes +
                         s.rows * (4 + 4 + 4);
  const std::int64_t base = 4 * (s.base_faces + 1 + s.base_corners + s.base_vertices);
  const std::int64_t refined = 4 * (s.refined_faces + 1 + s.refined_corners);
  const std::int64_t rebuild = on_gpu ? refined : 4 * refined;
  const std::int64_t pose = 3 * scalar_bytes * s.base_vertices, product = 3 * scalar_bytes * s.rows;
  const bool ply = format == meshops::MeshFormat::ply;
  const std::int64_t faces = ply ? 4 * (s.refined_faces + s.refined_corners)
                                 : 2 * s.refined_faces + 11 * s.refined_corners;
  const std::int64_t writer = ply ? 2 * std::int64_t(meshops::tuning::layout_window_bytes) : 80 * s.rows;
  return R + base + refined + rebuild + std::int64_t(poses) * pose + 2 * product + faces + writer;
}

// Host memory for the whole replay, or a CapacityError naming both sizes before any work.
void check_host_memory(std::int64_t bytes, const std::string& refinement_path) {
  const HostAvailable available = host_available();
  if (bytes > available.bytes)
    throw CapacityError(refinement_path + ": replay needs about " + std::to_string(bytes >> 20) +
                        " MiB of host memory, " + std::to_string(available.bytes >> 20) +
                        " MiB are available (" + available.limit + ")");
}

// Each pose's vertex positions as T, read and checked against the base mesh.
template <class T>
std::vector<linalg::Dense<T>> read_poses(const Args& args, const std::vector<std::string>& paths,
                                         const linalg::MeshMatrix<>& base,
                                         const std::string& refinement_path) {
  std::vector<linalg::Dense<T>> poses;
  poses.reserve(paths.size());
  for (const auto& path : paths) {
    auto pose = meshops::read_mesh(path);
    if (const auto how = triangulation(args)) pose = meshops::triangulate(pose, *how);
    meshops::check_mesh(pose);
    check_topology(pose, base, path, refinement_path);
    linalg::Dense<T> P0(pose.vertex_count(), 3);
    for (index_t p = 0; p < P0.data.size(); ++p) P0.data[p] = static_cast<T>(pose.positions.data[p]);
    poses.push_back(std::move(P0));
  }
  return poses;
}

template <class T>
int replay_as(const Args& args) {
  const std::string device = args.device();
  const std::string& refinement_path = args.positional[0];
  const std::vector<std::string> pose_paths(args.positional.begin() + 1, args.positional.end());
  const bool on_gpu = device == "cuda";
  meshops::OutputFiles outputs(args.positional);
  const auto out_paths = reserve_pose_outputs(args, args.choice("--format", {"obj", "ply"}), outputs);
  const auto out_format = meshops::output_format(out_paths.front());
  check_host_memory(replay_host_bytes(schemes::refinement_shape(refinement_path), pose_paths.size(),
                                      sizeof(T), on_gpu, out_format),
                    refinement_path);

  // Load R and the base mesh; rebuild the refined mesh on the GPU, or on the CPU while the
  // poses are read; then encode its faces once for every output.
  const auto gpu_started = on_gpu ? start_gpu() : std::future<void>();
  std::optional<Progress> progress(std::in_place, "loading " + refinement_path);
  auto t = std::chrono::steady_clock::now();
  auto stored = schemes::load_refinement_parts<T>(refinement_path);
  auto& r = stored.r;
  const auto& refined_check = stored.refined;
  const double load_ms = elapsed_ms(t);
  Stages rebuild;
  t = std::chrono::steady_clock::now();
  std::future<linalg::MeshMatrix<>> rebuilt;
  if (on_gpu) {
    r.refined = rebuild_refined_on_gpu(r, refined_check, rebuild);
  } else {
    rebuilt = std::async(std::launch::async, [&] {
      cpu::Executor exec;
      return rebuild_refined(exec, r, refined_check, rebuild);
    });
  }
  const auto t_read = std::chrono::steady_clock::now();
  auto poses = read_poses<T>(args, pose_paths, r.base, refinement_path);
  const double read_ms = elapsed_ms(t_read);
  if (rebuilt.valid()) r.refined = rebuilt.get();
  const double rebuild_ms = elapsed_ms(t);
  t = std::chrono::steady_clock::now();
  // What is written leaves the holes' descendants out (the products keep every refined vertex).
  const auto kept = r.holes.empty() ? linalg::MeshMatrix<>()
                                    : schemes::without_holes(r.scheme, r.refined.clone(), r.base, r.holes, r.levels);
  const auto faces = meshops::encode_faces(out_format, refinement_path, r.holes.empty() ? r.refined : kept);
  const double encode_ms = elapsed_ms(t);

  // Each product is written as it comes, with every thread, while the next one is computed.
  Stages stages;
  std::future<void> writing;
  double wait_ms = 0;
  auto write = [&](std::size_t k, linalg::Dense<T>&& P) {
    const auto w = std::chrono::steady_clock::now();
    if (writing.valid()) writing.get();
    wait_ms += elapsed_ms(w);
    writing = std::async(std::launch::async, [&, k, P = std::move(P)] {
      meshops::write_mesh(outputs, out_paths[k], pose_paths[k], P, faces);
    });
  };
  progress.emplace(fmt::format("replaying {} poses", poses.size()));
  const auto t_products = std::chrono::steady_clock::now();
  if (on_gpu) {
    replay_on_gpu<T>(r.R, poses, write, stages);
  } else {
    cpu::Executor exec;
    std::visit([&](const auto& R) { replay<T>(exec, R, poses, write, stages); }, r.R);
  }
  t = std::chrono::steady_clock::now();
  if (writing.valid()) writing.get();
  outputs.commit();
  wait_ms += elapsed_ms(t);
  const double products_and_writes_ms = elapsed_ms(t_products);
  progress.reset();
  for (const auto& out : out_paths) fmt::print("{}\n", out);
  fmt::print("{} poses, {} vertices each: load {:.1f} ms, rebuild the refined mesh {:.1f} ms "
             "(build {:.1f}, download {:.1f}; on the {}), read and check {:.1f} ms, encode the "
             "faces {:.1f} ms, products and writes {:.1f} ms (product {:.1f}, waiting for writes "
             "{:.1f}); {}\n",
             poses.size(), schemes::rows(r.R), load_ms, rebuild_ms, rebuild.build,
             rebuild.download, on_gpu ? "GPU" : "CPU, alongside reading", read_ms, encode_ms,
             products_and_writes_ms, stages.eval, wait_ms, summary(stages, device));
  return 0;
}

}  // namespace

std::vector<std::string> reserve_pose_outputs(const Args& args, const std::string& format,
                                              meshops::OutputFiles& outputs) {
  const std::string outdir = args.need("--output");
  if (!std::filesystem::is_directory(outdir)) throw Error(outdir + ": not a directory");
  std::vector<std::string> out_paths;
  for (auto pose = args.positional.begin() + 1; pose != args.positional.end(); ++pose) {
    out_paths.push_back(
        (std::filesystem::path(outdir) / (std::filesystem::path(*pose).stem().string() + "." + format)).string());
    outputs.add(out_paths.back());
  }
  return out_paths;
}

int replay_command(const Args& args) {
  if (schemes::refinement_shape(args.positional.at(0)).scheme == schemes::solid_scheme) return replay_volume(args);
  return args.dbl() ? replay_as<double>(args) : replay_as<float>(args);
}

}  // namespace spmesh::apps
