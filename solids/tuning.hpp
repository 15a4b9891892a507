// Sizes the solids' memory estimates assume (size_estimate.hpp) and their kernels' blocking, with
// where each comes from.
#pragma once

#include <cstdint>

namespace spmesh::solids::tuning {

// The mean entries a row of a level matrix S_l holds, at most: a vertex point inside a regular
// grid reaches the 27 vertices of its 8 cells, an edge point 18, a face point 12, a cell point 8.
inline constexpr std::int64_t level_matrix_row_entries = 27;

// The mean entries a row of R holds, at most: the tricubic B-spline's support is 4 x 4 x 4 base
// vertices (sphere_allhex's R: 13.5 entries a row after 1 level, 37.2 after 2).
inline constexpr std::int64_t refinement_row_entries = 64;

// The distinct columns a row of R folds in SpGEMM's fast per-row scratch (linalg::spgemm's
// RowCapacity): with the surfaces' 32, or 64, most rows of R past 2 levels (the tricubic support
// is 64 wide, sphere_allhex's R 58.7 entries a row after 3 levels) go to the global spill, whose
// scratch holds every contribution of a row (sphere_allhex level 3 on the H100: over 2^31 bytes
// of sort buffers). 128 columns in double fill the most scratch a GPU thread may have (1536 bytes:
// blocks of 32 threads).
inline constexpr int refinement_row_capacity = 128;

// The columns of vertex data refine_points sums in one pass over a row's operator entries
// (refine.hpp): the entries are read again for each such block, and each column is a register
// of the thread. 4 holds xyz and xyzw positions in one pass.
inline constexpr int point_columns = 4;

}  // namespace spmesh::solids::tuning
