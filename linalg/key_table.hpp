// An open-addressing hash table of 64-bit keys, filled by one-source kernels with integer
// atomics: each slot keeps its key, how many values were inserted with it, and the lowest and
// highest of them. What it holds once filled does not depend on the order the insertions land
// in (docs/design.md, "Determinism").
#pragma once

#include "linalg/array.hpp"
#include "linalg/atomics.hpp"
#include "linalg/base.hpp"
#include "linalg/tuning.hpp"

#include <cstdint>
#include <string>

namespace spmesh::linalg {

// What kernels use of a table (KeyTableArrays::view()).
struct KeyTable {
  static constexpr std::uint64_t empty = ~std::uint64_t(0);
  std::uint64_t* keys;
  index_t *count, *lowest, *highest;
  std::uint64_t mask;  // slots - 1
  int shift;           // 64 - log2(slots)

  // Empties slot s (a kernel over every slot runs it before any insert).
  SPMESH_HD void clear(index_t s) const {
    keys[s] = empty, count[s] = 0, lowest[s] = max_index, highest[s] = -1;
  }
  SPMESH_HD std::uint64_t start(std::uint64_t key) const {
    return (key * 0x9E3779B97F4A7C15ull) >> shift;  // Fibonacci hashing
  }
  // Adds `value` under `key` (key != empty).
  SPMESH_HD void insert(std::uint64_t key, index_t value) const {
    std::uint64_t s = start(key);
    for (;;) {
      const std::uint64_t held = atomic_cas(keys + s, empty, key);
      if (held == empty || held == key) break;
      s = (s + 1) & mask;
    }
    atomic_add(count + s, 1);
    atomic_min(lowest + s, value), atomic_max(highest + s, value);
  }
  // The slot of `key` once the table is filled, or -1.
  SPMESH_HD index_t find(std::uint64_t key) const {
    for (std::uint64_t s = start(key);; s = (s + 1) & mask) {
      if (keys[s] == key) return static_cast<index_t>(s);
      if (keys[s] == empty) return -1;
    }
  }
};

// A table's memory: a power of two of slots, at least tuning::key_table_slots_per_two_keys for
// every two keys to insert, and at least 2^tuning::key_table_min_slot_bits.
template <class S>
struct KeyTableArrays {
  int bits = tuning::key_table_min_slot_bits;
  Array<std::uint64_t, S> keys;
  Array<index_t, S> counts;  // count, lowest, highest: a slot array each

  explicit KeyTableArrays(std::int64_t insertions) {
    const std::int64_t wanted = insertions * tuning::key_table_slots_per_two_keys / 2;
    while (bits < 31 && (std::int64_t(1) << bits) < wanted) ++bits;
    const index_t n = slots();
    keys = Array<std::uint64_t, S>(n), counts = Array<index_t, S>(3 * std::int64_t(n));
  }
  index_t slots() const { return checked_index(std::int64_t(1) << bits, "hash table slots"); }
  KeyTable view() {
    const index_t n = slots();
    return {keys.data(), counts.data(), counts.data() + n, counts.data() + 2 * std::int64_t(n),
            std::uint64_t(n - 1), 64 - bits};
  }
};

}  // namespace spmesh::linalg
