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
// run: the same order, so the same bits), a batch of such rows at a time. Two passes (count, then fill) and no atomics:
// deterministic, the same on every backend.
#pragma once

#include "linalg/formats.hpp"
#include "linalg/scratch.hpp"
#include "linalg/tuning.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

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

// The rows of a batch of spilled rows (build_rows), reduced: row t of the batch (spill_rows[first
// + t]) has its columns and values at [at[t], at[t + 1]) of cols and vals, to be placed once the
// result's offsets are known.
template <class T, class S>
struct SpilledRows {
  index_t first = 0, last = 0;
  Array<index_t, S> at, cols;
  Array<T, S> vals;
};

// Folds the spilled rows [first, last) (spill_rows, their contributions at [bounds[t] - start,
// bounds[t + 1] - start) of `contributions`): written out, stable-sorted by column, reduced run by
// run; each row's count of columns goes to row_counts.
template <class T, class Exec, class Producer, class Reduce>
SpilledRows<T, typename Exec::space> fold_spilled(Exec& exec, const Producer& produce, const Reduce& reduce,
                                                  const index_t* spill_rows, const std::int64_t* bounds,
                                                  index_t first, index_t last, index_t contributions,
                                                  index_t* row_counts) {
  using S = typename Exec::space;
  const index_t n = last - first;
  const std::int64_t start = exec.read(bounds + first);
  Array<index_t, S> scratch_offsets(n + 1), keys(contributions);
  Array<T, S> scratch(contributions);
  index_t *so = scratch_offsets.data(), *ks = keys.data();
  T* vs = scratch.data();
  const index_t* sr = spill_rows + first;
  const std::int64_t* b = bounds + first;
  exec.for_each(n + 1, [=] SPMESH_HD(index_t t) { so[t] = static_cast<index_t>(b[t] - start); });
  exec.for_each(n, [=] SPMESH_HD(index_t t) {
    index_t p = so[t];
    produce(sr[t], [&](index_t col, const T& v) { ks[p] = col, vs[p++] = v; });
    for (; p < so[t + 1]; ++p) ks[p] = absent;
  });
  exec.segmented_sort_pairs(ks, vs, so, n);
  SpilledRows<T, S> out{first, last, Array<index_t, S>(n + 1), {}, {}};
  index_t* at = out.at.data();
  exec.for_each(n, [=] SPMESH_HD(index_t t) {
    index_t runs = 0;
    for (index_t p = so[t]; p < so[t + 1] && ks[p] != absent; ++p)
      runs += p == so[t] || ks[p] != ks[p - 1] ? 1 : 0;
    at[t] = row_counts[sr[t]] = runs;
  });
  const index_t reduced = exec.exclusive_scan(at, at, n);
  exec.write(at + n, reduced);
  out.cols = Array<index_t, S>(reduced), out.vals = Array<T, S>(reduced);
  index_t* cols = out.cols.data();
  T* vals = out.vals.data();
  exec.for_each(n, [=] SPMESH_HD(index_t t) {
    index_t put = at[t];
    for (index_t p = so[t]; p < so[t + 1] && ks[p] != absent;) {
      const index_t col = ks[p];
      T acc = vs[p];
      for (++p; p < so[t + 1] && ks[p] == col; ++p) acc = reduce(acc, vs[p]);
      cols[put] = col, vals[put++] = acc;
    }
  });
  return out;
}

// A rows x cols canonical CSR matrix of the producer's contributions. The spilled rows are
// folded in batches of at most `spill_batch` contributions (a row alone may pass it), so that the
// longest rows of a large product fit memory and 32-bit positions together; each row is folded
// alone, so the batches change no bits.
template <int Cap, class T, class Exec, class Producer, class Reduce>
Csr<T, typename Exec::space> build_rows(Exec& exec, index_t rows, index_t cols, const Producer& produce,
                                        const Reduce& reduce,
                                        std::int64_t spill_batch = tuning::spill_batch_contributions) {
  using S = typename Exec::space;
  Array<index_t, S> offsets(rows + 1);
  index_t* rn = offsets.data();
  using Count = CountRow<Cap, T, Producer, Reduce>;
  exec.template for_each_with_scratch<Count::Set::bytes>(rows, Count{produce, reduce, rn});

  // Rows with more than Cap distinct columns: contributions to scratch, sorted, reduced, a batch
  // of rows at a time.
  const index_t spills = exec.count_if(rows, [=] SPMESH_HD(index_t i) { return rn[i] < 0; });
  Array<index_t, S> spilled, spill_rows;
  std::vector<SpilledRows<T, S>> batches;
  if (spills > 0) {
    spilled = Array<index_t, S>(rows);
    spill_rows = Array<index_t, S>(spills);
    index_t *sp = spilled.data(), *sr = spill_rows.data();
    exec.for_each(rows, [=] SPMESH_HD(index_t i) { sp[i] = i; });
    exec.select_if(sp, rows, sr, [=] SPMESH_HD(index_t i) { return rn[i] < 0; });
    exec.for_each(rows, [=] SPMESH_HD(index_t i) { sp[i] = -1; });
    Array<std::int64_t, S> bounds(spills + 1);  // producer.bound(i) is 64-bit: rows may be huge
    std::int64_t* b = bounds.data();
    exec.for_each(spills, [=] SPMESH_HD(index_t t) {
      sp[sr[t]] = t;
      b[t] = produce.bound(sr[t]);
    });
    exec.write(b + spills, exec.exclusive_scan(b, b, spills));
    for (index_t first = 0; first < spills;) {
      // The most rows from `first` whose contributions fit the batch (by bisection of the
      // offsets), at least one.
      const std::int64_t start = exec.read(b + first);
      index_t last = spills;
      if (exec.read(b + spills) - start > spill_batch) {
        index_t lo = first + 1, hi = spills;
        while (lo < hi) {
          const index_t mid = lo + (hi - lo + 1) / 2;
          if (exec.read(b + mid) - start <= spill_batch) lo = mid;
          else hi = mid - 1;
        }
        last = lo;
      }
      const index_t contributions = checked_index(exec.read(b + last) - start, "contributions of the longest rows");
      batches.push_back(fold_spilled<T>(exec, produce, reduce, sr, b, first, last, contributions, rn));
      first = last;
    }
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
  for (const auto& batch : batches) {
    const index_t *sr = spill_rows.data() + batch.first, *at = batch.at.data(), *from = batch.cols.data();
    const T* from_values = batch.vals.data();
    exec.for_each(batch.last - batch.first, [=] SPMESH_HD(index_t t) {
      for (index_t p = at[t], out = rn[sr[t]]; p < at[t + 1]; ++p, ++out) idx[out] = from[p], val[out] = from_values[p];
    });
  }
  return Csr<T, S>(rows, cols, std::move(offsets), std::move(indices), std::move(values));
}

}  // namespace spmesh::linalg::detail
