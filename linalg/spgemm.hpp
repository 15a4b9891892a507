// Mapped SpGEMM C = A B (design.md "Action maps"): when A(i,k) meets B(k,j) the map
// lambda(a_ik, b_kj, i, k, j) returns what the collision contributes, or nothing; the
// contributions to C(i,j) are combined by a reduction in a fixed order (position in row i of A,
// then position in row k of B), so results are bit-identical run to run and across backends.
// The symbolic phase fixes C's pattern; the numeric phase (re)fills its values, so a pattern
// can be reused when A and B change values but not structure.
//
// Expand, sort, compress (ESC): every product of row i is written to row i's segment in
// contribution order, the segments are sorted by column (stable) and each run of equal columns
// is reduced (linalg/detail/compress.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "linalg/detail/compress.hpp"
#include "linalg/formats.hpp"
#include "linalg/maps.hpp"

namespace spmesh::linalg {

namespace detail {

inline void check_product(const char* op, index_t a_rows, index_t a_cols, index_t b_rows,
                          index_t b_cols) {
  if (a_cols != b_rows)
    throw DimensionError(std::string(op) + ": A is " + std::to_string(a_rows) + " x " +
                         std::to_string(a_cols) + " but B is " + std::to_string(b_rows) + " x " +
                         std::to_string(b_cols));
}

// Every product of A B under `map`, row by row in contribution order. One thread per stored
// entry A(i,k) writes the |row k of B| products it meets, so the work is spread evenly even
// when row lengths differ. A's offsets start at 0 (as every matrix built here).
template <class Exec, class TA, class TB, class Map>
Segments<collision_t<Map, TA, TB>, typename Exec::space> expand_products(
    Exec& exec, const Csr<TA, typename Exec::space>& A, const Csr<TB, typename Exec::space>& B,
    Map map) {
  using S = typename Exec::space;
  using R = collision_t<Map, TA, TB>;
  const auto a = A.view();
  const auto b = B.view();
  const index_t nnz = A.nnz();
  // Products per entry of A (64-bit: the total may overflow index_t), scanned to their offsets.
  Array<std::int64_t, S> counts(nnz + 1);
  Array<index_t, S> row_of(nnz);
  std::int64_t* c = counts.data();
  index_t* ro = row_of.data();
  exec.for_each(a.outer, [=] SPMESH_HD(index_t i) {
    for (index_t p = a.begin(i); p < a.end(i); ++p) {
      c[p] = b.end(a.index(p)) - b.begin(a.index(p));
      ro[p] = i;
    }
  });
  const std::int64_t total = exec.exclusive_scan(c, c, nnz);
  exec.write(c + nnz, total);  // the end of the last row (and of empty trailing rows)
  const index_t n = checked_index(total, "spgemm: intermediate products");
  Segments<R, S> seg{Array<index_t, S>(A.rows + 1), Array<index_t, S>(n), Array<R, S>(n)};
  index_t *so = seg.offsets.data(), *ks = seg.keys.data();
  R* vs = seg.values.data();
  exec.for_each(A.rows + 1, [=] SPMESH_HD(index_t i) {
    so[i] = static_cast<index_t>(c[i < a.outer ? a.begin(i) : nnz]);
  });
  exec.for_each(nnz, [=] SPMESH_HD(index_t p) {
    const index_t i = ro[p], k = a.index(p);
    index_t out = static_cast<index_t>(c[p]);
    for (index_t q = b.begin(k); q < b.end(k); ++q, ++out) {
      const auto e = as_emit(map(a.value(i, p), b.value(k, q), i, k, b.index(q)));
      ks[out] = e.emitted ? b.index(q) : absent;
      vs[out] = e.value;
    }
  });
  return seg;
}

}  // namespace detail

// C = A B under `map`, contributions combined by `reduce`.
template <class Exec, class TA, class TB, class S, class Map = map::Multiply,
          class Reduce = reduce::Sum>
auto spgemm(Exec& exec, const Csr<TA, S>& A, const Csr<TB, S>& B, Map map = {},
            Reduce reduce = {}) {
  detail::check_product("spgemm", A.rows, A.cols, B.rows, B.cols);
  auto seg = detail::expand_products(exec, A, B, map);
  return detail::compress(exec, A.rows, B.cols, seg, reduce);
}

// Symbolic phase: the pattern of C = A B under `map` (entries where some collision emits), with
// sorted unique columns per row; its values are left unspecified for spgemm_numeric to fill.
template <class Exec, class TA, class TB, class S, class Map = map::Multiply>
Csr<collision_t<Map, TA, TB>, S> spgemm_symbolic(Exec& exec, const Csr<TA, S>& A,
                                                 const Csr<TB, S>& B, Map map = {}) {
  return spgemm(exec, A, B, map, reduce::First{});
}

// Numeric phase: fills C.values for C's pattern from spgemm_symbolic with the same A and B
// structure. Pattern entries that receive no contribution get the reduction's identity. Throws
// if a collision emits outside the pattern (the structure changed).
template <class Exec, class TA, class TB, class R, class S, class Map = map::Multiply,
          class Reduce = reduce::Sum>
void spgemm_numeric(Exec& exec, const Csr<TA, S>& A, const Csr<TB, S>& B, Csr<R, S>& C,
                    Map map = {}, Reduce reduce = {}) {
  detail::check_product("spgemm_numeric", A.rows, A.cols, B.rows, B.cols);
  if (C.rows != A.rows || C.cols != B.cols)
    throw DimensionError("spgemm_numeric: C is " + C.shape() + ", expected " +
                         std::to_string(A.rows) + " x " + std::to_string(B.cols));
  auto seg = detail::expand_products(exec, A, B, map);
  detail::sort_segments(exec, seg, A.rows);
  Array<index_t, S> bad(A.rows);
  const index_t *so = seg.offsets.data(), *ks = seg.keys.data();
  const auto* vs = seg.values.data();
  index_t* bd = bad.data();
  const index_t *c_off = C.offsets.data(), *c_idx = C.indices.data();
  R* c_val = C.values.data();
  exec.for_each(A.rows, [=] SPMESH_HD(index_t i) {
    index_t out = c_off[i];
    bool ok = true;
    for (index_t p = so[i]; p < so[i + 1] && ks[p] != detail::absent;) {
      const index_t col = ks[p];
      R acc = static_cast<R>(vs[p]);
      for (++p; p < so[i + 1] && ks[p] == col; ++p) acc = reduce(acc, static_cast<R>(vs[p]));
      while (out < c_off[i + 1] && c_idx[out] < col) c_val[out++] = reduce.template identity<R>();
      if (out < c_off[i + 1] && c_idx[out] == col)
        c_val[out++] = acc;
      else
        ok = false;
    }
    while (out < c_off[i + 1]) c_val[out++] = reduce.template identity<R>();
    bd[i] = ok ? 0 : 1;
  });
  const index_t broken = exec.count_if(A.rows, [=] SPMESH_HD(index_t i) { return bd[i] != 0; });
  if (broken > 0)
    throw InputError("spgemm_numeric: " + std::to_string(broken) +
                     " rows have products outside C's pattern; A or B changed structure since "
                     "spgemm_symbolic");
}

}  // namespace spmesh::linalg
