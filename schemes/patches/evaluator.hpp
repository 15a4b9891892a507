// Seed 001's levels kept between evaluations of patches on grids of evenly spaced samples: the
// binomials (level 3) are remade only when a degree past the table's is asked, a direction's
// basis at its samples (level 2) only when its basis, degree or sample count changes, so that
// re-evaluating moved control points (seed 001's case A) is level 1 alone, a new resolution (B)
// levels 2 and 1, a new degree (C) all three. Bases are kept for the last `kept_bases` grids
// used, so that directions of different grids do not evict each other.
#pragma once

#include "schemes/patches/tensor.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace spmesh::schemes::patches {

// One direction of the grid: `samples` parameters evenly over [0, 1], ends included
// (uniform_samples).
struct Grid {
  Basis basis = Basis::bernstein;
  int degree = 3;
  index_t samples = 2;
  friend bool operator==(const Grid&, const Grid&) = default;
};

template <class T, class S = linalg::Host>
class GridEvaluator {
 public:
  static constexpr std::size_t kept_bases = 6;

  // How many times each level was made (level 1: evaluations).
  struct Counts {
    std::int64_t binomials = 0, bases = 0, evaluations = 0;
  };
  Counts counts() const { return counts_; }

  // The points (or derivatives of orders `orders`, as patches::evaluate) of `patches` patches,
  // X's rows their control points, at the grid of the 1 to 3 `directions`.
  template <class Exec>
  linalg::Dense<T, S> evaluate(Exec& exec, std::initializer_list<Grid> directions, index_t patches,
                               const linalg::Dense<T, S>& X, std::array<int, 3> orders = {0, 0, 0}) {
    const auto kept = bases(exec, directions);
    ++counts_.evaluations;
    return patches::evaluate(exec, std::span(kept.data(), directions.size()), patches, X, orders);
  }

  // Level 2 of the 1 to 3 `directions` (and level 3), made where not kept; valid until the
  // next call.
  template <class Exec>
  std::array<const SampleBasis<T, S>*, 3> bases(Exec& exec, std::initializer_list<Grid> directions) {
    if (directions.size() < 1 || directions.size() > 3)
      throw DimensionError("patches::GridEvaluator: " + std::to_string(directions.size()) +
                           " directions, not 1 to 3");
    std::array<const SampleBasis<T, S>*, 3> out{};
    std::size_t d = 0;
    for (const Grid& grid : directions) out[d++] = &basis_of(exec, grid);
    return out;
  }

 private:
  struct Kept {
    Grid grid;
    SampleBasis<T, S> basis;
  };

  template <class Exec>
  const SampleBasis<T, S>& basis_of(Exec& exec, const Grid& grid) {
    // The last used last, so that the oldest, evicted first, is none that this call took.
    for (auto kept = kept_.begin(); kept != kept_.end(); ++kept)
      if ((*kept)->grid == grid) {
        std::rotate(kept, kept + 1, kept_.end());
        return kept_.back()->basis;
      }
    check_degree(grid.degree);
    if (grid.samples < 1)
      throw DimensionError("patches::GridEvaluator: " + std::to_string(grid.samples) + " samples, not 1 or more");
    if (grid.degree > binomial_degree_) {
      binomials_ = binomials(exec, grid.degree), binomial_degree_ = grid.degree;
      ++counts_.binomials;
    }
    const auto at = uniform_samples<Exec, T>(exec, grid.samples);
    if (kept_.size() == kept_bases) kept_.erase(kept_.begin());
    kept_.push_back(std::make_unique<Kept>(Kept{grid, sample_basis(exec, grid.basis, grid.degree, binomials_, at)}));
    ++counts_.bases;
    return kept_.back()->basis;
  }

  int binomial_degree_ = -1;
  linalg::Array<double, S> binomials_;
  std::vector<std::unique_ptr<Kept>> kept_;  // least recently used first; each stays where it is while kept
  Counts counts_;
};

}  // namespace spmesh::schemes::patches
