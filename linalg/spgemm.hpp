// Mapped SpGEMM C = A B (design.md "Action maps"): when A(i,k) meets B(k,j) the map
// lambda(a_ik, b_kj, i, k, j) returns what the collision contributes, or nothing; the
// contributions to C(i,j) are combined by a reduction in a fixed order (position in row i of A,
// then position in row k of B), so results are bit-identical run to run and across backends.
// The symbolic phase fixes C's pattern; the numeric phase (re)fills its values, so a pattern
// can be reused when A and B change values but not structure.
//
// Row i of C folds the products of row i of A with the rows of B it meets, in contribution
// order, into a sorted set of columns (linalg/detail/rows.hpp).
#pragma once

#include "linalg/detail/rows.hpp"
#include "linalg/executor.hpp"
#include "linalg/formats.hpp"
#include "linalg/maps.hpp"
#include "linalg/tuning.hpp"

#include <cstdint>
#include <string>
#include <type_traits>

namespace spmesh::linalg {

namespace detail {

inline void check_product(const char* op, index_t a_rows, index_t a_cols, index_t b_rows,
                          index_t b_cols) {
  if (a_cols != b_rows)
    throw DimensionError(std::string(op) + ": A is " + std::to_string(a_rows) + " x " +
                         std::to_string(a_cols) + " but B is " + std::to_string(b_rows) + " x " +
                         std::to_string(b_cols));
}

// The products of row i of A B under `map`, in contribution order (a build_rows producer).
template <class TA, class TB, class Map>
struct ProductsOfRow {
  CompressedView<TA> a;
  CompressedView<TB> b;
  Map map;

  SPMESH_HD std::int64_t bound(index_t i) const {
    std::int64_t n = 0;
    for (index_t p = a.begin(i); p < a.end(i); ++p) n += b.end(a.index(p)) - b.begin(a.index(p));
    return n;
  }
  template <class Sink>
  SPMESH_HD void operator()(index_t i, Sink&& sink) const {
    for (index_t p = a.begin(i); p < a.end(i); ++p) {
      const index_t k = a.index(p);
      for (index_t q = b.begin(k); q < b.end(k); ++q) {
        const auto e = as_emit(map(a.value(i, p), b.value(k, q), i, k, b.index(q)));
        if (e.emitted) sink(b.index(q), e.value);
      }
    }
  }
};

}  // namespace detail

// C = A B under `map`, contributions combined by `reduce`. RowCapacity: the distinct columns a
// row of C folds in its own (fast) scratch; wider rows spill to global scratch (detail/rows.hpp).
// A caller whose products have wider rows than most (solids' refinement matrix) passes its own.
template <int RowCapacity = tuning::spgemm_row_capacity, Executor Exec, class TA, class TB, class S,
          class Map = map::Multiply, class Reduce = reduce::Sum>
Csr<collision_t<Map, TA, TB>, S> spgemm(Exec& exec, const Csr<TA, S>& A, const Csr<TB, S>& B,
                                        Map map = {}, Reduce reduce = {}) {
  detail::check_product("spgemm", A.rows, A.cols, B.rows, B.cols);
  return detail::build_rows<RowCapacity, collision_t<Map, TA, TB>>(
      exec, A.rows, B.cols, detail::ProductsOfRow<TA, TB, Map>{A.view(), B.view(), map}, reduce);
}

// Symbolic phase: the pattern of C = A B under `map` (entries where some collision emits), with
// sorted unique columns per row; its values are left unspecified for spgemm_numeric to fill.
template <Executor Exec, class TA, class TB, class S, class Map = map::Multiply>
Csr<collision_t<Map, TA, TB>, S> spgemm_symbolic(Exec& exec, const Csr<TA, S>& A,
                                                 const Csr<TB, S>& B, Map map = {}) {
  return spgemm(exec, A, B, map, reduce::First{});
}

// Numeric phase: fills C.values for C's pattern from spgemm_symbolic with the same A and B
// structure. Pattern entries that receive no contribution get the reduction's identity. Throws
// if a collision emits outside the pattern (the structure changed). One pass over the products:
// each lands at its column's place in C's row (a binary search) and is folded there in the same
// order as spgemm folds it, so the values have spgemm's bits.
template <Executor Exec, class TA, class TB, class R, class S, class Map = map::Multiply,
          class Reduce = reduce::Sum>
void spgemm_numeric(Exec& exec, const Csr<TA, S>& A, const Csr<TB, S>& B, Csr<R, S>& C,
                    Map map = {}, Reduce reduce = {}) {
  detail::check_product("spgemm_numeric", A.rows, A.cols, B.rows, B.cols);
  if (C.rows != A.rows || C.cols != B.cols)
    throw DimensionError("spgemm_numeric: C is " + C.shape() + ", expected " +
                         std::to_string(A.rows) + " x " + std::to_string(B.cols));
  using V = collision_t<Map, TA, TB>;  // what spgemm folds in, before storing as R
  Array<V, S> folded(std::is_same_v<V, R> ? 0 : C.nnz());
  Array<std::uint8_t, S> seen(C.nnz());
  Array<index_t, S> bad(A.rows);
  const detail::ProductsOfRow<TA, TB, Map> produce{A.view(), B.view(), map};
  const index_t *c_off = C.offsets.data(), *c_idx = C.indices.data();
  R* c_val = C.values.data();
  V* acc;
  if constexpr (std::is_same_v<V, R>)
    acc = c_val;
  else
    acc = folded.data();
  std::uint8_t* sn = seen.data();
  index_t* bd = bad.data();
  exec.for_each(A.rows, [=] SPMESH_HD(index_t i) {
    const index_t lo = c_off[i], hi = c_off[i + 1];
    for (index_t p = lo; p < hi; ++p) sn[p] = 0;
    bool ok = true;
    produce(i, [&](index_t col, const V& v) {
      index_t a = lo, b = hi;
      while (a < b) {  // first place whose column is >= col
        const index_t mid = a + (b - a) / 2;
        if (c_idx[mid] < col)
          a = mid + 1;
        else
          b = mid;
      }
      if (a == hi || c_idx[a] != col) {
        ok = false;
        return;
      }
      acc[a] = sn[a] ? reduce(acc[a], v) : v;
      sn[a] = 1;
    });
    for (index_t p = lo; p < hi; ++p)
      c_val[p] = sn[p] ? static_cast<R>(acc[p]) : reduce.template identity<R>();
    bd[i] = ok ? 0 : 1;
  });
  const index_t broken = exec.count_if(A.rows, [=] SPMESH_HD(index_t i) { return bd[i] != 0; });
  if (broken > 0)
    throw InputError("spgemm_numeric: " + std::to_string(broken) +
                     " rows have products outside C's pattern; A or B changed structure since "
                     "spgemm_symbolic");
}

}  // namespace spmesh::linalg
