// spmesh build: the refinement matrix R of L levels, encoded as a stencil table and saved for
// replay (schemes/refinement_file.hpp).
#include "apps/args.hpp"
#include "apps/commands.hpp"
#include "apps/input.hpp"
#include "apps/progress.hpp"
#include "apps/transfer.hpp"
#include "apps/volume.hpp"
#include "apps/report.hpp"
#include "meshops/output.hpp"

#include <algorithm>
#include <variant>

#include <fmt/format.h>

namespace spmesh::apps {

namespace {

template <class T>
int build_as(const Args& args) {
  const int levels = args.levels();
  const std::string out = args.need("--output"), device = args.choice("--device", {"cpu", "cuda"});
  meshops::OutputFiles outputs({args.positional.empty() ? std::string() : args.positional[0]});
  outputs.add(out);  // checked before any work: never the input, a folder, ...
  const auto gpu_started = device == "cuda" ? start_gpu() : std::future<void>();
  const Input in = read_input(args, levels, false, true);
  Stages stages;
  schemes::Refinement<T> r;
  {
    Progress progress(fmt::format("R of {} levels of {} on {}", levels, in.scheme, device));
    if (device == "cuda") {
      r = build_on_gpu<T>(in.scheme, in.mesh, in.tags.sharpness, in.options, levels, stages);
    } else {
      cpu::Executor exec;
      r = with_scheme(in.scheme, [&]<class Scheme>() {
        return build_refinement<T, Scheme>(exec, in.mesh, in.tags.sharpness, in.options, levels,
                                           stages);
      });
    }
  }
  r.holes = in.tags.holes;  // replay leaves their descendants out, as subdivide does
  {
    Progress progress("writing " + out);
    outputs.write(out, [&](std::ostream& o) { schemes::write_refinement(o, r); });
    outputs.commit();
  }
  const index_t rows = schemes::rows(r.R), nnz = schemes::nnz(r.R);
  const index_t stencils = std::visit([](const auto& R) { return R.stencils; }, r.R);
  fmt::print("{} {} levels on {}: R is {} x {} with {} non-zeros ({:.1f} per row) in {} stencils; {}\n",
             in.scheme, levels, device, rows, schemes::cols(r.R), nnz,
             double(nnz) / std::max<index_t>(rows, 1), stencils, summary(stages, device));
  return 0;
}

}  // namespace

int build_command(const Args& args) {
  if (is_volume_file(args.positional.at(0))) return build_volume(args);
  refuse_volume_options(args);
  return args.dbl() ? build_as<double>(args) : build_as<float>(args);
}

}  // namespace spmesh::apps
