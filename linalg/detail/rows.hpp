// Sparse results built row by row (the engine of COO assembly, SpGEMM and the implicit M M^T).
// A *producer* lists the contributions of row i in the order they must be combined:
//
//   SPMESH_HD std::int64_t bound(index_t i) const;       // at most this many contributions
//   template <class Sink> SPMESH_HD void operator()(index_t i, Sink&& sink) const;
//                                                          // sink(column, value) for each one
//
// Each row folds its contributions into a small sorted set in its own scratch (scratch.hpp: on
// the GPU, shared memory): a new column is inserted in order, a repeated one is combined with
// `reduce` in arrival order. A row with more than `Cap` distinct columns spills to global
// scratch instead (its contributions written out, stable-sorted by column, then reduced run by
// run: the same order, so the same bits). Two passes (count, then fill) and no atomics:
// deterministic, the same on every backend.
#pragma once

#include "linalg/formats.hpp"
#include "linalg/scratch.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace spmesh::linalg::detail {

// The column key of scratch entries that hold no contribution: sorts after every real column.
inline constexpr index_t absent = max_index;

// Up to Cap distinct columns in ascending order with their reduced values (values only when
// WithValues; the counting pass needs columns alone), in an item's scratch of `bytes`.
template <int Cap, class T, bool WithValues>
class RowSet {
public:
  static constexpr std::size_t bytes = Cap * (sizeof(index_t) + (WithValues ? sizeof(T) : 0));

  SPMESH_HD explicit RowSet(ItemScratch scratch)
      : vals_(scratch.take<T>(WithValues ? Cap : 0)), cols_(scratch.take<index_t>(Cap)) {}

  SPMESH_HD int size() const { return size_; }
  SPMESH_HD bool overflow() const { return overflow_; }
  SPMESH_HD index_t column(int e) const { return cols_[e]; }
  SPMESH_HD T value(int e) const { return vals_[e]; }

  template <class Reduce>
  SPMESH_HD void add(index_t col, T v, const Reduce& reduce) {
    int lo = 0, hi = size_;
    while (lo < hi) {  // first position whose column is >= col
      const int mid = (lo + hi) / 2;
      if (cols_[mid] < col)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo < size_ && cols_[lo] == col) {
      if constexpr (WithValues) vals_[lo] = reduce(vals_[lo], v);
      return;
    }
    if (size_ == Cap) {
      overflow_ = true;
      return;
    }
    for (int m = size_; m > lo; --m) {
      cols_[m] = cols_[m - 1];
      if constexpr (WithValues) vals_[m] = vals_[m - 1];
    }
    cols_[lo] = col;
    if constexpr (WithValues) vals_[lo] = v;
    ++size_;
  }

private:
  Strided<T> vals_;  // taken first: the wider elements keep the columns aligned
  Strided<index_t> cols_;
  int size_ = 0;
  bool overflow_ = false;
};

template <int Cap, class T, class Producer, class Reduce>
struct CountRow {
  using Set = RowSet<Cap, T, false>;
  Producer produce;
  Reduce reduce;
  index_t* counts;  // distinct columns of row i, or -1 when they exceed Cap
  SPMESH_HD void operator()(index_t i, ItemScratch scratch) const {
    Set set(scratch);
    produce(i, [&](index_t col, const T& v) { set.add(col, v, reduce); });
    counts[i] = set.overflow() ? -1 : set.size();
  }
};

template <int Cap, class T, class Producer, class Reduce>
struct FillRow {
  using Set = RowSet<Cap, T, true>;
  Producer produce;
  Reduce reduce;
  const index_t* offsets;
  const index_t* spilled;  // scratch slot of row i, or -1; null when no row spilled
  index_t* indices;
  T* values;
  SPMESH_HD void operator()(index_t i, ItemScratch scratch) const {
    if (spilled && spilled[i] >= 0) return;  // filled from scratch
    Set set(scratch);
    produce(i, [&](index_t col, const T& v) { set.add(col, v, reduce); });
    for (int e = 0; e < set.size(); ++e) {
      indices[offsets[i] + e] = set.column(e);
      values[offsets[i] + e] = set.value(e);
    }
  }
};

// A rows x cols canonical CSR matrix of the producer's contributions.
template <int Cap, class T, class Exec, class Producer, class Reduce>
Csr<T, typename Exec::space> build_rows(Exec& exec, index_t rows, index_t cols,
                                        const Producer& produce, const Reduce& reduce) {
  using S = typename Exec::space;
  Array<index_t, S> offsets(rows + 1);
  index_t* rn = offsets.data();
  using Count = CountRow<Cap, T, Producer, Reduce>;
  exec.template for_each_with_scratch<Count::Set::bytes>(rows, Count{produce, reduce, rn});

  // Rows with more than Cap distinct columns: contributions to scratch, sorted, reduced.
  const index_t spills = exec.count_if(rows, [=] SPMESH_HD(index_t i) { return rn[i] < 0; });
  Array<index_t, S> spilled, spill_rows, scratch_offsets, keys;
  Array<T, S> scratch;
  if (spills > 0) {
    spilled = Array<index_t, S>(rows);
    spill_rows = Array<index_t, S>(spills);
    scratch_offsets = Array<index_t, S>(spills + 1);
    index_t *sp = spilled.data(), *sr = spill_rows.data(), *so = scratch_offsets.data();
    exec.for_each(rows, [=] SPMESH_HD(index_t i) { sp[i] = i; });
    exec.select_if(sp, rows, sr, [=] SPMESH_HD(index_t i) { return rn[i] < 0; });
    exec.for_each(rows, [=] SPMESH_HD(index_t i) { sp[i] = -1; });
    Array<std::int64_t, S> bounds(spills);  // producer.bound(i) is 64-bit: rows may be huge
    std::int64_t* b = bounds.data();
    exec.for_each(spills, [=] SPMESH_HD(index_t t) {
      sp[sr[t]] = t;
      b[t] = produce.bound(sr[t]);
    });
    const index_t total =
        checked_index(exec.exclusive_scan(b, b, spills), "contributions of the longest rows");
    exec.for_each(spills + 1, [=] SPMESH_HD(index_t t) {
      so[t] = t < spills ? static_cast<index_t>(b[t]) : total;
    });
    keys = Array<index_t, S>(total);
    scratch = Array<T, S>(total);
    index_t* ks = keys.data();
    T* vs = scratch.data();
    exec.for_each(spills, [=] SPMESH_HD(index_t t) {
      index_t p = so[t];
      produce(sr[t], [&](index_t col, const T& v) { ks[p] = col, vs[p++] = v; });
      for (; p < so[t + 1]; ++p) ks[p] = absent;
    });
    exec.segmented_sort_pairs(ks, vs, so, spills);
    exec.for_each(spills, [=] SPMESH_HD(index_t t) {
      index_t runs = 0;
      for (index_t p = so[t]; p < so[t + 1] && ks[p] != absent; ++p)
        runs += p == so[t] || ks[p] != ks[p - 1] ? 1 : 0;
      rn[sr[t]] = runs;
    });
  }

  const index_t nnz = exec.exclusive_scan(rn, rn, rows);
  exec.write(rn + rows, nnz);
  Array<index_t, S> indices(nnz);
  Array<T, S> values(nnz);
  index_t* idx = indices.data();
  T* val = values.data();
  using Fill = FillRow<Cap, T, Producer, Reduce>;
  exec.template for_each_with_scratch<Fill::Set::bytes>(
      rows, Fill{produce, reduce, rn, spills > 0 ? spilled.data() : nullptr, idx, val});
  if (spills > 0) {
    const index_t *sr = spill_rows.data(), *so = scratch_offsets.data(), *ks = keys.data();
    const T* vs = scratch.data();
    exec.for_each(spills, [=] SPMESH_HD(index_t t) {
      index_t out = rn[sr[t]];
      for (index_t p = so[t]; p < so[t + 1] && ks[p] != absent;) {
        const index_t col = ks[p];
        T acc = vs[p];
        for (++p; p < so[t + 1] && ks[p] == col; ++p) acc = reduce(acc, vs[p]);
        idx[out] = col;
        val[out++] = acc;
      }
    });
  }
  return Csr<T, S>(rows, cols, std::move(offsets), std::move(indices), std::move(values));
}

}  // namespace spmesh::linalg::detail
