// The work behind `spmesh subdivide` on a volume mesh, written once over the executor and
// instantiated for the CPU (volume.cpp) and the GPU (pipeline_cuda.cu), as pipeline.hpp does for
// surfaces: host cells and positions in, host results out.
#pragma once

#include "apps/pipeline.hpp"
#include "solids/refine.hpp"

namespace spmesh::apps {

template <class T>
struct RefinedSolid {
  solids::CellMesh<> cells;
  linalg::Dense<T> positions;
  // The operators of the last level refined (of the input with no level): its boundary faces,
  // split, are the result's boundary.
  solids::BoundaryOperators<> last_parent;
};

// `levels` levels of Catmull-Clark solids on `exec`. Stages: upload, build (the boundary
// operators of each level), eval (each level's refinement), download.
template <class T, class Exec>
RefinedSolid<T> refine_solid(Exec& exec, const solids::CellMesh<>& mesh, const linalg::Dense<T>& P0, int levels,
                             const solids::RefineOptions& options, Stages& stages) {
  using X = Transfer<Exec>;
  using S = typename Exec::space;
  auto t = std::chrono::steady_clock::now();
  solids::CellMesh<S> cells{mesh.vertices, X::up(mesh.offsets), X::up(mesh.indices)};
  linalg::Dense<T, S> P = X::up(P0);
  exec.synchronize();
  stages.upload += elapsed_ms(t);
  solids::BoundaryOperators<S> ops;
  auto build = [&] {
    t = std::chrono::steady_clock::now();
    ops = solids::boundary_operators(exec, cells);
    exec.synchronize();
    stages.build += elapsed_ms(t);
  };
  build();
  for (int l = 0; l < levels; ++l) {
    if (l > 0) build();
    t = std::chrono::steady_clock::now();
    auto next = solids::refine(exec, cells, ops, P, options);
    exec.synchronize();
    stages.eval += elapsed_ms(t);
    cells = std::move(next.cells), P = std::move(next.positions);
  }
  t = std::chrono::steady_clock::now();
  auto down = [](linalg::Ternary<S>&& A) {
    return linalg::Ternary<>{A.rows, A.cols, on_host<X>(std::move(A.offsets)), on_host<X>(std::move(A.columns))};
  };
  RefinedSolid<T> out{{cells.vertices, on_host<X>(std::move(cells.offsets)), on_host<X>(std::move(cells.indices))},
                      on_host<X>(std::move(P)),
                      {down(std::move(ops.d3)), down(std::move(ops.d2)), down(std::move(ops.d1))}};
  stages.download += elapsed_ms(t);
  stages.peak_bytes = X::peak_bytes();
  return out;
}

}  // namespace spmesh::apps
