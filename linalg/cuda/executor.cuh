// cuda::Executor: runs one-source SPMESH_HD functors as kernels on a stream and provides the
// same primitives as cpu::Executor on CUB (scan, radix sort, compaction, counting), with a
// reusable temp-storage buffer. Compile with nvcc (--extended-lambda --expt-relaxed-constexpr).
#pragma once

#include "linalg/cuda/memory.hpp"
#include "linalg/executor.hpp"
#include "linalg/scratch.hpp"
#include "linalg/tuning.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace spmesh::linalg::cuda {

namespace detail {
template <class F>
__global__ void for_each_kernel(index_t n, F f) {
  const index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}

// The same for a functor that asks for MinBlocks resident blocks per SM (a register cap:
// latency-bound gathers gain from occupancy more than they lose to a few spills).
template <int MinBlocks, class F>
__global__ void __launch_bounds__(tuning::cuda_block_threads, MinBlocks)
    for_each_bounded_kernel(index_t n, F f) {
  const index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}

// f(i, scratch) with the block's dynamic shared memory shared out among its threads.
template <class F>
__global__ void for_each_scratch_kernel(index_t n, F f) {
  extern __shared__ __align__(16) unsigned char block_scratch[];
  const index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    f(i, ItemScratch(reinterpret_cast<std::byte*>(block_scratch), static_cast<index_t>(threadIdx.x),
                     static_cast<index_t>(blockDim.x)));
}

// A block per tile, its phases separated by barriers, its scratch in shared memory.
template <int Threads, class F>
__global__ void __launch_bounds__(Threads) for_each_tile_kernel(int phases, F f) {
  extern __shared__ __align__(16) unsigned char tile_scratch[];
  for (int p = 0; p < phases; ++p) {
    if (p > 0) __syncthreads();
    f(p, static_cast<index_t>(blockIdx.x), static_cast<int>(threadIdx.x),
      reinterpret_cast<std::byte*>(tile_scratch));
  }
}

// Every thread runs, past the end too, so that the G lanes of an item can shuffle.
template <int G, class F>
__global__ void for_each_grouped_kernel(F f) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  f(static_cast<index_t>(t / G), static_cast<int>(t % G));
}

// Stable insertion sort of segment s when it has at most Max elements, in registers; longer
// segments are left to the caller. V = void: keys alone.
template <class K, class V, index_t Max>
struct SortShortSegment {
  using Value = std::conditional_t<std::is_void_v<V>, char, V>;
  K* keys;
  V* values;
  const index_t* offsets;

  __device__ void operator()(index_t s) const {
    const index_t lo = offsets[s], n = offsets[s + 1] - lo;
    if (n < 2 || n > Max) return;
    K k[Max];
    Value v[Max];
    for (index_t i = 0; i < n; ++i) {
      k[i] = keys[lo + i];
      if constexpr (!std::is_void_v<V>) v[i] = values[lo + i];
    }
    for (index_t i = 1; i < n; ++i) {
      const K key = k[i];
      index_t j = i;
      if constexpr (std::is_void_v<V>) {
        for (; j > 0 && key < k[j - 1]; --j) k[j] = k[j - 1];
      } else {
        const Value value = v[i];
        for (; j > 0 && key < k[j - 1]; --j) k[j] = k[j - 1], v[j] = v[j - 1];
        v[j] = value;
      }
      k[j] = key;
    }
    for (index_t i = 0; i < n; ++i) {
      keys[lo + i] = k[i];
      if constexpr (!std::is_void_v<V>) values[lo + i] = v[i];
    }
  }
};
}  // namespace detail

// The work that one call asked of an executor, kept as a CUDA graph (Executor::record) to be
// run again at the cost of one launch: replay() runs it and gives its result. It holds the
// memory that the work used (the result's, and the temporaries', which the graph reuses each
// time), and refers to the inputs where they were.
template <class R>
class Recording {
public:
  Recording(Recording&& o) noexcept
      : stream_(o.stream_), graph_(std::exchange(o.graph_, nullptr)), held_(std::move(o.held_)),
        result_(std::move(o.result_)) {}
  Recording& operator=(Recording&& o) noexcept {
    std::swap(stream_, o.stream_), std::swap(graph_, o.graph_), std::swap(held_, o.held_);
    std::swap(result_, o.result_);
    return *this;
  }
  ~Recording() {
    if (graph_) cudaGraphExecDestroy(graph_);
    for (const auto& b : held_) Device::deallocate(b.p, b.bytes);  // after the last replay's work
  }

  // Runs the work again, on the inputs' present contents, and gives its result (in the same
  // place every time; ready when the executor is synchronised or read).
  const R& replay() {
    check(cudaGraphLaunch(graph_, stream_), "cudaGraphLaunch (Recording::replay)");
    return *result_;
  }

private:
  friend class Executor;
  explicit Recording(cudaStream_t stream) : stream_(stream) {}
  cudaStream_t stream_;
  cudaGraphExec_t graph_ = nullptr;
  std::vector<Device::Block> held_;
  std::optional<R> result_;
};

class Executor {
public:
  using space = Device;

  explicit Executor(int device = 0) : device_(device) {
    check(cudaSetDevice(device_), "cudaSetDevice");
    // A blocking stream: it orders itself with the legacy default stream that device memory
    // is allocated and freed on (see Device in memory.hpp).
    check(cudaStreamCreate(&stream_), "cudaStreamCreate");
  }
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;
  ~Executor() {
    for (cudaStream_t s : {stream_, capture_})
      if (s) cudaStreamDestroy(s);
  }

  cudaStream_t stream() const { return stream_; }
  void synchronize() const {
    ++counts_.waits;
    check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
  }

  // What this executor has asked of the GPU so far: launches (its kernels, and each CUB call
  // once) and host waits (reads and synchronisations). Each costs microseconds however small
  // the work, which is what bounds the build of small and medium levels.
  struct Counts {
    std::int64_t launches = 0, waits = 0;
  };
  Counts counts() const { return counts_; }

  template <class T>
  T read(const T* p) const {
    T v;
    read(p, 1, &v);
    return v;
  }
  // n elements at once, with one wait.
  template <class T>
  void read(const T* p, index_t n, T* host) const {
    check(cudaMemcpyAsync(host, p, sizeof(T) * n, cudaMemcpyDeviceToHost, stream_), "cudaMemcpyAsync (read)");
    synchronize();
  }
  template <class T>
  void write(T* p, T v) const { write(p, &v, 1); }
  // n elements from host memory, with one wait (the host's may go as soon as this returns).
  template <class T>
  void write(T* p, const T* host, index_t n) const {
    if (n > 0) check(cudaMemcpyAsync(p, host, sizeof(T) * n, cudaMemcpyHostToDevice, stream_), "cudaMemcpyAsync (write)");
    synchronize();
  }

  // f(i) for i in [0, n), one thread each; a functor with `static constexpr int
  // min_blocks_per_sm` runs with that occupancy hint (for_each_bounded_kernel).
  template <class F>
  void for_each(index_t n, F f) {
    if (n <= 0) return;
    ++counts_.launches;
    constexpr int block = tuning::cuda_block_threads;
    if constexpr (requires { F::min_blocks_per_sm; })
      detail::for_each_bounded_kernel<F::min_blocks_per_sm>
          <<<(n + block - 1) / block, block, 0, stream_>>>(n, f);
    else
      detail::for_each_kernel<<<(n + block - 1) / block, block, 0, stream_>>>(n, f);
    check(cudaGetLastError(), "for_each kernel launch");
  }

  // f(i, scratch) for i in [0, n), one thread each; scratch is Bytes bytes of the item's own
  // (scratch.hpp) in shared memory, tuning::cuda_block_shared_bytes per block: Bytes bounds the
  // threads an SM holds.
  template <std::size_t Bytes, class F>
  void for_each_with_scratch(index_t n, F f) {
    constexpr std::size_t block = std::min<std::size_t>(
        tuning::cuda_block_threads, tuning::cuda_block_shared_bytes / Bytes / 32 * 32);
    static_assert(block >= 32, "for_each_with_scratch: at most 1536 bytes per item");
    if (n <= 0) return;
    ++counts_.launches;
    detail::for_each_scratch_kernel<<<(n + block - 1) / block, block, Bytes * block, stream_>>>(n, f);
    check(cudaGetLastError(), "for_each_with_scratch kernel launch");
  }

  // f(phase, tile, thread, shared) for every tile in [0, tiles), thread in [0, Threads) and
  // phase in [0, phases), a phase at a time: every thread of a tile ends a phase before any
  // starts the next, and a tile's threads share `bytes` bytes of scratch (uninitialised,
  // 16-byte aligned). Here a tile is a block of Threads threads, its scratch shared memory.
  template <int Threads, class F>
  void for_each_tile(index_t tiles, int phases, std::size_t bytes, F f) {
    static_assert(Threads >= 32 && Threads <= 1024 && Threads % 32 == 0, "Threads: whole warps");
    if (bytes > tuning::cuda_block_shared_bytes)
      throw CapacityError("for_each_tile: " + std::to_string(bytes) +
                          " bytes of shared memory per tile, over the " +
                          std::to_string(tuning::cuda_block_shared_bytes) + " a block may have");
    if (tiles <= 0) return;
    ++counts_.launches;
    detail::for_each_tile_kernel<Threads><<<tiles, Threads, bytes, stream_>>>(phases, f);
    check(cudaGetLastError(), "for_each_tile kernel launch");
  }

  // The work f() asks of this executor, recorded, not run: the Recording runs it at each
  // replay(), as one CUDA graph (one launch instead of one per kernel, no host time between
  // kernels). f's inputs stay where they were for as long as the recording is replayed (their
  // contents may change between replays), and f must not wait for the device (no read or
  // synchronisation: a replay could not answer it again).
  template <class F>
  auto record(F f) -> Recording<std::invoke_result_t<F&>> {
    using R = std::invoke_result_t<F&>;
    if (Device::holding()) throw Error("cuda::Executor::record: a recording is being made already");
    if (!capture_)
      check(cudaStreamCreateWithFlags(&capture_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    Recording<R> recording(stream_);
    // The capture stream does not wait for the pool's allocations on the legacy stream (a
    // blocking stream that captures may not), which happen at once; frees are held. CUB's temp
    // storage starts afresh, so that what the work uses of it goes with the recording.
    temp_ = DeviceArray<TempUnit>();
    check(cudaStreamBeginCapture(capture_, cudaStreamCaptureModeRelaxed), "cudaStreamBeginCapture");
    const cudaStream_t own = std::exchange(stream_, capture_);
    Device::holding() = &recording.held_;
    std::exception_ptr thrown;
    try {
      recording.result_.emplace(f());
    } catch (...) {
      thrown = std::current_exception();
    }
    temp_ = DeviceArray<TempUnit>();
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(capture_, &graph);
    stream_ = own, Device::holding() = nullptr;
    if (thrown || ended != cudaSuccess) {
      if (graph) cudaGraphDestroy(graph);
      cudaGetLastError();
      std::string what = std::string("cudaStreamEndCapture: ") + cudaGetErrorName(ended);
      try {
        if (thrown) std::rethrow_exception(thrown);
      } catch (const CudaError& e) {
        what = e.what();
      }  // anything else goes to the caller as it is
      throw CudaError("cuda::Executor::record: " + what +
                      " (the work recorded may not wait for the device: no read, no synchronisation)");
    }
    const cudaError_t made = cudaGraphInstantiate(&recording.graph_, graph, 0);
    cudaGraphDestroy(graph);
    check(made, "cudaGraphInstantiate");
    return recording;
  }

  // to[i] = from[i] for i in [0, n) (executor memory).
  template <class T>
  void copy(const T* from, index_t n, T* to) {
    if (n > 0) check(cudaMemcpyAsync(to, from, sizeof(T) * n, cudaMemcpyDeviceToDevice, stream_), "cudaMemcpyAsync");
  }

  // Threads of one warp that can combine partial results (lanes.hpp).
  static constexpr int lanes = 32;

  // f(i, lane) for lane in [0, G) of every i in [0, n): G consecutive threads per item. f is
  // also called for items past n (up to a whole block), which must take part in lane_sum and
  // touch nothing else.
  template <int G, class F>
  void for_each_grouped(index_t n, F f) {
    static_assert(G >= 1 && G <= lanes && (G & (G - 1)) == 0, "G: a power of two up to 32");
    if (n <= 0) return;
    ++counts_.launches;
    constexpr int block = tuning::cuda_block_threads;
    const std::int64_t threads = static_cast<std::int64_t>(n) * G;
    detail::for_each_grouped_kernel<G><<<(threads + block - 1) / block, block, 0, stream_>>>(f);
    check(cudaGetLastError(), "for_each_grouped kernel launch");
  }

  template <class T>
  T exclusive_scan(const T* in, T* out, index_t n) {
    if (n <= 0) return T(0);
    // The last input (kept before an in-place scan overwrites it) and the last output, read
    // back together: one wait.
    DeviceArray<T> ends(2);
    check(cudaMemcpyAsync(ends.data(), in + n - 1, sizeof(T), cudaMemcpyDeviceToDevice, stream_), "cudaMemcpyAsync");
    std::size_t bytes = 0;
    check(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n, stream_), "cub::DeviceScan");
    ++counts_.launches;
    check(cub::DeviceScan::ExclusiveSum(temp(bytes), bytes, in, out, n, stream_), "cub::DeviceScan");
    check(cudaMemcpyAsync(ends.data() + 1, out + n - 1, sizeof(T), cudaMemcpyDeviceToDevice, stream_), "cudaMemcpyAsync");
    T host[2];
    read(ends.data(), 2, host);
    return host[0] + host[1];
  }
  // The same with no wait: the caller knows the total, or leaves it on the device at `total`
  // (device memory; null: not kept).
  template <class T>
  void exclusive_scan(const T* in, T* out, index_t n, T* total) {
    if (n <= 0) {
      if (total) check(cudaMemsetAsync(total, 0, sizeof(T), stream_), "cudaMemsetAsync");
      return;
    }
    const T* last = in + n - 1;
    DeviceArray<T> kept(total && in == out ? 1 : 0);  // the last input, before it is overwritten
    if (kept.size() > 0) {
      check(cudaMemcpyAsync(kept.data(), last, sizeof(T), cudaMemcpyDeviceToDevice, stream_), "cudaMemcpyAsync");
      last = kept.data();
    }
    std::size_t bytes = 0;
    check(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n, stream_), "cub::DeviceScan");
    ++counts_.launches;
    check(cub::DeviceScan::ExclusiveSum(temp(bytes), bytes, in, out, n, stream_), "cub::DeviceScan");
    if (!total) return;
    const T* end = out + n - 1;
    for_each(1, [=] __device__(index_t) { *total = *end + *last; });
  }

  template <class K, class V>
  void sort_pairs(K* keys, V* values, index_t n, int key_bits = 8 * sizeof(K)) {
    if (n <= 1) return;
    using U = std::make_unsigned_t<K>;
    DeviceArray<K> key_tmp(n);
    DeviceArray<V> value_tmp(n);
    cub::DoubleBuffer<U> kb(reinterpret_cast<U*>(keys), reinterpret_cast<U*>(key_tmp.data()));
    cub::DoubleBuffer<V> vb(values, value_tmp.data());
    const int bits = key_bits < int(8 * sizeof(K)) ? key_bits : int(8 * sizeof(K));
    std::size_t bytes = 0;
    check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, kb, vb, n, 0, bits, stream_), "cub::DeviceRadixSort");
    ++counts_.launches;
    check(cub::DeviceRadixSort::SortPairs(temp(bytes), bytes, kb, vb, n, 0, bits, stream_), "cub::DeviceRadixSort");
    if (kb.Current() != reinterpret_cast<U*>(keys)) {
      check(cudaMemcpyAsync(keys, kb.Current(), sizeof(K) * n, cudaMemcpyDeviceToDevice, stream_), "cudaMemcpyAsync");
      check(cudaMemcpyAsync(values, vb.Current(), sizeof(V) * n, cudaMemcpyDeviceToDevice, stream_), "cudaMemcpyAsync");
    }
  }  // no wait: the temporaries are freed in stream order, after the sort (memory.hpp)

  template <class K>
  void sort_keys(K* keys, index_t n, int key_bits = 8 * sizeof(K)) {
    if (n <= 1) return;
    using U = std::make_unsigned_t<K>;
    DeviceArray<K> key_tmp(n);
    cub::DoubleBuffer<U> kb(reinterpret_cast<U*>(keys), reinterpret_cast<U*>(key_tmp.data()));
    const int bits = key_bits < int(8 * sizeof(K)) ? key_bits : int(8 * sizeof(K));
    std::size_t bytes = 0;
    check(cub::DeviceRadixSort::SortKeys(nullptr, bytes, kb, n, 0, bits, stream_), "cub::DeviceRadixSort");
    ++counts_.launches;
    check(cub::DeviceRadixSort::SortKeys(temp(bytes), bytes, kb, n, 0, bits, stream_), "cub::DeviceRadixSort");
    if (kb.Current() != reinterpret_cast<U*>(keys))
      check(cudaMemcpyAsync(keys, kb.Current(), sizeof(K) * n, cudaMemcpyDeviceToDevice, stream_), "cudaMemcpyAsync");
  }

  // Stable ascending sort of every segment [offsets[s], offsets[s+1]) on its own, values
  // (V = void: none) alongside: one thread per short segment (the rows of mesh products), in
  // registers; CUB's segmented sort for the long ones.
  template <class K, class V>
  void segmented_sort_pairs(K* keys, V* values, const index_t* offsets, index_t segments) {
    if (segments <= 0) return;
    for_each(segments, detail::SortShortSegment<K, V, short_segment>{keys, values, offsets});
    auto is_long = [=] __device__(index_t s) { return offsets[s + 1] - offsets[s] > short_segment; };
    const index_t longs = count_if(segments, is_long);
    if (longs == 0) return;
    // CUB sorts the long segments from copies into the arrays, leaving the rest as it is.
    const index_t n = read(offsets + segments);
    DeviceArray<index_t> ids(segments), chosen(longs), begins(longs), ends(longs);
    index_t *id = ids.data(), *ch = chosen.data(), *bg = begins.data(), *en = ends.data();
    for_each(segments, [=] __device__(index_t s) { id[s] = s; });
    select_if(id, segments, ch, is_long);
    for_each(longs, [=] __device__(index_t t) { bg[t] = offsets[ch[t]], en[t] = offsets[ch[t] + 1]; });
    DeviceArray<K> key_copy(n);
    check(cudaMemcpyAsync(key_copy.data(), keys, sizeof(K) * n, cudaMemcpyDeviceToDevice, stream_), "cudaMemcpyAsync");
    std::size_t bytes = 0;
    ++counts_.launches;
    if constexpr (std::is_void_v<V>) {
      check(cub::DeviceSegmentedSort::StableSortKeys(nullptr, bytes, key_copy.data(), keys, n, longs, bg, en, stream_),
            "cub::DeviceSegmentedSort");
      check(cub::DeviceSegmentedSort::StableSortKeys(temp(bytes), bytes, key_copy.data(), keys, n, longs, bg, en, stream_),
            "cub::DeviceSegmentedSort");
    } else {
      DeviceArray<V> value_copy(n);
      check(cudaMemcpyAsync(value_copy.data(), values, sizeof(V) * n, cudaMemcpyDeviceToDevice, stream_), "cudaMemcpyAsync");
      check(cub::DeviceSegmentedSort::StableSortPairs(nullptr, bytes, key_copy.data(), keys, value_copy.data(), values, n,
                                                      longs, bg, en, stream_),
            "cub::DeviceSegmentedSort");
      check(cub::DeviceSegmentedSort::StableSortPairs(temp(bytes), bytes, key_copy.data(), keys, value_copy.data(), values,
                                                      n, longs, bg, en, stream_),
            "cub::DeviceSegmentedSort");
    }
  }

  // The CPU backend's stable counting sort, with the same result: integer atomics count the
  // groups and rank each position within its group (in an order that varies run to run), the
  // positions are scattered by rank, then each group is sorted back to ascending order.
  void group_by_key(const index_t* keys, index_t n, index_t groups, index_t* offsets,
                    index_t* positions) {
    check(cudaMemsetAsync(offsets, 0, sizeof(index_t) * (groups + 1), stream_), "cudaMemsetAsync");
    if (n <= 0) return;
    DeviceArray<index_t> rank(n);
    index_t* rk = rank.data();
    for_each(n, [=] __device__(index_t p) { rk[p] = atomicAdd(offsets + keys[p], 1); });
    exclusive_scan(offsets, offsets, groups + 1, static_cast<index_t*>(nullptr));  // no wait: the total is n
    for_each(n, [=] __device__(index_t p) { positions[offsets[keys[p]] + rk[p]] = p; });
    segmented_sort_pairs(positions, static_cast<void*>(nullptr), offsets, groups);
  }

  // One thread per segment, in order: the same bits as the CPU backend.
  template <class T, class Reduce>
  void segmented_reduce(const T* in, const index_t* offsets, index_t segments, T* out, Reduce r) {
    for_each(segments, [=] __device__(index_t s) {
      const index_t lo = offsets[s], hi = offsets[s + 1];
      if (lo == hi) {
        out[s] = r.template identity<T>();
        return;
      }
      T acc = in[lo];
      for (index_t p = lo + 1; p < hi; ++p) acc = r(acc, in[p]);
      out[s] = acc;
    });
  }

  template <class Pred>
  index_t count_if(index_t n, Pred pred) {
    if (n <= 0) return 0;
    DeviceArray<index_t> count(1);
    count_if(n, pred, count.data());
    return read(count.data());
  }
  // The same with the count left in device memory (no wait), for counts that share one read.
  template <class Pred>
  void count_if(index_t n, Pred pred, index_t* count) {
    if (n <= 0) {
      check(cudaMemsetAsync(count, 0, sizeof(index_t), stream_), "cudaMemsetAsync");
      return;
    }
    DeviceArray<index_t> flags(n);
    index_t* f = flags.data();
    for_each(n, [=] __device__(index_t i) { f[i] = pred(i) ? 1 : 0; });
    std::size_t bytes = 0;
    check(cub::DeviceReduce::Sum(nullptr, bytes, f, count, n, stream_), "cub::DeviceReduce");
    ++counts_.launches;
    check(cub::DeviceReduce::Sum(temp(bytes), bytes, f, count, n, stream_), "cub::DeviceReduce");
  }

  template <class T, class Pred>
  index_t select_if(const T* in, index_t n, T* out, Pred pred) {
    if (n <= 0) return 0;
    DeviceArray<index_t> count(1);
    select_if(in, n, out, count.data(), pred);
    return read(count.data());
  }
  // The same with the count left in device memory (no wait), for selections that share one
  // read.
  template <class T, class Pred>
  void select_if(const T* in, index_t n, T* out, index_t* count, Pred pred) {
    if (n <= 0) {
      check(cudaMemsetAsync(count, 0, sizeof(index_t), stream_), "cudaMemsetAsync");
      return;
    }
    DeviceArray<char> flags(n);
    char* f = flags.data();
    for_each(n, [=] __device__(index_t i) { f[i] = pred(i) ? 1 : 0; });
    std::size_t bytes = 0;
    check(cub::DeviceSelect::Flagged(nullptr, bytes, in, f, out, count, n, stream_), "cub::DeviceSelect");
    ++counts_.launches;
    check(cub::DeviceSelect::Flagged(temp(bytes), bytes, in, f, out, count, n, stream_), "cub::DeviceSelect");
  }

  // The positions i in [0, n) where pred(i) holds, increasing, into out; their count left in
  // device memory at `count`. One CUB selection over a counting iterator: no flags, no input.
  template <class Pred>
  void select_positions(index_t n, index_t* out, index_t* count, Pred pred) {
    if (n <= 0) {
      check(cudaMemsetAsync(count, 0, sizeof(index_t), stream_), "cudaMemsetAsync");
      return;
    }
    const thrust::counting_iterator<index_t> positions(0);
    std::size_t bytes = 0;
    check(cub::DeviceSelect::If(nullptr, bytes, positions, out, count, n, pred, stream_), "cub::DeviceSelect");
    ++counts_.launches;
    check(cub::DeviceSelect::If(temp(bytes), bytes, positions, out, count, n, pred, stream_), "cub::DeviceSelect");
  }

  // out[keys[i]] = min(out[keys[i]], value(i)) for every i in [0, n): integer minima, so the
  // result does not depend on the order the atomics land in.
  template <class Value>
  void scatter_min(const index_t* keys, index_t n, index_t* out, Value value) {
    for_each(n, [=] __device__(index_t i) { atomicMin(out + keys[i], value(i)); });
  }

  template <class K>
  index_t unique(const K* in, index_t n, K* out) {
    return select_if(in, n, out, [=] __device__(index_t i) { return i == 0 || !(in[i] == in[i - 1]); });
  }

private:
  // Segments up to this long are sorted by one thread each, in registers.
  static constexpr index_t short_segment = tuning::cuda_short_segment;

  // CUB temp storage, grown on demand and reused across calls: counted in 16-byte units, so that
  // a sort past 2^31 bytes of buffers (its items still fewer than 2^31) gets them.
  struct alignas(16) TempUnit {
    unsigned char bytes[16];
  };
  void* temp(std::size_t bytes) {
    const std::size_t units = (bytes + sizeof(TempUnit) - 1) / sizeof(TempUnit);
    if (units > static_cast<std::size_t>(temp_.size()))
      temp_ = DeviceArray<TempUnit>(checked_index(static_cast<std::int64_t>(units), "CUB temp storage (16-byte units)"));
    return temp_.data();
  }

  int device_ = 0;
  cudaStream_t stream_ = nullptr;
  cudaStream_t capture_ = nullptr;  // the stream record() captures, made at the first recording
  DeviceArray<TempUnit> temp_;
  mutable Counts counts_;
};

}  // namespace spmesh::linalg::cuda

static_assert(spmesh::linalg::Executor<spmesh::linalg::cuda::Executor>,
              "cuda::Executor provides every primitive of the executor contract (linalg/executor.hpp)");

namespace spmesh {
namespace cuda = linalg::cuda;
}
