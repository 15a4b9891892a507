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

}  // namespace spmesh::linalg
