// Sizes the solids' memory estimates assume (size_estimate.hpp), with where each comes from.
#pragma once

#include <cstdint>

namespace spmesh::solids::tuning {

// The mean entries a row of a level matrix S_l holds, at most: a vertex point inside a regular
// grid reaches the 27 vertices of its 8 cells, an edge point 18, a face point 12, a cell point 8.
inline constexpr std::int64_t level_matrix_row_entries = 27;

// The mean entries a row of R holds, at most: the tricubic B-spline's support is 4 x 4 x 4 base
// vertices. Placeholder until measured (bench/RESULTS.md, Catmull-Clark solids).
inline constexpr std::int64_t refinement_row_entries = 64;

}  // namespace spmesh::solids::tuning
