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

// The GPU threads that share an item of a small level's numbering kernels (detail::share_entries
// and for_each_entry, topology.hpp), each taking every entry_lanes-th of its entries, where an entry
// is a walk through the parent's rows (a hexahedron's 8 corners, a vertex's 6 edges, an edge's 4
// faces), when the kernel has fewer than entry_lanes_below items. On the H100: one thread an item
// left sphere_allhex's levels 1 and 2 (2,700 to 70,000 items a kernel) bound by the latency of
// those walks (refined_transposes 0.54 ms at either level, 100 to 170 us a kernel; 8 lanes: 0.18
// and 0.33 ms), while at the cylinder's levels 1 and 2 (130,000 to 3.2M items) 8 lanes were
// slower (refined_cells 1.7x at 8.3M cells, refined_transposes 1.1-1.6x), except for
// refined_operators' kernel over the cells' corners, whose walks are the longest: 1.45x faster
// with 8 lanes at 1M cells (4.5 -> 3.1 ms), so it takes them at every size.
inline constexpr int entry_lanes = 8;
inline constexpr std::int64_t entry_lanes_below = 1 << 16;

// The bytes of irregular cells' tables (irregular_cells.hpp) a mesh's nets may hold: a
// configuration's are 7 children x (net + 1) rows x its ring x (irregular_depth + 1) doubles, some
// 12-16 MB at rings of 100-150 points, and one takes some 0.05 s to make on one core (2-core
// development machine, 2026-11-29; the bundled block refined twice: 0.7 s for its nets). sphere_allhex refined once has some 400 configurations among
// a few thousand candidate cells (its level-0 neighbours still differ), refined twice far fewer, each
// shared by many cells; configurations are made in order of the cells they serve until this is
// spent, so that the cost stays bounded (about 20 configurations) and the most cells are served.
inline constexpr std::int64_t irregular_table_bytes = std::int64_t(256) << 20;

// The samples a cell of the mesh (on average) from which limit_at_cells' automatic layout gathers
// the tricubic cells' nets before evaluating (LimitKernel::gathered_nets) instead of reading each
// sample's net through its indices (per_sample): gathering reads and writes every tricubic cell's
// 64 points once a call. On the H200, grid47 (103,275 cells, all sampled, float): at 1 and 8
// samples a cell the indices were faster (0.081 against 0.133 ms, 0.139 against 0.184), at 64 and
// 512 the gathered nets (0.665 against 0.753 ms, 4.65 against 5.83). Two samples a thread
// (gathered_pairs), which halve the bytes L1 delivers to the registers, were slower at 512 (5.30
// ms: 128 registers a thread halve the warps an SM holds). bench/RESULTS.md has the tables.
inline constexpr std::int64_t gathered_net_samples = 32;

// The depths below an irregular cell (levels toward its extraordinary corner, from 0) at which
// limit_at_cells makes the children's nets once for all their samples (LimitKernel::automatic,
// gathered_nets) instead of summing each child point over the ring (some 130 points) for each
// sample: a grid of K samples an axis reaches depth log2(K) (K = 8: depths 0 to 3), 5 covers K up
// to 16. Memory: 7 children x depths x (net + 1) points x columns a cell, 100 MB in float for
// sphere_allhex refined once (2,785 irregular cells). Samples deeper take the per-sample sums. On
// the H200 this made sphere_allhex's irregular cells at 8^3 samples 12x faster (18.8 -> 1.53 ms).
inline constexpr int irregular_child_depths = 5;

// The share of a grid list's cells that must be tricubic for limit_on_grids to sum their grids
// a block a cell (the others then evaluated by limit_at_cells at their samples and put in their
// places); below it every cell goes to limit_at_cells, whose rows are then the grids' own. On the
// H200 (float, 8^3 and 4^3 samples a cell): the 47^3 grid (every listed cell tricubic) 0.97 ms
// against 4.20 at 8^3, 0.38 against 0.62 at 4^3; sphere_allhex level 1 (29% tricubic: 992 inside,
// 1,244 at the boundary, 12,080 layered, 2,785 irregular) 4.61 against 4.23 at 8^3 and 1.30
// against 1.08 at 4^3. Not swept between. bench/RESULTS.md, Tuning choices: grid_tricubic_share
inline constexpr double grid_tricubic_share = 0.5;

}  // namespace spmesh::solids::tuning
