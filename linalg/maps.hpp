// Action maps (design.md "Action maps"): what replaces the multiply inside a sparse product,
// and the reductions that combine contributions to one output entry.
#pragma once

#include "linalg/array.hpp"

#include <limits>
#include <string>
#include <type_traits>
#include <utility>

namespace spmesh::linalg {

// ---------------------------------------------------------------------------------------------
// SpMV / SpMM maps: y_i = reduce_j map(a_ij, i, j) * x_j. A map is any functor of
// (stored value, i, j); (i, j) are row and column of the entry in the stored matrix A,
// also when the product is transposed (y = A^T x).
namespace map {

// The unmapped product: the stored value itself.
struct Identity {
  template <class V>
  SPMESH_HD V operator()(V v, index_t, index_t) const { return v; }
};

// Every entry becomes the constant c (Eq. 5: val -> 1; Eq. 7: val -> 1/4).
template <class W>
struct Constant {
  W c;
  template <class V>
  SPMESH_HD W operator()(V, index_t, index_t) const { return c; }
};

// The stored value indexes a table (e.g. a mesh matrix slot -> a per-slot weight).
template <class W>
struct ValueTable {
  const W* table;
  index_t size;
  template <class V>
  SPMESH_HD W operator()(V v, index_t, index_t) const { return table[static_cast<index_t>(v)]; }
};

// Entries of row i become table[i] (Eq. 16, 17: val_i,* -> 1/n_i^2).
template <class W>
struct PerRow {
  const W* table;
  index_t size;
  template <class V>
  SPMESH_HD W operator()(V, index_t i, index_t) const { return table[i]; }
  void check(index_t rows, index_t, const char* op) const {
    if (size < rows)
      throw DimensionError(std::string(op) + ": per-row map has " + std::to_string(size) +
                           " entries but the matrix has " + std::to_string(rows) + " rows");
  }
};

// Entries of column j become table[j] (Eq. 6: val_i,* -> 1/c_i on M^T).
template <class W>
struct PerColumn {
  const W* table;
  index_t size;
  template <class V>
  SPMESH_HD W operator()(V, index_t, index_t j) const { return table[j]; }
  void check(index_t, index_t cols, const char* op) const {
    if (size < cols)
      throw DimensionError(std::string(op) + ": per-column map has " + std::to_string(size) +
                           " entries but the matrix has " + std::to_string(cols) + " columns");
  }
};

// Any functor of (value, i, j). On the GPU its call operator must be SPMESH_HD.
template <class F>
struct Function {
  F f;
  template <class V>
  SPMESH_HD auto operator()(V v, index_t i, index_t j) const { return f(v, i, j); }
};

template <class W>
Constant<W> constant(W c) { return {c}; }
template <class W, class S>
ValueTable<W> value_table(const Array<W, S>& t) { return {t.data(), t.size()}; }
template <class W, class S>
PerRow<W> per_row(const Array<W, S>& t) { return {t.data(), t.size()}; }
template <class W, class S>
PerColumn<W> per_column(const Array<W, S>& t) { return {t.data(), t.size()}; }
template <class F>
Function<F> function(F f) { return {std::move(f)}; }

// ---------------------------------------------------------------------------------------------
// SpGEMM maps: when A(i,k) meets B(k,j) the map lambda(a_ik, b_kj, i, k, j) says what that
// collision contributes. It returns a value (always contributes) or an Emit<R> (may not).

struct Multiply {
  template <class A, class B>
  SPMESH_HD auto operator()(A a, B b, index_t, index_t, index_t) const { return a * b; }
};

}  // namespace map

// A contribution that may be absent.
template <class R>
struct Emit {
  R value;
  bool emitted;
};
template <class R>
SPMESH_HD Emit<R> emit(R v) { return {v, true}; }
template <class R>
SPMESH_HD Emit<R> nothing() { return {R{}, false}; }

namespace detail {
template <class T>
struct IsEmit : std::false_type {};
template <class R>
struct IsEmit<Emit<R>> : std::true_type {};

// Normalises a map result to Emit<R>.
template <class X>
SPMESH_HD auto as_emit(X x) {
  if constexpr (IsEmit<X>::value) return x;
  else return Emit<X>{x, true};
}
}  // namespace detail

// The value type a SpGEMM map produces for operand value types A and B.
template <class Map, class A, class B>
using collision_t = decltype(detail::as_emit(
    std::declval<Map>()(std::declval<A>(), std::declval<B>(), index_t{}, index_t{}, index_t{}))
                                 .value);

// ---------------------------------------------------------------------------------------------
// Reductions: combine the contributions to one output entry, in a fixed order (first to last
// by position), so results are deterministic. identity<T>() is what an output with no
// contribution (an empty row) holds.
namespace reduce {

struct Sum {
  template <class T>
  SPMESH_HD T identity() const { return T(0); }
  template <class T>
  SPMESH_HD T operator()(T a, T b) const { return a + b; }
};

struct Min {
  template <class T>
  SPMESH_HD T identity() const {
    if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
  }
  template <class T>
  SPMESH_HD T operator()(T a, T b) const { return b < a ? b : a; }
};

struct Max {
  template <class T>
  SPMESH_HD T identity() const {
    if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
  }
  template <class T>
  SPMESH_HD T operator()(T a, T b) const { return b > a ? b : a; }
};

// Keeps the first contribution (in position order): e.g. "which face holds edge (i, j)".
struct First {
  template <class T>
  SPMESH_HD T identity() const { return T{}; }
  template <class T>
  SPMESH_HD T operator()(T a, T) const { return a; }
};

// A user monoid: an associative operator and its identity.
template <class Op, class V>
struct Monoid {
  Op op;
  V id;
  template <class T>
  SPMESH_HD T identity() const { return static_cast<T>(id); }
  template <class T>
  SPMESH_HD T operator()(T a, T b) const { return op(a, b); }
};
template <class Op, class V>
Monoid<Op, V> monoid(Op op, V identity) { return {std::move(op), identity}; }

}  // namespace reduce

namespace detail {
// Calls map.check(rows, cols, op) where the map has one (tables that must cover the matrix).
template <class Map>
void check_map(const Map& m, index_t rows, index_t cols, const char* op) {
  if constexpr (requires { m.check(rows, cols, op); }) m.check(rows, cols, op);
}
}  // namespace detail

}  // namespace spmesh::linalg
