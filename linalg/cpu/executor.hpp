// cpu::Executor: runs one-source functors and the parallel primitives (scan, radix sort,
// segmented reduce, compaction) on the host with OpenMP. It is the reference backend.
#pragma once

#include "linalg/array.hpp"
#include "linalg/detail/offsets.hpp"
#include "linalg/executor.hpp"
#include "linalg/scratch.hpp"
#include "linalg/tuning.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include <omp.h>

namespace spmesh::linalg::cpu {

// The work of one call, kept to be run again (Executor::record): here the call itself.
template <class F>
class Recording {
public:
  using Result = std::invoke_result_t<F&>;
  explicit Recording(F f) : f_(std::move(f)) {}
  // Runs the work again, on the inputs' present contents, and gives its result.
  const Result& replay() {
    result_.emplace(f_());
    return *result_;
  }

private:
  F f_;
  std::optional<Result> result_;
};

class Executor {
public:
  using space = Host;

  // threads = 0 uses OpenMP's default (OMP_NUM_THREADS or all cores).
  explicit Executor(int threads = 0) : threads_(threads > 0 ? threads : omp_get_max_threads()) {}

  int threads() const { return threads_; }
  void synchronize() const {}

  // Elements of executor memory, read or written from the host.
  template <class T>
  T read(const T* p) const { return *p; }
  template <class T>
  void read(const T* p, index_t n, T* host) const { std::copy(p, p + n, host); }
  template <class T>
  void write(T* p, T v) const { *p = v; }
  template <class T>
  void write(T* p, const T* host, index_t n) const { std::copy(host, host + n, p); }

  // The work f() asks of this executor, to be run at each replay() of the Recording (the GPU
  // backend's records it as one graph; see there what f may do).
  template <class F>
  Recording<F> record(F f) const { return Recording<F>(std::move(f)); }

  // to[i] = from[i] for i in [0, n).
  template <class T>
  void copy(const T* from, index_t n, T* to) const { std::copy(from, from + n, to); }

  // f(i) for i in [0, n), in parallel. Loops shorter than tuning::cpu_grain stay on the calling
  // thread.
  template <class F>
  void for_each(index_t n, F f) const {
    if (n <= 0) return;
    if (n < tuning::cpu_grain || threads_ == 1) {
      for (index_t i = 0; i < n; ++i) f(i);
      return;
    }
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (index_t i = 0; i < n; ++i) f(i);
  }

  // f(i, scratch) for i in [0, n): scratch is Bytes bytes of the item's own (scratch.hpp), here
  // on its stack.
  template <std::size_t Bytes, class F>
  void for_each_with_scratch(index_t n, F f) const {
    for_each(n, [&](index_t i) {
      alignas(16) std::byte bytes[Bytes];
      f(i, ItemScratch(bytes, 0, 1));
    });
  }

  // f(phase, tile, thread, shared) for every tile in [0, tiles), thread in [0, Threads) and
  // phase in [0, phases), a phase at a time: every thread of a tile ends a phase before any
  // starts the next, and a tile's threads share `bytes` bytes of scratch (uninitialised,
  // 16-byte aligned). Here tiles run in parallel, each tile's threads one after another.
  template <int Threads, class F>
  void for_each_tile(index_t tiles, int phases, std::size_t bytes, F f) const {
    if (tiles <= 0) return;
#pragma omp parallel num_threads(threads_) if (tiles > 1 && threads_ > 1)
    {
      std::vector<std::max_align_t> shared((bytes + sizeof(std::max_align_t) - 1) /
                                           sizeof(std::max_align_t));
      auto* scratch = reinterpret_cast<std::byte*>(shared.data());
#pragma omp for schedule(static)
      for (index_t t = 0; t < tiles; ++t)
        for (int p = 0; p < phases; ++p)
          for (int i = 0; i < Threads; ++i) f(p, t, i, scratch);
    }
  }

  // One lane per item (lanes.hpp): for_each_grouped<1>(n, f) is f(i, 0) for every i.
  static constexpr int lanes = 1;
  template <int G, class F>
  void for_each_grouped(index_t n, F f) const {
    static_assert(G == 1, "the CPU executor has one lane per item");
    for_each(n, [&](index_t i) { f(i, 0); });
  }

  // out[i] = in[0] + ... + in[i-1]; returns the total. in == out is allowed.
  template <class T>
  T exclusive_scan(const T* in, T* out, index_t n) const {
    if (n <= 0) return T(0);
    const int blocks = block_count(n);
    std::vector<T> sums(blocks + 1, T(0));
    parallel_blocks(n, blocks, [&](int b, index_t lo, index_t hi) {
      T s(0);
      for (index_t i = lo; i < hi; ++i) s += in[i];
      sums[b + 1] = s;
    });
    for (int b = 0; b < blocks; ++b) sums[b + 1] += sums[b];
    parallel_blocks(n, blocks, [&](int b, index_t lo, index_t hi) {
      T s = sums[b];
      for (index_t i = lo; i < hi; ++i) {
        T v = in[i];
        out[i] = s;
        s += v;
      }
    });
    return sums[blocks];
  }
  // The same leaving the total at `total` (null: not kept); the GPU backend's version does not
  // wait for the scan.
  template <class T>
  void exclusive_scan(const T* in, T* out, index_t n, T* total) const {
    const T sum = exclusive_scan(in, out, n);
    if (total) *total = sum;
  }

  // Stable ascending LSD radix sort of (key, value) pairs on the low `key_bits` bits of the
  // keys, which must be non-negative. Stable, so the result is unique and deterministic.
  template <class K, class V>
  void sort_pairs(K* keys, V* values, index_t n, int key_bits = 8 * sizeof(K)) const {
    radix_sort<K, V, true>(keys, values, n, key_bits);
  }
  template <class K>
  void sort_keys(K* keys, index_t n, int key_bits = 8 * sizeof(K)) const {
    radix_sort<K, char, false>(keys, nullptr, n, key_bits);
  }

  // Sorts every segment [offsets[s], offsets[s+1]) of (key, value) pairs by key, ascending and
  // stable (equal keys keep their order), each segment on its own; offsets never decrease.
  template <class K, class V>
  void segmented_sort_pairs(K* keys, V* values, const index_t* offsets, index_t segments) const {
    for_each(segments, [=](index_t s) {
      const index_t lo = offsets[s], n = offsets[s + 1] - lo;
      K* k = keys + lo;
      V* v = values + lo;
      if (n <= tuning::cpu_insertion_sort_max) {  // insertion sort: stable, for short rows
        for (index_t i = 1; i < n; ++i) {
          const K key = k[i];
          const V value = v[i];
          index_t j = i;
          for (; j > 0 && key < k[j - 1]; --j) k[j] = k[j - 1], v[j] = v[j - 1];
          k[j] = key, v[j] = value;
        }
        return;
      }
      std::vector<index_t> order(n);
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [k](index_t a, index_t b) { return k[a] < k[b]; });
      std::vector<K> ks(n);
      std::vector<V> vs(n);
      for (index_t i = 0; i < n; ++i) ks[i] = k[order[i]], vs[i] = v[order[i]];
      std::copy(ks.begin(), ks.end(), k);
      std::copy(vs.begin(), vs.end(), v);
    });
  }

  // Groups the positions 0..n-1 by their key in [0, groups): positions[offsets[g] ..
  // offsets[g+1]) are the positions p with keys[p] == g, ascending (a stable counting sort; for
  // a compressed matrix's indices it is the transpose's pattern). offsets has groups + 1 entries.
  void group_by_key(const index_t* keys, index_t n, index_t groups, index_t* offsets,
                    index_t* positions) const {
    std::vector<index_t> sorted(keys, keys + n);
    for_each(n, [=](index_t p) { positions[p] = p; });
    sort_pairs(sorted.data(), positions, n, detail::bits_for(static_cast<std::uint64_t>(groups)));
    detail::offsets_from_sorted(*this, sorted.data(), n, groups, offsets);
  }

  // out[s] = reduction of in[offsets[s] .. offsets[s+1]) in order; empty segments get the
  // reduction's identity.
  template <class T, class Reduce>
  void segmented_reduce(const T* in, const index_t* offsets, index_t segments, T* out,
                        Reduce r) const {
    for_each(segments, [=](index_t s) {
      index_t lo = offsets[s], hi = offsets[s + 1];
      if (lo == hi) {
        out[s] = r.template identity<T>();
        return;
      }
      T acc = in[lo];
      for (index_t p = lo + 1; p < hi; ++p) acc = r(acc, in[p]);
      out[s] = acc;
    });
  }

  // Copies the elements for which pred(i) holds (i = position) to out, keeping their order;
  // returns how many. The positional predicate covers flags, values and run heads alike.
  template <class T, class Pred>
  index_t select_if(const T* in, index_t n, T* out, Pred pred) const {
    return select(n, pred, [&](index_t w, index_t i) { out[w] = in[i]; });
  }

  // The same with the count stored at `count` (cuda::Executor keeps it on the device).
  template <class T, class Pred>
  void select_if(const T* in, index_t n, T* out, index_t* count, Pred pred) const {
    *count = select_if(in, n, out, pred);
  }

  // The positions i in [0, n) where pred(i) holds, increasing, into out; their count at `count`.
  template <class Pred>
  void select_positions(index_t n, index_t* out, index_t* count, Pred pred) const {
    *count = select(n, pred, [&](index_t w, index_t i) { out[w] = i; });
  }

  // out[keys[i]] = min(out[keys[i]], value(i)) for every i in [0, n), in parallel: minima do
  // not depend on the order.
  template <class Value>
  void scatter_min(const index_t* keys, index_t n, index_t* out, Value value) const {
    for_each(n, [=](index_t i) {
      std::atomic_ref<index_t> target(out[keys[i]]);
      const index_t v = value(i);
      index_t seen = target.load(std::memory_order_relaxed);
      while (v < seen && !target.compare_exchange_weak(seen, v, std::memory_order_relaxed)) {
      }
    });
  }

  // How many i in [0, n) satisfy pred(i).
  template <class Pred>
  index_t count_if(index_t n, Pred pred) const {
    if (n <= 0) return 0;
    const int blocks = block_count(n);
    std::vector<index_t> counts(blocks, 0);
    parallel_blocks(n, blocks, [&](int b, index_t lo, index_t hi) {
      for (index_t i = lo; i < hi; ++i) counts[b] += pred(i) ? 1 : 0;
    });
    index_t total = 0;
    for (index_t c : counts) total += c;
    return total;
  }
  template <class Pred>
  void count_if(index_t n, Pred pred, index_t* count) const {
    *count = count_if(n, pred);
  }

  // Removes consecutive duplicates; returns the count kept.
  template <class K>
  index_t unique(const K* in, index_t n, K* out) const {
    return select_if(in, n, out, [=](index_t i) { return i == 0 || !(in[i] == in[i - 1]); });
  }

private:
  // write(w, i) for the w-th position i in [0, n) where pred(i) holds, in order; returns how
  // many: a count per block, their scan, then each block writes from its start.
  template <class Pred, class Write>
  index_t select(index_t n, Pred pred, Write write) const {
    if (n <= 0) return 0;
    const int blocks = block_count(n);
    std::vector<index_t> counts(blocks + 1, 0);
    parallel_blocks(n, blocks, [&](int b, index_t lo, index_t hi) {
      index_t c = 0;
      for (index_t i = lo; i < hi; ++i) c += pred(i) ? 1 : 0;
      counts[b + 1] = c;
    });
    for (int b = 0; b < blocks; ++b) counts[b + 1] += counts[b];
    parallel_blocks(n, blocks, [&](int b, index_t lo, index_t hi) {
      index_t w = counts[b];
      for (index_t i = lo; i < hi; ++i)
        if (pred(i)) write(w++, i);
    });
    return counts[blocks];
  }

  int block_count(index_t n) const {
    return n < tuning::cpu_one_block_below
               ? 1
               : std::min<int>(threads_ * tuning::cpu_blocks_per_thread,
                               static_cast<int>(n / tuning::cpu_grain));
  }

  // f(b, lo, hi) over `blocks` equal slices of [0, n), one slice per iteration.
  template <class F>
  void parallel_blocks(index_t n, int blocks, F&& f) const {
#pragma omp parallel for schedule(static) num_threads(threads_) if (blocks > 1)
    for (int b = 0; b < blocks; ++b) {
      index_t lo = static_cast<index_t>(static_cast<std::int64_t>(n) * b / blocks);
      index_t hi = static_cast<index_t>(static_cast<std::int64_t>(n) * (b + 1) / blocks);
      f(b, lo, hi);
    }
  }

  template <class K, class V, bool with_values>
  void radix_sort(K* keys, V* values, index_t n, int key_bits) const {
    static_assert(std::is_integral_v<K>, "radix sort keys are integers");
    using U = std::make_unsigned_t<K>;
    if (n <= 1 || key_bits <= 0) return;
    constexpr int digit_bits = tuning::cpu_radix_digit_bits, radix = 1 << digit_bits;
    const int passes = (std::min<int>(key_bits, 8 * sizeof(K)) + digit_bits - 1) / digit_bits;
    const int blocks = block_count(n);
    std::vector<K> key_tmp(n);
    std::vector<V> value_tmp(with_values ? n : 0);
    K *k_in = keys, *k_out = key_tmp.data();
    V *v_in = values, *v_out = value_tmp.data();
    std::vector<index_t> hist(static_cast<std::size_t>(blocks) * radix);
    for (int pass = 0; pass < passes; ++pass) {
      const int shift = pass * digit_bits;
      auto digit = [shift](K k) { return static_cast<int>((static_cast<U>(k) >> shift) & (radix - 1)); };
      std::fill(hist.begin(), hist.end(), 0);
      parallel_blocks(n, blocks, [&](int b, index_t lo, index_t hi) {
        index_t* h = &hist[static_cast<std::size_t>(b) * radix];
        for (index_t i = lo; i < hi; ++i) ++h[digit(k_in[i])];
      });
      // Digit-major, block-minor prefix: keeps equal digits in input order (stability).
      index_t sum = 0;
      for (int d = 0; d < radix; ++d)
        for (int b = 0; b < blocks; ++b) {
          index_t c = hist[static_cast<std::size_t>(b) * radix + d];
          hist[static_cast<std::size_t>(b) * radix + d] = sum;
          sum += c;
        }
      parallel_blocks(n, blocks, [&](int b, index_t lo, index_t hi) {
        index_t* h = &hist[static_cast<std::size_t>(b) * radix];
        for (index_t i = lo; i < hi; ++i) {
          index_t dst = h[digit(k_in[i])]++;
          k_out[dst] = k_in[i];
          if constexpr (with_values) v_out[dst] = v_in[i];
        }
      });
      std::swap(k_in, k_out);
      if constexpr (with_values) std::swap(v_in, v_out);
    }
    if (k_in != keys) {
      std::memcpy(keys, k_in, sizeof(K) * n);
      if constexpr (with_values) std::memcpy(values, v_in, sizeof(V) * n);
    }
  }

  int threads_;
};

}  // namespace spmesh::linalg::cpu

static_assert(spmesh::linalg::Executor<spmesh::linalg::cpu::Executor>,
              "cpu::Executor provides every primitive of the executor contract (linalg/executor.hpp)");

namespace spmesh {
namespace cpu = linalg::cpu;
}
