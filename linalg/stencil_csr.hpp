// A sparse matrix whose rows share their weights (issue 6: the compressed refinement matrix).
// Subdivision's R repeats a few stencils many times: every row in a regular region has the
// same weights as thousands of others, only on other columns. StencilCsr stores each row as its
// columns (16-bit where the matrix has at most 65536 columns) in the order of its sorted
// weights, plus one shift into a table holding every distinct weight list once. Replay then
// moves 2 bytes per non-zero and 8 per row instead of 8 and 4: y = A x reads the columns, and
// the weights from a table small enough to stay in cache.
#pragma once

#include "linalg/executor.hpp"
#include "linalg/formats.hpp"
#include "linalg/spmv.hpp"
#include "linalg/tuning.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

namespace spmesh::linalg {

// Row o's entries p in [offsets[o], offsets[o+1]): column columns[p], weight table[shift[o] + p].
template <class T, class Column>
struct StencilView {
  index_t outer = 0, inner = 0;
  const index_t* offsets = nullptr;
  const Column* columns = nullptr;
  const index_t* shift = nullptr;
  const T* table = nullptr;

  SPMESH_HD index_t begin(index_t o) const { return offsets[o]; }
  SPMESH_HD index_t end(index_t o) const { return offsets[o + 1]; }
  SPMESH_HD index_t index(index_t p) const { return static_cast<index_t>(columns[p]); }
  SPMESH_HD T value(index_t o, index_t p) const { return table[shift[o] + p]; }

  // GPU lanes per row (spmv.hpp): an entry costs a dependent load more than in CSR, so rows
  // take one lane up to a longer length than there, then two (tuning.hpp).
  static int lanes_per_row(double average) {
    return average < tuning::stencil_two_lanes_from ? 1 : 2;
  }
};

template <class T, class Column, class Space = Host>
struct StencilCsr {
  using value_type = T;
  using space = Space;

  index_t rows = 0, cols = 0, stencils = 0;  // stencils: distinct weight lists in the table
  Array<index_t, Space> offsets;  // rows + 1
  Array<Column, Space> columns;   // nnz: each row's columns, in the order of its weights
  Array<index_t, Space> shift;    // rows: table position of row o's weights, minus offsets[o]
  Array<T, Space> table;          // every distinct weight list once

  index_t nnz() const { return columns.size(); }
  StencilView<T, Column> view() const {
    return {rows, cols, offsets.data(), columns.data(), shift.data(), table.data()};
  }
};

namespace detail {

// The bits of a weight, as the key that sorts a row's entries into a canonical order.
template <class T>
using WeightBits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;

template <class T>
SPMESH_HD WeightBits<T> weight_bits(T w) {
  WeightBits<T> b;
  memcpy(&b, &w, sizeof(T));
  return b;
}

// FNV-1a over a row's length and its sorted weight bits.
template <class K>
struct RowHash {
  const index_t* offsets;
  const K* keys;
  std::uint64_t* hash;

  SPMESH_HD void operator()(index_t r) const {
    std::uint64_t h = 1469598103934665603ull ^ static_cast<std::uint64_t>(offsets[r + 1] - offsets[r]);
    for (index_t p = offsets[r]; p < offsets[r + 1]; ++p)
      for (unsigned s = 0; s < 8 * sizeof(K); s += 8)
        h = (h ^ ((static_cast<std::uint64_t>(keys[p]) >> s) & 0xffu)) * 1099511628211ull;
    hash[r] = h;
  }
};

// Whether rows a and b hold the same sorted weights.
template <class K>
SPMESH_HD bool same_weights(const index_t* offsets, const K* keys, index_t a, index_t b) {
  const index_t n = offsets[a + 1] - offsets[a];
  if (offsets[b + 1] - offsets[b] != n) return false;
  for (index_t t = 0; t < n; ++t)
    if (keys[offsets[a] + t] != keys[offsets[b] + t]) return false;
  return true;
}

}  // namespace detail

// Encodes A (any CSR; its entries are kept exactly, with their values as weights) into a
// StencilCsr with Column-typed columns. Rows with the same multiset of weights share one table
// entry; their columns follow that entry's order. Deterministic. Throws CapacityError if A has
// more columns than Column can number, and Error in the (64-bit hash) case of two different
// weight lists with one hash, rather than sharing them wrongly.
template <class Column, Executor Exec, class T, class S = typename Exec::space>
StencilCsr<T, Column, S> encode_stencils(Exec& exec, const Csr<T, S>& A) {
  using K = detail::WeightBits<T>;
  if (static_cast<std::int64_t>(A.cols) - 1 > static_cast<std::int64_t>(std::numeric_limits<Column>::max()))
    throw CapacityError("encode_stencils: " + std::to_string(A.cols) +
                        " columns do not fit a " + std::to_string(8 * sizeof(Column)) +
                        "-bit column index");
  const index_t rows = A.rows, nnz = A.nnz();
  StencilCsr<T, Column, S> out;
  out.rows = rows, out.cols = A.cols;
  out.offsets = Array<index_t, S>(rows + 1);
  {
    const index_t* in = A.offsets.data();
    index_t* o = out.offsets.data();
    exec.for_each(rows + 1, [=] SPMESH_HD(index_t r) { o[r] = in[r]; });
  }
  // Each row's entries sorted by weight bits (stable: equal weights keep column order).
  Array<K, S> keys(nnz);
  Array<index_t, S> cols(nnz);
  {
    const T* v = A.values.data();
    const index_t* j = A.indices.data();
    K* k = keys.data();
    index_t* c = cols.data();
    exec.for_each(nnz, [=] SPMESH_HD(index_t p) { k[p] = detail::weight_bits(v[p]), c[p] = j[p]; });
  }
  const index_t* offsets = out.offsets.data();
  exec.segmented_sort_pairs(keys.data(), cols.data(), offsets, rows);

  // Rows grouped by the hash of their sorted weights; the first row of a group stands for it.
  Array<std::uint64_t, S> hash(rows);
  Array<index_t, S> order(rows), stencil_of(rows);
  exec.for_each(rows, detail::RowHash<K>{offsets, keys.data(), hash.data()});
  {
    index_t* ord = order.data();
    exec.for_each(rows, [=] SPMESH_HD(index_t r) { ord[r] = r; });
  }
  exec.sort_pairs(hash.data(), order.data(), rows);
  {
    const std::uint64_t* h = hash.data();
    index_t* first = stencil_of.data();  // 1 where a group starts, then its number
    exec.for_each(rows, [=] SPMESH_HD(index_t q) { first[q] = q == 0 || h[q] != h[q - 1]; });
  }
  out.stencils = exec.exclusive_scan(stencil_of.data(), stencil_of.data(), rows);
  // stencil_of[q] is now the number of groups started before q: the group of q is
  // stencil_of[q] - 1 unless q starts one. `leader[s]` is group s's first row.
  Array<index_t, S> leader(out.stencils), length(out.stencils + 1);
  {
    const std::uint64_t* h = hash.data();
    const index_t *ord = order.data(), *st = stencil_of.data();
    index_t *lead = leader.data(), *len = length.data();
    exec.for_each(rows, [=] SPMESH_HD(index_t q) {
      if (q == 0 || h[q] != h[q - 1]) lead[st[q]] = ord[q], len[st[q]] = offsets[ord[q] + 1] - offsets[ord[q]];
    });
    const index_t* lead_c = leader.data();
    const K* k = keys.data();
    const index_t mismatched = exec.count_if(rows, [=] SPMESH_HD(index_t q) {
      const index_t s = (q == 0 || h[q] != h[q - 1]) ? st[q] : st[q] - 1;
      return !detail::same_weights(offsets, k, ord[q], lead_c[s]);
    });
    if (mismatched > 0)
      throw Error("encode_stencils: " + std::to_string(mismatched) +
                  " rows share a 64-bit hash with different weights; not encoded");
  }
  const index_t table_size = exec.exclusive_scan(length.data(), length.data(), out.stencils);
  out.table = Array<T, S>(table_size);
  out.shift = Array<index_t, S>(rows);
  out.columns = Array<Column, S>(nnz);
  {
    const std::uint64_t* h = hash.data();
    const index_t *ord = order.data(), *st = stencil_of.data(), *start = length.data(),
                  *lead = leader.data();
    const K* k = keys.data();
    T* table = out.table.data();
    index_t* shift = out.shift.data();
    exec.for_each(rows, [=] SPMESH_HD(index_t q) {
      const bool leads = q == 0 || h[q] != h[q - 1];
      const index_t s = leads ? st[q] : st[q] - 1, r = ord[q];
      shift[r] = start[s] - offsets[r];
      if (!leads) return;
      for (index_t p = offsets[lead[s]]; p < offsets[lead[s] + 1]; ++p) {
        T w;
        memcpy(&w, &k[p], sizeof(T));
        table[start[s] + p - offsets[lead[s]]] = w;
      }
    });
    const index_t* c = cols.data();
    Column* col = out.columns.data();
    exec.for_each(nnz, [=] SPMESH_HD(index_t p) { col[p] = static_cast<Column>(c[p]); });
  }
  return out;
}

// Y (rows x k) = A X (cols x k), X and Y Dense blocks or row ranges of one, as spmm on CSR
// (the plain product only: no map, sum).
template <Executor Exec, class T, class Column, class S, detail::DenseInput X, detail::DenseOutput Y>
void spmm(Exec& exec, const StencilCsr<T, Column, S>& A, const X& X_in, Y&& Y_out,
          map::Identity = {}, reduce::Sum = {}) {
  const auto x = detail::in_rows<S>(X_in);
  const auto y = detail::out_rows<S>(Y_out);
  detail::check_shape("spmm", "X", x.rows, x.cols, A.cols, x.cols);
  detail::check_shape("spmm", "Y", y.rows, y.cols, A.rows, x.cols);
  detail::gather<false>(exec, A.view(), x.data, y.data, x.cols, A.nnz(), map::Identity{},
                        reduce::Sum{});
}

}  // namespace spmesh::linalg
