// Tuning constants of the linalg layer: how the executors split and launch work, how many GPU
// lanes a row's sum takes, how many columns a row builder keeps on chip, how device memory is
// carved, how large a hash table is. Changing one changes speed or memory, never a result.
// Under each, what it sets and why, then its provenance: the benchmark that chose it ("not
// measured": set by reasoning alone) and the row of bench/RESULTS.md's Tuning choices table that
// holds the figures. Commands as bench/RESULTS.md names them: S (scripts/device-test.sh:
// spmesh_bench_subdivision and spmesh_build_phases on the GPU), P (Nsight Compute:
// scripts/device-profile.sh), L (spmesh_bench_cuda), H (spmesh_bench_launch).
#pragma once

#include "linalg/base.hpp"

#include <cstddef>
#include <cstdint>

namespace spmesh::linalg::tuning {

// ---- Host memory ---------------------------------------------------------------------------------

// Host arrays of at least huge_page_from bytes are aligned to huge_page and advised to use
// transparent huge pages (madvise), so that first writes fault once per 2 MiB. Not measured yet
// as a choice; bench/RESULTS.md, Tuning choices: huge_page_from
inline constexpr std::size_t huge_page = std::size_t(2) << 20;
inline constexpr std::size_t huge_page_from = std::size_t(32) << 20;

// ---- cpu::Executor ------------------------------------------------------------------------------

// Loops shorter than this stay on the calling thread (an OpenMP region costs more than they do).
// Not measured. bench/RESULTS.md, Tuning choices: cpu::Executor::grain
inline constexpr index_t cpu_grain = 2048;

// Scans, selections, counts and radix passes over fewer items than this run as one block.
// Not measured. bench/RESULTS.md, Tuning choices: cpu_one_block_below
inline constexpr index_t cpu_one_block_below = 4 * cpu_grain;

// Longer inputs are cut into up to this many blocks per thread (each at least cpu_grain items),
// so that one slow thread holds up less of the pass.
// Not measured. bench/RESULTS.md, Tuning choices: cpu_blocks_per_thread
inline constexpr int cpu_blocks_per_thread = 4;

// Bits of the key that one pass of the radix sort orders (a 256-bucket histogram per block).
// Not measured. bench/RESULTS.md, Tuning choices: cpu_radix_digit_bits
inline constexpr int cpu_radix_digit_bits = 8;

// Segments of segmented_sort_pairs up to this long are insertion-sorted in place (the short rows
// of mesh products); longer ones through std::stable_sort of their positions.
// Not measured. bench/RESULTS.md, Tuning choices: cpu_insertion_sort_max
inline constexpr index_t cpu_insertion_sort_max = 32;

// ---- cuda::Executor -----------------------------------------------------------------------------

// Threads per block of for_each and for_each_grouped, the most of for_each_with_scratch, and the
// block size that a functor's min_blocks_per_sm is a launch bound for (for_each_bounded_kernel).
// Not measured. bench/RESULTS.md, Tuning choices: cuda::Executor block
inline constexpr int cuda_block_threads = 256;

// Shared memory of one block: for_each_with_scratch shares it out among the block's threads (an
// item's Bytes bound the threads of a block), for_each_tile refuses tiles that need more. CUDA's
// limit for a kernel that does not opt in to more (an H100 allows up to 227 KiB with the opt-in).
// Not measured. bench/RESULTS.md, Tuning choices: cuda_block_shared_bytes
inline constexpr std::size_t cuda_block_shared_bytes = 48 * 1024;

// Segments of segmented_sort_pairs up to this long are sorted by one thread each, in registers;
// only longer ones go to CUB's segmented sort, which was slow on the short rows of mesh products.
// Chosen by P on L (M M^T). bench/RESULTS.md, Tuning choices: cuda::Executor::short_segment
inline constexpr index_t cuda_short_segment = 32;

// Device arrays up to this size are carved out of shared slabs (cuda/memory.hpp, detail::Slabs),
// so that they cost no pool call each: a build of small levels makes dozens.
// Chosen by H and S (spmesh_build_phases ArmorGuyT.obj 3 --scheme loop).
// bench/RESULTS.md, Tuning choices: Slabs::small
inline constexpr std::size_t slab_max_array_bytes = std::size_t(256) << 10;

// The size of one slab: one pool call serves many small arrays; a slab goes back to the pool with
// its last array, so a long-lived small array holds at most this much.
// Chosen by H and S (spmesh_build_phases ArmorGuyT.obj 3 --scheme loop).
// bench/RESULTS.md, Tuning choices: Slabs::slab
inline constexpr std::size_t slab_bytes = std::size_t(4) << 20;

// Device-to-host copies of at least this many bytes go through two pinned staging buffers of
// this size each, the GPU filling one while host threads copy the other into place (pageable
// cudaMemcpy into fresh memory ran at about 1.5 GB/s on the H100 machine: issue 23's download).
// Not measured yet as a choice; the copy's speed is in bench/RESULTS.md, Command line end to end.
// bench/RESULTS.md, Tuning choices: staging_bytes
inline constexpr std::size_t staging_bytes = std::size_t(32) << 20;

// ---- KeyTable ----------------------------------------------------------------------------------

// Slots of a hash table (key_table.hpp) for every two keys to insert, at least: a load of at most
// two thirds keeps the linear probe runs short; more slots take more memory.
// Not measured. bench/RESULTS.md, Tuning choices: key_table_slots_per_two_keys
inline constexpr std::int64_t key_table_slots_per_two_keys = 3;

// A table has at least 2 to the power of this many slots.
// Not measured. bench/RESULTS.md, Tuning choices: key_table_min_slot_bits
inline constexpr int key_table_min_slot_bits = 6;

// ---- Products -----------------------------------------------------------------------------------

// GPU lanes per row of a CSR sum (spmv.hpp, LaneGather): rows averaging fewer entries than this
// take one lane (the vertex adjacency E of eval), from here two (Loop's and Catmull-Clark's R).
// Chosen by S (R's replay, 1/2/4/8 lanes). bench/RESULTS.md, Tuning choices: lanes_per_row
inline constexpr double csr_two_lanes_from = 7;

// From here four lanes (sqrt(3)'s R of 16 entries); eight never paid.
// Chosen by S (R's replay, 1/2/4/8 lanes). bench/RESULTS.md, Tuning choices: lanes_per_row
inline constexpr double csr_four_lanes_from = 12;

// The same for a StencilCsr row, whose entries each cost a dependent load more: one lane below
// this many entries (Loop's R), two from here (sqrt(3)'s R).
// Chosen by S (the stencils' replay), lanes swept.
// bench/RESULTS.md, Tuning choices: StencilView::lanes_per_row
inline constexpr double stencil_two_lanes_from = 12;

// Columns of x and y that a gather thread (Gather, LaneGather) sums at once when there are not
// 1 to 4 of them, so that its accumulators stay in registers for any width.
// Not measured. bench/RESULTS.md, Tuning choices: gather_column_block
inline constexpr int gather_column_block = 4;

// Distinct columns a row of an SpGEMM keeps in its scratch (detail/rows.hpp: shared memory on the
// GPU, 384 bytes a row with double values); longer rows spill to the sorted global path. The
// composed Catmull-Clark R of ArmorGuy and Bigguy at level 5 has at most 24 a row.
// Chosen by spmesh_bench_subdivision --mesh ArmorGuy.obj:6 --min-level 6 --cpu-max-level 0
// --peer-max-level 0 (compose R) and P: 32 in shared memory against 64 in local memory.
// bench/RESULTS.md, Tuning choices: spgemm_row_capacity
inline constexpr int spgemm_row_capacity = 32;

// The same for COO assembly, whose rows hold a few duplicates of a mesh's entries.
// Not swept (the row sets' move to shared memory measured as for spgemm_row_capacity).
// bench/RESULTS.md, Tuning choices: assembly_row_capacity
inline constexpr int assembly_row_capacity = 32;

// The most contributions of spilled rows (detail/rows.hpp) written out and sorted at once: 2^28,
// about 6 GB with double values and the sort's copies, where a 32-bit position allows 2^31. The
// Catmull-Clark solid's R of sphere_allhex at level 4 spills 2.6e9 (10 batches).
// Not swept. bench/RESULTS.md, Tuning choices: spill_batch_contributions
inline constexpr std::int64_t spill_batch_contributions = std::int64_t(1) << 28;

// The same for M M^T: an edge matrix row holds a vertex's valence, plus itself for Q^0.
// Chosen by L (M M^T of the triangle torus): 16 was no faster.
// bench/RESULTS.md, Tuning choices: mmt_row_capacity
inline constexpr int mmt_row_capacity = 32;

// The blocks of consecutive rows the fixed-order reductions (linalg/sums.hpp: conjugate_gradient's
// dot products) reduce first, each by the executor's lanes, before the blocks' results are
// combined: a fixed partition, so the same bits every run. 1024 blocks of a warp each keep a GPU's
// SMs busy and leave the last pass 1024 values. With a thread a block instead of a warp, 100 CG
// iterations on ArmorGuy level 4 took 143.6 ms on the H200, 22.9x the SpMM's bytes floor: the
// dot products' long serial loops were most of it. bench/RESULTS.md, Tuning choices: dot_blocks
inline constexpr index_t dot_blocks = 1024;

}  // namespace spmesh::linalg::tuning
