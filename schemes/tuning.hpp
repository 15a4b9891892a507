// Every tuning constant of the schemes layer, each with its provenance: the row of
// bench/RESULTS.md ("Tuning choices", named by the constant's identifier in the code) that
// holds what was measured to choose it, and the benchmark that measured it: S,
// scripts/device-test.sh's spmesh_bench_subdivision; P, scripts/device-profile.sh's Nsight
// Compute of it; B, scripts/device-test.sh's spmesh_bench_patches; Q, spmesh_bench_limits
// --samples. Code says what a constant does; the figures live in bench/RESULTS.md.
#pragma once

#include <cstddef>

namespace spmesh::schemes::tuning {

// Blocks per SM asked of the kernels whose threads walk vertex rings (__launch_bounds__'
// second argument, so a register cap): the walks are bound by load latency, so more threads in
// flight help, up to where registers spill.
// Catmull-Clark's walks on a quad level (P; bench/RESULTS.md, Tuning choices:
// RingSums::min_blocks_per_sm).
inline constexpr int quad_ring_min_blocks_per_sm = 8;
// ... and on its parent level (P; Tuning choices: ParentRingSums::min_blocks_per_sm).
inline constexpr int quad_parent_ring_min_blocks_per_sm = 6;
// Loop's walks (P --scheme loop; Tuning choices: TriangleVertexPoints::min_blocks_per_sm).
inline constexpr int triangle_ring_min_blocks_per_sm = 8;
// sqrt(3)'s walks, on the level and on its parent (Loop's value, not swept on its own; Tuning
// choices: VertexPointsOnHalfEdges::min_blocks_per_sm, GroupVertexPoints::min_blocks_per_sm).
inline constexpr int sqrt3_ring_min_blocks_per_sm = 8;

// Catmull-Clark's patches (catmull_clark/patches.hpp): at most this many levels deep, a kernel
// per depth (S; Tuning choices: max_patch_depth) ...
inline constexpr int max_patch_depth = 4;
// ... build chooses at least this deep (S; Tuning choices: min_chosen_depth) ...
inline constexpr int min_chosen_depth = 3;
// ... where at most this share of the patch level's faces is left to the level-by-level eval
// (S; Tuning choices: max_region_share).
inline constexpr double max_region_share = 0.2;
// The patch kernel's shared memory a tile, and its threads a block (P; Tuning choices:
// PatchPoints::max_bytes, PatchPoints::threads; not swept).
inline constexpr std::size_t patch_tile_bytes = 40 * 1024;
inline constexpr int patch_threads = 256;

// Tensor-product patch evaluation (patches/tensor.hpp): threads a tile, the points a tile
// evaluates, and the shared memory its partial sums may take beyond one sample row's (B;
// Tuning choices: TensorTiles; not swept).
inline constexpr int tensor_tile_threads = 256;
inline constexpr int tensor_tile_points = 2048;
inline constexpr std::size_t tensor_tile_bytes = 16 * 1024;

// Stam's evaluation keeps G_r A^(m-1), the 16 x K weights of child r's points m levels from the
// extraordinary vertex, for m up to this: a sample that near reads them and needs no eigenvector
// projection (K x K a sample); deeper ones take the eigenstructure (catmull_clark/stam.hpp;
// Q; Tuning choices: stam_tabled_levels).
inline constexpr int stam_tabled_levels = 8;

// Stam's nets (samples.hpp): for samples from a level's points, each face that Stam's evaluation
// holds gets its children's patch control points G_r A^(m-1) C for m up to a depth d, made once,
// so that a sample there is a patch of contiguous points (no ring walk, no 16 x K table). A level
// gets them when there are stam_net_samples_per_face samples a face of it or more (making them is
// a pass over its faces and one over their rows, and a wait), d = floor(log4) of its samples a
// face, at most stam_net_levels (3 x 16 rows a face a level, xyz: 0.6 KB in float). A uniform
// sample lies deeper than d with probability 4^-d, and a warp that holds one waits for its ring
// walk (16 K table reads), so the nets go down to about one sample a face below them (Q; Tuning
// choices: stam_net_levels).
inline constexpr int stam_net_levels = 5;
inline constexpr int stam_net_samples_per_face = 16;
static_assert(stam_net_levels <= stam_tabled_levels, "Stam's nets are made from the tabled G_r A^(m-1)");

// A boundary fan's tables (catmull_clark/boundary_fan.hpp) keep G_r E^d, child r's 16 x K
// weights d levels from the vertex, for d below boundary_fan_tabled_levels (T), and E^(T 2^b)
// for b below boundary_fan_powers (B): a sample d >= T levels down (4^-T of uniform samples) is
// one of the former times the latter of the bits of floor(d / T), 3 x K x K more a bit; below
// T 2^B levels it is taken at that depth (2^-128: a fan of up to 12 edges is then within
// rounding of its limit point, its subdominant eigenvalue below 0.65, 0.65^127 ~ 1e-24). The
// tables (3 T k x 16 x K + B K^2 for k quads) are uploaded with the samples, every call: T = 8 (with
// E^(8 q) for q up to 12) took 1.5 MB for ArmorGuy's fans of 3, 4 and 6 quads, T = 2 0.44 MB (not
// swept further).
inline constexpr int boundary_fan_tabled_levels = 2;
inline constexpr int boundary_fan_powers = 6;

// Blocks per SM asked of the kernel that evaluates samples (limit_at.hpp's SamplePoints): its
// walks down the levels are bound by load latency, and uncapped it took 164 registers, one block
// an SM (Q with Nsight Compute; Tuning choices: SamplePoints::min_blocks_per_sm).
inline constexpr int sample_min_blocks_per_sm = 2;

// The edges of a special vertex that the crease rules' kernel keeps in registers; a vertex of
// more walks its ring on every pass (Tuning choices: HalfEdgeVertexRules::kept; not swept).
inline constexpr int vertex_rules_kept_edges = 12;

}  // namespace spmesh::schemes::tuning
