// Format changes: CSR <-> CSC (the same matrix stored the other way), a mesh matrix as the CSR
// vertex-face incidence, and COO -> CSR assembly with a chosen reduction of duplicates.
// All are sort-based on the executor's primitives: deterministic and backend-neutral.
#pragma once

#include "linalg/formats.hpp"
#include "linalg/maps.hpp"
#include "linalg/mesh_matrix.hpp"

#include <bit>
#include <cstdint>

namespace spmesh::linalg {

namespace detail {

// Bits needed to hold values in [0, n).
inline int bits_for(std::uint64_t n) { return n <= 1 ? 1 : std::bit_width(n - 1); }

// offsets[r] = first position whose key is >= r, for keys sorted ascending in [0, lines).
template <class Exec, class K>
void offsets_from_sorted(Exec& exec, const K* keys, index_t n, index_t lines, index_t* offsets) {
  if (n == 0) {
    exec.for_each(lines + 1, [=] SPMESH_HD(index_t r) { offsets[r] = 0; });
    return;
  }
  // Position p starts the lines (keys[p-1], keys[p]]; the last position also ends the rest.
  exec.for_each(n, [=] SPMESH_HD(index_t p) {
    const index_t from = p == 0 ? 0 : static_cast<index_t>(keys[p - 1]) + 1;
    for (index_t r = from; r <= static_cast<index_t>(keys[p]); ++r) offsets[r] = p;
    if (p == n - 1)
      for (index_t r = static_cast<index_t>(keys[p]) + 1; r <= lines; ++r) offsets[r] = n;
  });
}

// Re-compresses the entries of a view along its inner dimension. `Value` gives the value of
// position p of line o. Stable sorting keeps entries of each new line in old-line order,
// so the output is canonical whenever the input lines are.
template <class Out, class Exec, class View>
Out recompress(Exec& exec, const View& A, index_t out_rows, index_t out_cols) {
  using S = typename Exec::space;
  using T = typename Out::value_type;
  const index_t nnz = A.outer == 0 ? 0 : A.end(A.outer - 1) - A.begin(0);
  Array<index_t, S> keys(nnz), perm(nnz), owner(nnz);
  index_t *k = keys.data(), *pm = perm.data(), *ow = owner.data();
  const index_t base = A.outer == 0 ? 0 : A.begin(0);
  exec.for_each(A.outer, [=] SPMESH_HD(index_t o) {
    for (index_t p = A.begin(o); p < A.end(o); ++p) {
      k[p - base] = A.index(p);
      pm[p - base] = p - base;
      ow[p - base] = o;
    }
  });
  exec.sort_pairs(k, pm, nnz, bits_for(static_cast<std::uint64_t>(A.inner)));
  Array<index_t, S> offsets(A.inner + 1), indices(nnz);
  Array<T, S> values(nnz);
  offsets_from_sorted(exec, k, nnz, A.inner, offsets.data());
  index_t* idx = indices.data();
  T* val = values.data();
  exec.for_each(nnz, [=] SPMESH_HD(index_t q) {
    const index_t p = pm[q], o = ow[p];
    idx[q] = o;
    val[q] = static_cast<T>(A.value(o, p + base));
  });
  return Out(out_rows, out_cols, std::move(offsets), std::move(indices), std::move(values));
}

// Assembles canonical CSR from packed keys (row * cols + col) and their values: stable sort,
// then one entry per run of equal keys, reduced in input order. Consumes the keys.
template <class Exec, class T, class Reduce>
Csr<T, typename Exec::space> assemble(Exec& exec, index_t rows, index_t cols,
                                      Array<std::uint64_t, typename Exec::space> keys,
                                      const T* v, Reduce reduce) {
  using S = typename Exec::space;
  const index_t n = keys.size();
  std::uint64_t* k = keys.data();
  Array<index_t, S> perm(n);
  index_t* pm = perm.data();
  exec.for_each(n, [=] SPMESH_HD(index_t p) { pm[p] = p; });
  exec.sort_pairs(k, pm, n, bits_for(static_cast<std::uint64_t>(rows) * cols));
  Array<T, S> sorted(n);
  T* sv = sorted.data();
  exec.for_each(n, [=] SPMESH_HD(index_t q) { sv[q] = v[pm[q]]; });
  Array<std::uint64_t, S> run_keys(n);
  Array<T, S> run_values(n);
  const index_t nnz = exec.reduce_by_key(k, sv, n, run_keys.data(), run_values.data(), reduce);
  Array<index_t, S> rows_of(nnz), indices(nnz), offsets(rows + 1);
  Array<T, S> values(nnz);
  index_t *ro = rows_of.data(), *idx = indices.data();
  T* val = values.data();
  const std::uint64_t* rk = run_keys.data();
  const T* rv = run_values.data();
  exec.for_each(nnz, [=] SPMESH_HD(index_t q) {
    ro[q] = static_cast<index_t>(rk[q] / static_cast<std::uint64_t>(cols));
    idx[q] = static_cast<index_t>(rk[q] % static_cast<std::uint64_t>(cols));
    val[q] = rv[q];
  });
  offsets_from_sorted(exec, ro, nnz, rows, offsets.data());
  return Csr<T, S>(rows, cols, std::move(offsets), std::move(indices), std::move(values));
}

}  // namespace detail

// The same matrix stored by columns.
template <class Exec, class T, class S>
Csc<T, S> to_csc(Exec& exec, const Csr<T, S>& A) {
  return detail::recompress<Csc<T, S>>(exec, A.view(), A.rows, A.cols);
}

// The same matrix stored by rows.
template <class Exec, class T, class S>
Csr<T, S> to_csr(Exec& exec, const Csc<T, S>& A) {
  return detail::recompress<Csr<T, S>>(exec, A.view(), A.rows, A.cols);
}

// A mesh matrix stored by rows: row i lists the faces around vertex i (ascending), each with
// the vertex's slot in that face as value. y = M f (Eq. 17) is a gather over this matrix.
template <class Exec, class MeshMatrixT>
  requires requires(const MeshMatrixT& M) { M.view().outer; MeshMatrixT::column_major; }
Csr<index_t, typename Exec::space> to_csr(Exec& exec, const MeshMatrixT& M) {
  return detail::recompress<Csr<index_t, typename Exec::space>>(exec, M.view(), M.rows(),
                                                                M.cols());
}

// Assembles a canonical CSR matrix from triplets; entries with the same (row, column) are
// combined by `reduce` in their order in the input (deterministic).
template <class Exec, class T, class S, class Reduce = reduce::Sum>
Csr<T, S> to_csr(Exec& exec, const Coo<T, S>& A, Reduce reduce = {}) {
  const index_t n = A.nnz();
  if (A.row_indices.size() != n || A.col_indices.size() != n)
    throw DimensionError("to_csr: COO has " + std::to_string(A.row_indices.size()) + " rows, " +
                         std::to_string(A.col_indices.size()) + " columns and " +
                         std::to_string(n) + " values");
  const index_t rows = A.rows, cols = A.cols;
  const index_t *ri = A.row_indices.data(), *ci = A.col_indices.data();
  // Bad indices would corrupt the assembly: reject them by name.
  const index_t bad = exec.count_if(n, [=] SPMESH_HD(index_t p) {
    return ri[p] < 0 || ri[p] >= rows || ci[p] < 0 || ci[p] >= cols;
  });
  if (bad > 0)
    throw InputError("to_csr: " + std::to_string(bad) + " COO entries lie outside the " +
                     std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
  Array<std::uint64_t, S> keys(n);
  std::uint64_t* k = keys.data();
  exec.for_each(n, [=] SPMESH_HD(index_t p) {
    k[p] = static_cast<std::uint64_t>(ri[p]) * static_cast<std::uint64_t>(cols) + ci[p];
  });
  return detail::assemble(exec, rows, cols, std::move(keys), A.values.data(), reduce);
}

}  // namespace spmesh::linalg
