// Offsets of the lines of a sorted key array (CSR row pointers from sorted row indices), and the
// bit width of a key range: helpers of the sort-based conversions on every backend.
#pragma once

#include "linalg/base.hpp"

#include <bit>
#include <cstdint>

namespace spmesh::linalg::detail {

// Bits needed to hold values in [0, n).
inline int bits_for(std::uint64_t n) { return n <= 1 ? 1 : std::bit_width(n - 1); }

// offsets[r] = first position whose key is >= r, for keys sorted ascending in [0, lines).
template <class Exec, class K>
void offsets_from_sorted(Exec& exec, const K* keys, index_t n, index_t lines, index_t* offsets) {
  if (n == 0) {
    exec.for_each(lines + 1, [=] SPMESH_HD(index_t r) { offsets[r] = 0; });
    return;
  }
  // Position p starts the lines (keys[p-1], keys[p]]; the last position also ends the rest.
  exec.for_each(n, [=] SPMESH_HD(index_t p) {
    const index_t from = p == 0 ? 0 : static_cast<index_t>(keys[p - 1]) + 1;
    for (index_t r = from; r <= static_cast<index_t>(keys[p]); ++r) offsets[r] = p;
    if (p == n - 1)
      for (index_t r = static_cast<index_t>(keys[p]) + 1; r <= lines; ++r) offsets[r] = n;
  });
}

}  // namespace spmesh::linalg::detail
