// The work behind `spmesh subdivide` on a volume mesh, written once over the executor and
// instantiated for the CPU (volume.cpp) and the GPU (pipeline_cuda.cu), as pipeline.hpp does for
// surfaces: host cells and positions in, host results out.
#pragma once

#include "apps/pipeline.hpp"
#include "solids/plan.hpp"

#include <optional>

namespace spmesh::apps {

// `levels` levels of Catmull-Clark solids on `exec` (solids::build_and_eval), with the input's
// sharp features where given. Stages: upload, build_and_eval, download.
template <class T, class Exec>
solids::SolidResult<T> refine_solid(Exec& exec, const solids::CellMesh<>& mesh, const linalg::Dense<T>& P0, int levels,
                                    const solids::RefineOptions& options,
                                    const std::optional<solids::SolidSharpness<>>& sharpness, Stages& stages) {
  using X = Transfer<Exec>;
  using S = typename Exec::space;
  auto t = std::chrono::steady_clock::now();
  solids::CellMesh<S> cells{mesh.vertices, X::up(mesh.offsets), X::up(mesh.indices)};
  linalg::Dense<T, S> P = X::up(P0);
  std::optional<solids::SolidSharpness<S>> sharp;
  if (sharpness) sharp = solids::SolidSharpness<S>{X::up(sharpness->edges), X::up(sharpness->vertices)};
  exec.synchronize();
  stages.upload += elapsed_ms(t);
  t = std::chrono::steady_clock::now();
  auto result = solids::build_and_eval(exec, std::move(cells), std::move(P), levels, options, std::move(sharp));
  exec.synchronize();
  stages.build_and_eval += elapsed_ms(t);
  t = std::chrono::steady_clock::now();
  auto down = [](linalg::Ternary<S>&& A) {
    return linalg::Ternary<>{A.rows, A.cols, on_host<X>(std::move(A.offsets)), on_host<X>(std::move(A.columns))};
  };
  auto& ops = result.last_parent;
  solids::SolidResult<T> out{{result.cells.vertices, on_host<X>(std::move(result.cells.offsets)),
                       on_host<X>(std::move(result.cells.indices))},
                      on_host<X>(std::move(result.positions)),
                      {down(std::move(ops.d3)), down(std::move(ops.d2)), down(std::move(ops.d1))}};
  stages.download += elapsed_ms(t);
  stages.peak_bytes = X::peak_bytes();
  return out;
}

}  // namespace spmesh::apps
