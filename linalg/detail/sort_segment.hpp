// In-place sort of one short segment of (key, value) pairs by a thread: insertion sort for
// short runs, heapsort beyond. Keys are unique wherever order matters, so the result is
// deterministic although heapsort is not stable.
#pragma once

#include "linalg/base.hpp"

namespace spmesh::linalg::detail {

template <class K, class V>
SPMESH_HD void swap_pair(K* k, V* v, index_t a, index_t b) {
  K tk = k[a];
  k[a] = k[b];
  k[b] = tk;
  if (v) {
    V tv = v[a];
    v[a] = v[b];
    v[b] = tv;
  }
}

template <class K, class V>
SPMESH_HD void sift_down(K* k, V* v, index_t root, index_t n) {
  for (;;) {
    index_t child = 2 * root + 1;
    if (child >= n) return;
    if (child + 1 < n && k[child] < k[child + 1]) ++child;
    if (!(k[root] < k[child])) return;
    swap_pair(k, v, root, child);
    root = child;
  }
}

// Sorts keys[0, n) ascending, permuting values alongside (values may be null).
template <class K, class V>
SPMESH_HD void sort_segment(K* keys, V* values, index_t n) {
  if (n <= 24) {
    for (index_t i = 1; i < n; ++i)
      for (index_t j = i; j > 0 && keys[j] < keys[j - 1]; --j) swap_pair(keys, values, j, j - 1);
    return;
  }
  for (index_t root = n / 2 - 1; root >= 0; --root) sift_down(keys, values, root, n);
  for (index_t end = n - 1; end > 0; --end) {
    swap_pair(keys, values, 0, end);
    sift_down(keys, values, 0, end);
  }
}

}  // namespace spmesh::linalg::detail
