// Sizes of every level of a plan before any work, and the bytes its build and eval need on an
// executor; the estimate refuses a job that would not fit, up front, with the size it needs.
#pragma once

#include "linalg/base.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace spmesh::schemes {

// The sizes of every level (from the scheme's child_counts) and the bytes its build and eval
// need: the operators of every level (the first with its build's temporaries), the refined
// mesh, eval's last two levels of `columns` values with one temporary, and the GPU's slabs of
// small arrays (linalg/cuda/memory.hpp), held whole: a few of 4 MiB. one_pass() is the same for
// build_and_eval. The device benchmark checks that the estimate stays above the measured GPU
// peak, tests/schemes that it does above the host's.
struct SizeEstimate {
  struct Counts {
    std::int64_t vertices = 0, faces = 0, corners = 0, edges = 0;
    std::int64_t boundary_edges = 0;  // read by schemes whose levels grow on the boundary
  };
  SizeEstimate() = default;
  explicit SizeEstimate(const char* scheme_name) : scheme(scheme_name) {}

  const char* scheme = "";
  std::vector<Counts> levels;  // levels[0] is the base mesh
  std::int64_t bytes = 0;
  std::vector<std::int64_t> operators;  // per level, with the first level's build temporaries
  std::int64_t refined = 0, data = 0, data_before = 0;  // add_eval's parts
  // How many consecutive levels' operators build_and_eval holds at most, and what eval holds
  // besides its data (Catmull-Clark: the levels its patches take, their faces' kinds, region and
  // temporaries).
  int window = 2;
  std::int64_t extra = 0;

  // The first level's build temporaries on half-edges, every scheme's: its table of half-edge
  // keys (linalg/key_table.hpp), per corner, and its arrays per edge.
  static std::int64_t first_level_temporaries(const Counts& c) {
    return 80 * c.corners + 8 * c.edges;
  }

  // Adds the next level's operators.
  void add_operators(std::int64_t level_bytes) {
    operators.push_back(level_bytes);
    bytes += level_bytes;
  }
  // The estimate for build_and_eval (its sinks): `window` consecutive levels' operators at
  // most, with the last level's data and the data before it (the last eval), or the last level's
  // operators with its data and the refined mesh (the last refinement).
  SizeEstimate one_pass() const {
    std::int64_t held = 0;
    for (std::size_t l = 0; l < operators.size(); ++l) {
      std::int64_t sum = 0;
      for (std::size_t i = l + 1 - std::min<std::size_t>(l + 1, window); i <= l; ++i)
        sum += operators[i];
      held = std::max(held, sum);
    }
    const std::int64_t last = operators.empty() ? 0 : operators.back();
    SizeEstimate s = *this;
    s.bytes = std::max(held + data + 2 * data_before + extra, last + data + refined) + margin;
    return s;
  }

  // Throws CapacityError naming the first level whose matrices exceed 32-bit indices.
  void check_indices() const {
    for (std::size_t l = 0; l < levels.size(); ++l) {
      const auto& c = levels[l];
      const std::int64_t largest = std::max({c.vertices + 1, c.corners, 2 * c.edges});
      if (largest > max_index)
        throw CapacityError(std::string(scheme) + " level " + std::to_string(l) + " needs " +
                            std::to_string(largest) +
                            " entries in one matrix, over the 32-bit index limit (2147483647)");
    }
  }
  // Adds the refined mesh and eval's data (the last level's, and twice the level's before: its
  // data and one temporary) to `bytes`, with the margin.
  // 2 MiB, and 4 slabs (bench/RESULTS.md, Tuning choices: SizeEstimate::margin).
  static constexpr std::int64_t margin = std::int64_t(18) << 20;
  void add_eval(int columns, int scalar_bytes) {
    const auto& last = levels.back();
    const auto& before = levels[levels.size() > 1 ? levels.size() - 2 : 0];
    refined = 4 * (last.faces + 1) + 4 * last.corners;
    data = std::int64_t(columns) * scalar_bytes * last.vertices;
    data_before = std::int64_t(columns) * scalar_bytes * before.vertices;
    bytes += refined + data + 2 * data_before + extra + margin;
  }
};

// The estimate of `levels` levels of Scheme from its base mesh's counts, for vertex data of
// `columns` values of `scalar_bytes` each: level l's operators take Scheme::level_bytes(c, l)
// (the first level with its build's temporaries) and give a child of Scheme::child_counts(c, l);
// Scheme::add_held(estimate, levels), where a scheme has it, adds what its eval holds besides.
template <class Scheme>
SizeEstimate estimate_size(const SizeEstimate::Counts& base, int levels, int columns = 0,
                           int scalar_bytes = 0) {
  SizeEstimate s(Scheme::title);
  s.levels.push_back(base);
  for (int l = 0; l < levels; ++l) {
    const SizeEstimate::Counts c = s.levels.back();
    s.add_operators(Scheme::level_bytes(c, l) +
                    (l == 0 ? SizeEstimate::first_level_temporaries(c) : 0));
    s.levels.push_back(Scheme::child_counts(c, l));
  }
  if constexpr (requires { Scheme::add_held(s, levels); }) Scheme::add_held(s, levels);
  s.add_eval(columns, scalar_bytes);
  return s;
}

}  // namespace spmesh::schemes
