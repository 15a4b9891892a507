// Searches inside one-source kernels.
#pragma once

#include "linalg/base.hpp"

namespace spmesh::linalg {

// The position of `key` in the increasing keys[0, n), or -1 (binary search).
template <class K>
SPMESH_HD index_t find_sorted(const K* keys, index_t n, K key) {
  index_t lo = 0, hi = n;
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && keys[lo] == key ? lo : -1;
}

// The row of CSR offsets[0, rows] that holds entry `position` (offsets[row] <= position <
// offsets[row + 1]; empty rows are skipped), by binary search.
SPMESH_HD inline index_t row_of(const index_t* offsets, index_t rows, index_t position) {
  index_t lo = 0, hi = rows;  // the first row whose end is past position
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    if (offsets[mid + 1] <= position) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

}  // namespace spmesh::linalg
