// Tuning constants of the meshops layer: how the mesh writers cut their work, how the heat method
// iterates. Changing one changes speed or memory, never a file's bytes. Under each, what it sets and why, then its
// provenance; bench/RESULTS.md's Tuning choices table holds the figures.
#pragma once

#include "linalg/base.hpp"

#include <cstddef>

namespace spmesh::meshops::tuning {

// The text emit_in_parallel (emit.hpp) holds in one batch of blocks, whatever the thread count:
// two batches at most (one being formatted, one being written), so a host-memory estimate
// counts 2 * emit_batch_bytes. Set after 16 threads held 2 x 64 blocks of 5 MiB of OBJ text.
// Not swept. bench/RESULTS.md, Tuning choices: emit_batch_bytes
inline constexpr std::size_t emit_batch_bytes = std::size_t(8) << 20;

// Faces of a block of PLY faces encoded once for many files (replay): 17 MiB of quads, encoded
// in parallel, block by block. Not swept. bench/RESULTS.md, Tuning choices: ply_faces_per_block
inline constexpr index_t ply_faces_per_block = index_t(1) << 20;

// Face lines of a block of OBJ faces encoded once for many files (replay). Not swept.
// bench/RESULTS.md, Tuning choices: obj_lines_per_block
inline constexpr index_t obj_lines_per_block = index_t(1) << 16;

// The bytes of a laid-out file (layout.hpp: binary PLY) made at once: two buffers of this size,
// one made with every thread while the other is written. Not swept. bench/RESULTS.md, Tuning
// choices: layout_window_bytes
inline constexpr std::size_t layout_window_bytes = std::size_t(64) << 20;

// The bytes one thread fills at a time within a window (dynamic schedule): small enough to
// share a window among 16 threads, large enough that finding a slice's first record (a binary
// search) is negligible. Not swept. bench/RESULTS.md, Tuning choices: layout_slice_bytes
inline constexpr std::size_t layout_slice_bytes = std::size_t(1) << 20;

// The conjugate-gradient iterations the heat method's first solve takes at a time past the
// residual's test, between its checks of the far field (geodesics.hpp): each batch restarts CG
// from its last iterate, so short batches lose CG's momentum, long ones overshoot. Not swept.
inline constexpr index_t heat_further_iterations = 64;

// The smallest heat the heat method's first solve may leave at a vertex it reached: below it, t
// grows (geodesics.hpp). CG's dot products square the values, so 1e-140 keeps them (1e-280) above
// double's smallest normal number (2.2e-308). A unit icosphere split 8 times (655,362 vertices,
// t = h^2) left 2e-230, 172,351 vertices at 0 and a mean distance error of 6.5% of pi; at 16 h^2,
// 0.028%.
inline constexpr double smallest_heat = 1e-140;

}  // namespace spmesh::meshops::tuning
