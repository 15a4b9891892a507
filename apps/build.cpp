// spmesh build: the refinement matrix R of L levels, saved for replay.
#include "apps/args.hpp"
#include "apps/commands.hpp"
#include "apps/input.hpp"
#include "apps/transfer.hpp"
#include "apps/report.hpp"

#include <fmt/format.h>

namespace spmesh::apps {

namespace {

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

}  // namespace

int build_command(const Args& args) {
  return args.dbl() ? build_as<double>(args) : build_as<float>(args);
}

}  // namespace spmesh::apps
