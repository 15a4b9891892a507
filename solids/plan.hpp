// Catmull-Clark solids over several levels, split as for surfaces: build (the topology of every
// level, once), eval (vertex data through the built levels, as often as the data changes), and
// build_and_eval (both a level at a time, holding two levels: for topology that changes every
// time). The input's operators and their transposes come from boundary_operators (identification
// by sorting), every refined level's from refined_operators and refined_transposes (index
// arithmetic).
#pragma once

#include "solids/refine.hpp"
#include "solids/refined_topology.hpp"

#include <optional>
#include <type_traits>
#include <vector>

namespace spmesh::solids {

// A level's topology as refinement reads it, what its rules' weights read of it, and its crease
// rules where it has sharp features.
template <class S = linalg::Host>
struct SolidTopology {
  CellMesh<S> cells;
  BoundaryOperators<S> ops;
  Transposes<S> transposed;
  LevelWeights<S> weights;
  std::optional<SharpRules<S>> sharp;
};

namespace detail {

// The crease rules of a level of sharpness `sharpness` (none without), which becomes the next
// level's.
template <class Exec, class S>
std::optional<SharpRules<S>> level_rules(Exec& exec, const BoundaryOperators<S>& ops, const Transposes<S>& transposed,
                                         std::optional<SolidSharpness<S>>& sharpness, const RefineOptions& options) {
  if (!sharpness) return std::nullopt;
  auto rules = sharp_rules(exec, ops, transposed, *sharpness, options.crease);
  sharpness = std::move(rules.child);
  return rules;
}

}  // namespace detail

template <class S = linalg::Host>
struct SolidPlan {
  std::vector<SolidTopology<S>> parents;  // levels 0 .. L - 1
  CellMesh<S> refined;                    // level L's cells
  RefineOptions options;                  // the rules eval applies
};

// The topology of `levels` levels of `mesh` (InputError from boundary_operators for bad cells),
// with the crease rules of `sharpness` (the input's; tagged_sharpness) where given.
template <class Exec, class S = typename Exec::space>
SolidPlan<S> build(Exec& exec, CellMesh<S> mesh, int levels, const RefineOptions& options = {},
                   std::type_identity_t<std::optional<SolidSharpness<S>>> sharpness = std::nullopt) {
  SolidPlan<S> plan;
  plan.options = options;
  Transposes<S> transposed;
  auto ops = boundary_operators(exec, mesh, &transposed);
  for (int l = 0; l < levels; ++l) {
    auto children = refined_cells(exec, mesh, ops);
    auto sharp = detail::level_rules(exec, ops, transposed, sharpness, options);
    auto weights = level_weights(exec, ops, transposed, options);
    // The last level's cells are the plan's result: its operators are not needed.
    BoundaryOperators<S> next;
    Transposes<S> next_transposed;
    if (l + 1 < levels)
      next = refined_operators(exec, mesh, ops, transposed),
      next_transposed = refined_transposes(exec, mesh, ops, transposed);
    plan.parents.push_back(
        {std::move(mesh), std::move(ops), std::move(transposed), std::move(weights), std::move(sharp)});
    mesh = std::move(children), ops = std::move(next), transposed = std::move(next_transposed);
  }
  plan.refined = std::move(mesh);
  return plan;
}

// X (a row per input vertex) through the plan's levels: a row per refined vertex.
template <class Exec, class T, class S = typename Exec::space>
linalg::Dense<T, S> eval(Exec& exec, const SolidPlan<S>& plan, const linalg::Dense<T, S>& X) {
  linalg::Dense<T, S> P;
  if (plan.parents.empty()) {
    P = linalg::Dense<T, S>(X.rows, X.cols);
    exec.copy(X.data.data(), X.data.size(), P.data.data());
  }
  for (const auto& level : plan.parents)
    P = refine_points(exec, level.cells, level.ops, level.transposed, level.weights,
                      &level == &plan.parents.front() ? X : P, level.sharp ? &*level.sharp : nullptr);
  return P;
}

template <class T, class S = linalg::Host>
struct SolidResult {
  CellMesh<S> cells;
  linalg::Dense<T, S> positions;
  BoundaryOperators<S> last_parent;  // the last level refined's operators (the input's with no level)
  std::optional<SolidSharpness<S>> sharpness;  // the refined level's sharp features (none without)
};

// `levels` levels of topology and data together, a level at a time; eval(build(...)) gives the
// same bits. The result carries the refined level's sharpness (the input's decayed level by
// level), which its limit's nets read (cell_nets).
template <class Exec, class T, class S = typename Exec::space>
SolidResult<T, S> build_and_eval(Exec& exec, CellMesh<S> mesh, linalg::Dense<T, S> X, int levels,
                                 const RefineOptions& options = {},
                                 std::type_identity_t<std::optional<SolidSharpness<S>>> sharpness = std::nullopt) {
  Transposes<S> transposed;
  auto ops = boundary_operators(exec, mesh, &transposed);
  for (int l = 0; l < levels; ++l) {
    const auto sharp = detail::level_rules(exec, ops, transposed, sharpness, options);
    auto next = refine(exec, mesh, ops, transposed, X, options, sharp ? &*sharp : nullptr);
    if (l + 1 < levels) {
      auto next_ops = refined_operators(exec, mesh, ops, transposed);
      transposed = refined_transposes(exec, mesh, ops, transposed);
      ops = std::move(next_ops);
    }
    mesh = std::move(next.cells), X = std::move(next.positions);
  }
  return {std::move(mesh), std::move(X), std::move(ops), std::move(sharpness)};
}

}  // namespace spmesh::solids
