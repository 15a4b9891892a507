// spmesh replay: P_L = R P_0 for each pose, from a saved refinement.
#include "apps/args.hpp"
#include "apps/commands.hpp"
#include "apps/input.hpp"
#include "apps/transfer.hpp"
#include "apps/report.hpp"
#include "meshops/checks.hpp"
#include "meshops/io.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

namespace spmesh::apps {

namespace {

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

}  // namespace

int replay_command(const Args& args) {
  return args.dbl() ? replay_as<double>(args) : replay_as<float>(args);
}

}  // namespace spmesh::apps
