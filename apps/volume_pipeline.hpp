// The work behind `spmesh subdivide`, `build` and `replay` on a volume mesh, written once over
// the executor and instantiated for the CPU (volume.cpp) and the GPU (pipeline_cuda.cu), as
// pipeline.hpp does for surfaces: host cells and positions in, host results out.
#pragma once

#include "apps/pipeline.hpp"
#include "meshops/samples.hpp"
#include "solids/limit_at.hpp"
#include "solids/limit_on_grids.hpp"
#include "solids/plan.hpp"
#include "solids/refinement.hpp"
#include "solids/refinement_file.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace spmesh::apps {

// Host cells on the executor, and back.
template <class X, class S>
solids::CellMesh<S> cells_up(const solids::CellMesh<>& cells) {
  return {cells.vertices, X::up(cells.offsets), X::up(cells.indices), X::up(cells.face_offsets),
          X::up(cells.face_streams)};
}
template <class X, class S>
solids::CellMesh<> cells_down(solids::CellMesh<S>&& cells) {
  return {cells.vertices, on_host<X>(std::move(cells.offsets)), on_host<X>(std::move(cells.indices)),
          on_host<X>(std::move(cells.face_offsets)), on_host<X>(std::move(cells.face_streams))};
}
template <class X, class S>
std::optional<solids::SolidSharpness<S>> sharpness_up(const std::optional<solids::SolidSharpness<>>& sharpness) {
  if (!sharpness) return std::nullopt;
  return solids::SolidSharpness<S>{X::up(sharpness->edges), X::up(sharpness->vertices)};
}
template <class X, class S>
std::optional<solids::SolidSharpness<>> sharpness_down(std::optional<solids::SolidSharpness<S>>&& sharpness) {
  if (!sharpness) return std::nullopt;
  return solids::SolidSharpness<>{on_host<X>(std::move(sharpness->edges)), on_host<X>(std::move(sharpness->vertices))};
}

// `levels` levels of Catmull-Clark solids on `exec` (solids::build_and_eval), with the input's
// sharp features where given, left in the executor's memory. Stages: upload, build_and_eval.
template <class T, class Exec, class S = typename Exec::space>
solids::SolidResult<T, S> refine_on(Exec& exec, const solids::CellMesh<>& mesh, const linalg::Dense<T>& P0,
                                    int levels, const solids::RefineOptions& options,
                                    const std::optional<solids::SolidSharpness<>>& sharpness, Stages& stages) {
  using X = Transfer<Exec>;
  auto t = std::chrono::steady_clock::now();
  auto cells = cells_up<X, S>(mesh);
  linalg::Dense<T, S> P = X::up(P0);
  auto sharp = sharpness_up<X, S>(sharpness);
  exec.synchronize();
  stages.upload += elapsed_ms(t);
  t = std::chrono::steady_clock::now();
  auto result = solids::build_and_eval(exec, std::move(cells), std::move(P), levels, options, std::move(sharp));
  exec.synchronize();
  stages.build_and_eval += elapsed_ms(t);
  return result;
}

// The same on the host. Stages: upload, build_and_eval, download.
template <class T, class Exec>
solids::SolidResult<T> refine_solid(Exec& exec, const solids::CellMesh<>& mesh, const linalg::Dense<T>& P0, int levels,
                                    const solids::RefineOptions& options,
                                    const std::optional<solids::SolidSharpness<>>& sharpness, Stages& stages) {
  using X = Transfer<Exec>;
  using S = typename Exec::space;
  auto result = refine_on(exec, mesh, P0, levels, options, sharpness, stages);
  const auto t = std::chrono::steady_clock::now();
  auto down = [](linalg::Ternary<S>&& A) {
    return linalg::Ternary<>{A.rows, A.cols, on_host<X>(std::move(A.offsets)), on_host<X>(std::move(A.columns))};
  };
  auto& ops = result.last_parent;
  solids::SolidResult<T> out{cells_down<X>(std::move(result.cells)), on_host<X>(std::move(result.positions)),
                             {down(std::move(ops.d3)), down(std::move(ops.d2)), down(std::move(ops.d1))},
                             sharpness_down<X>(std::move(result.sharpness))};
  stages.download += elapsed_ms(t);
  stages.peak_bytes = X::peak_bytes();
  return out;
}

// The refinement matrix R of `levels` levels of a solid on `exec` (solids::build, then
// refinement_matrix, encoded as a stencil table), on the host as the record save_refinement
// writes; `ops` are the input's operators (they number its sharp edges). Stages: build, compose.
template <class T, class Exec>
schemes::Refinement<T> build_solid_refinement(Exec& exec, const solids::CellMesh<>& mesh,
                                              const solids::BoundaryOperators<>& ops,
                                              const solids::RefineOptions& options,
                                              const std::optional<solids::SolidSharpness<>>& sharpness, int levels,
                                              Stages& stages) {
  using X = Transfer<Exec>;
  using S = typename Exec::space;
  auto t = std::chrono::steady_clock::now();
  auto plan = solids::build(exec, cells_up<X, S>(mesh), levels, options, sharpness_up<X, S>(sharpness));
  exec.synchronize();
  stages.build = elapsed_ms(t);
  t = std::chrono::steady_clock::now();
  auto encoded = schemes::encode_refinement(exec, solids::refinement_matrix<T>(exec, plan));
  auto R = std::visit([&](auto& A) -> schemes::RefinementMatrix<T> { return on_host<X>(std::move(A)); }, encoded);
  exec.synchronize();
  stages.compose = elapsed_ms(t);
  stages.peak_bytes = X::peak_bytes();
  return solids::refinement_record<T>(mesh, ops, sharpness, options, levels, std::move(R),
                                      cells_down<X>(std::move(plan.refined)));
}

// A stored solid refinement's refined cells rebuilt on `exec` (solids::stored_solid's checks,
// then solids::build), on the host and checked against the file's hash. Stages: build, download.
template <class T, class Exec>
solids::CellMesh<> rebuild_solid_cells(Exec& exec, const schemes::Refinement<T>& r,
                                       const schemes::RefinedMeshCheck& check, Stages& stages) {
  using X = Transfer<Exec>;
  using S = typename Exec::space;
  auto stored = solids::stored_solid(r, check);
  auto t = std::chrono::steady_clock::now();
  auto plan = solids::build(exec, cells_up<X, S>(stored.base), r.levels, stored.options,
                            sharpness_up<X, S>(stored.sharpness));
  exec.synchronize();
  stages.build += elapsed_ms(t);
  t = std::chrono::steady_clock::now();
  auto refined = solids::as_stored(cells_down<X>(std::move(plan.refined)));
  stages.download += elapsed_ms(t);
  check.check(refined);
  return solids::as_cells(std::move(refined));
}

// The samples to evaluate on a solid's refined level, chosen from its cells' kinds of net
// (solids::cell_nets: no_net where the limit is not evaluated): (cell, u, v, w) of that level, or
// the K^3 samples (grid[i], grid[j], grid[l]) in each of `samples.faces` (solids::limit_on_grids)
// where `grid` holds K parameters.
struct SampleSet {
  meshops::Samples samples;
  std::vector<double> grid;
};
using SampleChoice = std::function<SampleSet(const std::vector<std::uint8_t>& kinds)>;

template <class T>
struct SolidSampleLimits {
  SampleSet samples;             // those `choose` gave
  solids::CellLimits<T> limits;  // a row a sample: the position, the u, v and w derivatives
};

// The limit of a solid (with its sharp features where given) refined `levels` levels
// (solids::build_and_eval; none: the input) at the samples `choose` picks on that level, on
// `exec` (solids::cell_nets, then limit_at_cells or limit_on_grids), on the host;
// schemes::SampleError names the first sample not evaluated (its index in the samples, a grid's
// samples counted cell after cell). Stages: upload, build_and_eval (the levels), build (the
// refined level's operators and nets), eval, download.
template <class T, class Exec>
SolidSampleLimits<T> solid_limit_at(Exec& exec, const solids::CellMesh<>& mesh, const linalg::Dense<T>& P0,
                                    const std::optional<solids::SolidSharpness<>>& sharpness, int levels,
                                    const solids::RefineOptions& options, const SampleChoice& choose,
                                    Stages& stages) {
  using X = Transfer<Exec>;
  using S = typename Exec::space;
  auto refined = refine_on(exec, mesh, P0, levels, options, sharpness, stages);
  auto t = std::chrono::steady_clock::now();
  // With no level the input's operators came back; else the refined level's are made here.
  const auto ops = levels == 0 ? std::move(refined.last_parent) : solids::boundary_operators(exec, refined.cells);
  const auto nets = solids::cell_nets(exec, refined.cells, ops, refined.sharpness ? &*refined.sharpness : nullptr);
  exec.synchronize();
  stages.build += elapsed_ms(t);
  t = std::chrono::steady_clock::now();
  const linalg::Array<std::uint8_t> kinds = X::down(nets.kinds);
  SolidSampleLimits<T> out;
  out.samples = choose(std::vector<std::uint8_t>(kinds.begin(), kinds.end()));
  const auto& samples = out.samples.samples;
  const linalg::Array<index_t, S> at = X::up(linalg::Array<index_t>(samples.faces));
  const linalg::Array<double, S> u = X::up(linalg::Array<double>(samples.u));
  const linalg::Array<double, S> v = X::up(linalg::Array<double>(samples.v));
  const linalg::Array<double, S> w = X::up(linalg::Array<double>(samples.w));
  const linalg::Array<double, S> grid = X::up(linalg::Array<double>(out.samples.grid));
  exec.synchronize();
  stages.upload += elapsed_ms(t);
  t = std::chrono::steady_clock::now();
  auto limits = grid.size() > 0 ? solids::limit_on_grids(exec, nets, at, grid, refined.positions)
                                : solids::limit_at_cells(exec, nets, at, u, v, w, refined.positions);
  exec.synchronize();
  stages.eval += elapsed_ms(t);
  t = std::chrono::steady_clock::now();
  out.limits = {on_host<X>(std::move(limits.position)), on_host<X>(std::move(limits.du)),
                on_host<X>(std::move(limits.dv)), on_host<X>(std::move(limits.dw))};
  stages.download += elapsed_ms(t);
  stages.peak_bytes = X::peak_bytes();
  return out;
}

}  // namespace spmesh::apps
