// The executor contract: concept Executor, what every backend (cpu::Executor, cuda::Executor)
// provides to the operations built on it. docs/linalg.md's table of primitives is its readable
// version; each executor's header checks itself against it with a static_assert.
#pragma once

#include "linalg/base.hpp"
#include "linalg/scratch.hpp"

#include <concepts>
#include <cstddef>
#include <cstdint>

namespace spmesh::linalg {

namespace executor_probe {

// Stand-ins for the functors the primitives take. Only their call signatures matter: the
// requirements below name calls, they never run them.
struct Item {  // for_each: f(i)
  SPMESH_HD void operator()(index_t) const {}
};
struct ItemWithScratch {  // for_each_with_scratch: f(i, scratch)
  SPMESH_HD void operator()(index_t, ItemScratch) const {}
};
struct TileThread {  // for_each_tile: f(phase, tile, thread, shared)
  SPMESH_HD void operator()(int, index_t, int, std::byte*) const {}
};
struct ItemLane {  // for_each_grouped: f(i, lane)
  SPMESH_HD void operator()(index_t, int) const {}
};
struct Predicate {  // select_if, select_positions, count_if: pred(i)
  SPMESH_HD bool operator()(index_t) const { return true; }
};
struct ValueOf {  // scatter_min: value(i)
  SPMESH_HD index_t operator()(index_t i) const { return i; }
};
struct Reduction {  // segmented_reduce: identity<T>() and r(a, b), as in maps.hpp
  template <class T>
  SPMESH_HD T identity() const { return T(0); }
  template <class T>
  SPMESH_HD T operator()(T a, T b) const { return a + b; }
};
struct Work {  // record: f(), whose result replay() gives
  int operator()() const { return 0; }
};

}  // namespace executor_probe

// A memory space: where an Array<T, Space> lives (Host, Device).
template <class S>
concept MemorySpace = requires(void* p, std::size_t bytes) {
  { S::allocate(bytes) } -> std::same_as<void*>;
  S::deallocate(p, bytes);
};

// An executor runs one-source functors and the primitives below on its memory space. Pointers
// are to executor memory unless named `host`; every primitive is deterministic (the same bits
// for any thread count and on every backend). Index-typed probes stand for any element type.
template <class E>
concept Executor = MemorySpace<typename E::space> &&
                   requires(E& exec, index_t n, int bits, std::size_t bytes, const index_t* in,
                            index_t* out, index_t* host, const std::int64_t* wide_in,
                            std::int64_t* wide_out, const double* values_in, double* values_out) {
  // Members: the memory space of its arrays and results, and the lanes an item may take in
  // for_each_grouped (lanes.hpp: CPU 1, CUDA a warp's 32).
  { E::lanes } -> std::convertible_to<int>;
  requires(E::lanes >= 1);

  // Work: f(i) for i in [0, n); f(i, scratch) with Bytes bytes of the item's own;
  // f(phase, tile, thread, shared) for Threads threads a tile, a phase at a time, sharing
  // `bytes`; f(i, lane) with G lanes an item (G = 1 everywhere, up to `lanes` where more).
  exec.for_each(n, executor_probe::Item{});
  exec.template for_each_with_scratch<16>(n, executor_probe::ItemWithScratch{});
  exec.template for_each_tile<32>(n, bits, bytes, executor_probe::TileThread{});
  exec.template for_each_grouped<1>(n, executor_probe::ItemLane{});
  exec.template for_each_grouped<E::lanes>(n, executor_probe::ItemLane{});

  // Scans: out[i] = in[0] + ... + in[i-1], in place allowed; the total returned (a host
  // wait), or left at `total` in executor memory (no wait; null: not kept).
  { exec.exclusive_scan(in, out, n) } -> std::same_as<index_t>;
  { exec.exclusive_scan(wide_in, wide_out, n) } -> std::same_as<std::int64_t>;
  exec.exclusive_scan(in, out, n, out);

  // Sorts, stable: radix sorts on the low `bits` bits (all by default), each segment
  // [offsets[s], offsets[s+1]) on its own, and the positions grouped by their key in [0, groups).
  exec.sort_pairs(out, out, n);
  exec.sort_pairs(out, out, n, bits);
  exec.sort_keys(out, n);
  exec.sort_keys(out, n, bits);
  exec.segmented_sort_pairs(out, values_out, in, n);
  exec.group_by_key(in, n, n, out, out);

  // Reductions: each segment in order (empty ones get the identity); how many i satisfy pred
  // (returned, or left at `count` in executor memory).
  exec.segmented_reduce(values_in, in, n, values_out, executor_probe::Reduction{});
  { exec.count_if(n, executor_probe::Predicate{}) } -> std::same_as<index_t>;
  exec.count_if(n, executor_probe::Predicate{}, out);

  // Compaction, keeping the order: the elements where pred(position) holds (their count
  // returned, or left at `count` in executor memory), the positions themselves, run heads.
  { exec.select_if(in, n, out, executor_probe::Predicate{}) } -> std::same_as<index_t>;
  exec.select_if(in, n, out, out, executor_probe::Predicate{});
  exec.select_positions(n, out, out, executor_probe::Predicate{});
  { exec.unique(in, n, out) } -> std::same_as<index_t>;

  // Scatter: out[keys[i]] = min(out[keys[i]], value(i)), integer minima in any order.
  exec.scatter_min(in, n, out, executor_probe::ValueOf{});

  // Memory: elements read and written from the host (one wait each), copies within the
  // executor's memory, and waiting for the work asked so far.
  { exec.read(in) } -> std::same_as<index_t>;
  exec.read(in, n, host);
  exec.write(out, n);
  exec.copy(in, n, out);
  exec.synchronize();

  // The work of one call kept to run again: replay() runs it and gives its result.
  { exec.record(executor_probe::Work{}).replay() } -> std::same_as<const int&>;
};

}  // namespace spmesh::linalg
