// The back half of the sort-based sparse products (expand, sort, compress): every output row
// arrives as a segment of (column, contribution) pairs listed in the order the contributions
// must be combined; a stable sort by column and an in-order reduction of each run of equal
// columns make it a canonical CSR row. COO assembly, SpGEMM and the implicit M M^T share it,
// on every backend, so each gives the same bits everywhere.
#pragma once

#include <string>

#include "linalg/formats.hpp"

namespace spmesh::linalg::detail {

// The column key of a product that contributes nothing (a map that emitted no value): it sorts
// after every real column and is dropped.
inline constexpr index_t absent = max_index;

// Row i's products are keys/values [offsets[i], offsets[i+1]).
template <class T, class S>
struct Segments {
  Array<index_t, S> offsets;  // rows + 1
  Array<index_t, S> keys;     // columns, or `absent`
  Array<T, S> values;
};

// Sorts every row's products by column (stable), in place.
template <class Exec, class T, class S>
void sort_segments(Exec& exec, Segments<T, S>& seg, index_t rows) {
  exec.segmented_sort_pairs(seg.keys.data(), seg.values.data(), seg.offsets.data(), rows);
}

// Canonical CSR from sorted segments: one entry per run of equal columns, its contributions
// combined by `reduce` from first to last.
template <class Exec, class T, class Reduce>
Csr<T, typename Exec::space> compress_sorted(Exec& exec, index_t rows, index_t cols,
                                             const Segments<T, typename Exec::space>& seg,
                                             Reduce reduce) {
  using S = typename Exec::space;
  const index_t *so = seg.offsets.data(), *ks = seg.keys.data();
  const T* vs = seg.values.data();
  Array<index_t, S> offsets(rows + 1);
  index_t* rn = offsets.data();
  exec.for_each(rows, [=] SPMESH_HD(index_t i) {
    index_t runs = 0;
    for (index_t p = so[i]; p < so[i + 1] && ks[p] != absent; ++p)
      runs += p == so[i] || ks[p] != ks[p - 1] ? 1 : 0;
    rn[i] = runs;
  });
  const index_t nnz = exec.exclusive_scan(rn, rn, rows);
  exec.write(rn + rows, nnz);
  Array<index_t, S> indices(nnz);
  Array<T, S> values(nnz);
  index_t* idx = indices.data();
  T* val = values.data();
  exec.for_each(rows, [=] SPMESH_HD(index_t i) {
    index_t out = rn[i];
    for (index_t p = so[i]; p < so[i + 1] && ks[p] != absent;) {
      const index_t col = ks[p];
      T acc = vs[p];
      for (++p; p < so[i + 1] && ks[p] == col; ++p) acc = reduce(acc, vs[p]);
      idx[out] = col;
      val[out++] = acc;
    }
  });
  return Csr<T, S>(rows, cols, std::move(offsets), std::move(indices), std::move(values));
}

// sort_segments, then compress_sorted.
template <class Exec, class T, class Reduce>
Csr<T, typename Exec::space> compress(Exec& exec, index_t rows, index_t cols,
                                      Segments<T, typename Exec::space>& seg, Reduce reduce) {
  sort_segments(exec, seg, rows);
  return compress_sorted(exec, rows, cols, seg, reduce);
}

}  // namespace spmesh::linalg::detail
