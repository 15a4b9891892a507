// spmesh replay: P_L = R P_0 for each pose, from a saved refinement. R is loaded and (on the
// GPU) uploaded once; every pose is read and checked, and every output path reserved, before the
// first product, so a bad pose leaves no output; the outputs appear together at the end.
#include "apps/args.hpp"
#include "apps/commands.hpp"
#include "apps/input.hpp"
#include "apps/transfer.hpp"
#include "apps/report.hpp"
#include "meshops/checks.hpp"
#include "meshops/io.hpp"

#include <algorithm>
#include <filesystem>
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

template <class T>
int replay_as(const Args& args) {
  if (args.positional.size() < 2) throw Error("replay takes a refinement file and poses");
  const std::string outdir = args.need("--output"), device = args.device();
  const std::string format = args.choice("--format", {"obj", "ply"});
  if (!std::filesystem::is_directory(outdir)) throw Error(outdir + ": not a directory");
  const std::string& refinement_path = args.positional[0];
  const std::vector<std::string> pose_paths(args.positional.begin() + 1, args.positional.end());

  // Every output reserved before any work: none is an input or another pose's output.
  meshops::OutputFiles outputs(args.positional);
  std::vector<std::string> out_paths;
  for (const auto& pose : pose_paths) {
    out_paths.push_back(
        (std::filesystem::path(outdir) / (std::filesystem::path(pose).stem().string() + "." + format))
            .string());
    outputs.add(out_paths.back());
  }
  const auto out_format = meshops::output_format(out_paths.front());

  auto t = std::chrono::steady_clock::now();
  const auto r = schemes::load_refinement<T>(refinement_path);
  const double load_ms = elapsed_ms(t);

  t = std::chrono::steady_clock::now();
  std::vector<linalg::Dense<T>> poses;
  poses.reserve(pose_paths.size());
  for (const auto& path : pose_paths) {
    auto pose = meshops::read_mesh(path);
    if (const auto how = triangulation(args)) pose = meshops::triangulate(pose, *how);
    meshops::check_mesh(pose);
    check_topology(pose, r.base, path, refinement_path);
    linalg::Dense<T> P0(pose.vertex_count(), 3);
    for (index_t p = 0; p < P0.data.size(); ++p) P0.data[p] = static_cast<T>(pose.positions.data[p]);
    poses.push_back(std::move(P0));
  }
  const double read_ms = elapsed_ms(t);

  Stages stages;
  double write_ms = 0;
  auto write = [&](std::size_t k, linalg::Dense<T>&& P) {
    const auto w = std::chrono::steady_clock::now();
    outputs.write(out_paths[k], [&](std::ostream& out) {
      meshops::write_mesh(out, out_format, pose_paths[k], P, r.refined);
    });
    write_ms += elapsed_ms(w);
  };
  if (device == "cuda") {
    replay_on_gpu<T>(r.R, poses, write, stages);
  } else {
    cpu::Executor exec;
    std::visit([&](const auto& R) { replay<T>(exec, R, poses, write, stages); }, r.R);
  }
  t = std::chrono::steady_clock::now();
  outputs.commit();
  write_ms += elapsed_ms(t);
  for (const auto& out : out_paths) fmt::print("{}\n", out);
  fmt::print("{} poses, {} vertices each: load {:.1f} ms, read and check {:.1f} ms, product {:.1f} ms, "
             "write {:.1f} ms; {}\n",
             poses.size(), schemes::rows(r.R), load_ms, read_ms, stages.eval, write_ms,
             summary(stages, device));
  return 0;
}

}  // namespace

int replay_command(const Args& args) {
  return args.dbl() ? replay_as<double>(args) : replay_as<float>(args);
}

}  // namespace spmesh::apps
