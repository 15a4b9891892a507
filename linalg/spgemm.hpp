// Mapped SpGEMM C = A B (design.md "Action maps"): when A(i,k) meets B(k,j) the map
// lambda(a_ik, b_kj, i, k, j) returns what the collision contributes, or nothing; the
// contributions to C(i,j) are combined by a reduction in a fixed order (k ascending through
// row i of A, then position in row k of B), so results are bit-identical run to run.
// The symbolic phase fixes C's pattern; the numeric phase (re)fills its values, so a pattern
// can be reused when A and B change values but not structure.
//
// Per row of C: expand the emitted products into a scratch segment, sort it by column,
// combine runs (an ESC scheme, one thread per row).
#pragma once

#include "linalg/detail/sort_segment.hpp"
#include "linalg/formats.hpp"
#include "linalg/maps.hpp"

#include <cstdint>
#include <string>

namespace spmesh::linalg {

namespace detail {

inline void check_product(const char* op, index_t a_rows, index_t a_cols, index_t b_rows,
                          index_t b_cols) {
  if (a_cols != b_rows)
    throw DimensionError(std::string(op) + ": A is " + std::to_string(a_rows) + " x " +
                         std::to_string(a_cols) + " but B is " + std::to_string(b_rows) +
                         " x " + std::to_string(b_cols));
}

// Scratch offsets: products per row of A B (upper bound on emissions), scanned.
template <class Exec, class TA, class TB>
Array<index_t, typename Exec::space> product_offsets(Exec& exec, const CompressedView<TA>& A,
                                                     const CompressedView<TB>& B) {
  using S = typename Exec::space;
  Array<std::int64_t, S> counts(A.outer + 1);
  std::int64_t* c = counts.data();
  exec.for_each(A.outer, [=] SPMESH_HD(index_t i) {
    std::int64_t n = 0;
    for (index_t p = A.begin(i); p < A.end(i); ++p) n += B.end(A.index(p)) - B.begin(A.index(p));
    c[i] = n;
  });
  const std::int64_t total = exec.exclusive_scan(c, c, A.outer);
  checked_index(total, "spgemm: intermediate products");
  Array<index_t, S> offsets(A.outer + 1);
  index_t* o = offsets.data();
  exec.for_each(A.outer + 1, [=] SPMESH_HD(index_t i) {
    o[i] = i < A.outer ? static_cast<index_t>(c[i]) : static_cast<index_t>(total);
  });
  return offsets;
}

}  // namespace detail

// Symbolic phase: the pattern of C = A B under `map` (entries where some collision emits).
// Returns C with sorted unique columns per row and unfilled values.
template <class Exec, class TA, class TB, class S, class Map = map::Multiply>
Csr<collision_t<Map, TA, TB>, S> spgemm_symbolic(Exec& exec, const Csr<TA, S>& A,
                                                 const Csr<TB, S>& B, Map map = {}) {
  using R = collision_t<Map, TA, TB>;
  detail::check_product("spgemm", A.rows, A.cols, B.rows, B.cols);
  const auto a = A.view();
  const auto b = B.view();
  Array<index_t, S> scratch_offsets = detail::product_offsets(exec, a, b);
  Array<index_t, S> scratch(exec.read(scratch_offsets.data() + A.rows));
  Array<index_t, S> row_nnz(A.rows + 1);
  const index_t* so = scratch_offsets.data();
  index_t *cols = scratch.data(), *rn = row_nnz.data();
  exec.for_each(A.rows, [=] SPMESH_HD(index_t i) {
    index_t* seg = cols + so[i];
    index_t n = 0;
    for (index_t p = a.begin(i); p < a.end(i); ++p) {
      const index_t k = a.index(p);
      for (index_t q = b.begin(k); q < b.end(k); ++q)
        if (detail::as_emit(map(a.value(i, p), b.value(k, q), i, k, b.index(q))).emitted)
          seg[n++] = b.index(q);
    }
    detail::sort_segment(seg, static_cast<char*>(nullptr), n);
    index_t unique = 0;
    for (index_t e = 0; e < n; ++e)
      if (e == 0 || seg[e] != seg[e - 1]) seg[unique++] = seg[e];
    rn[i] = unique;
  });
  const index_t nnz = exec.exclusive_scan(rn, rn, A.rows);
  exec.write(rn + A.rows, nnz);
  Array<index_t, S> indices(nnz);
  index_t* idx = indices.data();
  exec.for_each(A.rows, [=] SPMESH_HD(index_t i) {
    for (index_t e = 0; e < rn[i + 1] - rn[i]; ++e) idx[rn[i] + e] = cols[so[i] + e];
  });
  return Csr<R, S>(A.rows, B.cols, std::move(row_nnz), std::move(indices), Array<R, S>(nnz));
}

// Numeric phase: fills C.values for C's pattern from spgemm_symbolic with the same A and B
// structure. Throws if a collision emits outside the pattern (the structure changed).
template <class Exec, class TA, class TB, class R, class S, class Map = map::Multiply,
          class Reduce = reduce::Sum>
void spgemm_numeric(Exec& exec, const Csr<TA, S>& A, const Csr<TB, S>& B, Csr<R, S>& C,
                    Map map = {}, Reduce reduce = {}) {
  detail::check_product("spgemm_numeric", A.rows, A.cols, B.rows, B.cols);
  if (C.rows != A.rows || C.cols != B.cols)
    throw DimensionError("spgemm_numeric: C is " + C.shape() + ", expected " +
                         std::to_string(A.rows) + " x " + std::to_string(B.cols));
  const auto a = A.view();
  const auto b = B.view();
  Array<index_t, S> scratch_offsets = detail::product_offsets(exec, a, b);
  const index_t total = exec.read(scratch_offsets.data() + A.rows);
  // Key = (column << 32) | emission order: sorting it orders a row by column and keeps
  // each column's contributions in emission order, whatever the sort.
  Array<std::uint64_t, S> keys(total);
  Array<R, S> contributions(total);
  Array<index_t, S> bad(A.rows);
  const index_t* so = scratch_offsets.data();
  std::uint64_t* ks = keys.data();
  R* vs = contributions.data();
  index_t* bd = bad.data();
  const index_t *c_off = C.offsets.data(), *c_idx = C.indices.data();
  R* c_val = C.values.data();
  exec.for_each(A.rows, [=] SPMESH_HD(index_t i) {
    std::uint64_t* key = ks + so[i];
    R* val = vs + so[i];
    index_t n = 0;
    for (index_t p = a.begin(i); p < a.end(i); ++p) {
      const index_t k = a.index(p);
      for (index_t q = b.begin(k); q < b.end(k); ++q) {
        const auto e = detail::as_emit(map(a.value(i, p), b.value(k, q), i, k, b.index(q)));
        if (!e.emitted) continue;
        key[n] = (static_cast<std::uint64_t>(b.index(q)) << 32) | static_cast<std::uint32_t>(n);
        val[n++] = e.value;
      }
    }
    detail::sort_segment(key, val, n);
    index_t out = c_off[i];
    bool ok = true;
    for (index_t e = 0; e < n;) {
      const index_t col = static_cast<index_t>(key[e] >> 32);
      R acc = val[e];
      for (++e; e < n && static_cast<index_t>(key[e] >> 32) == col; ++e) acc = reduce(acc, val[e]);
      while (out < c_off[i + 1] && c_idx[out] < col) c_val[out++] = reduce.template identity<R>();
      if (out < c_off[i + 1] && c_idx[out] == col) c_val[out++] = acc;
      else ok = false;
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

// C = A B under `map`, contributions combined by `reduce`.
template <class Exec, class TA, class TB, class S, class Map = map::Multiply,
          class Reduce = reduce::Sum>
auto spgemm(Exec& exec, const Csr<TA, S>& A, const Csr<TB, S>& B, Map map = {},
            Reduce reduce = {}) {
  auto C = spgemm_symbolic(exec, A, B, map);
  spgemm_numeric(exec, A, B, C, map, reduce);
  return C;
}

}  // namespace spmesh::linalg
