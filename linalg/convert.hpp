// Format changes: CSR <-> CSC (the same matrix stored the other way), a mesh matrix as the CSR
// vertex-face incidence, and COO -> CSR assembly with a chosen reduction of duplicates.
// All are built on the executor's primitives (a stable grouping by key, then the row builder of
// detail/rows.hpp): deterministic and backend-neutral.
#pragma once

#include "linalg/detail/rows.hpp"
#include "linalg/executor.hpp"
#include "linalg/formats.hpp"
#include "linalg/maps.hpp"
#include "linalg/mesh_matrix.hpp"
#include "linalg/tuning.hpp"

#include <cstdint>
#include <type_traits>

namespace spmesh::linalg {

namespace detail {

// The line (row of a CSR, column of a CSC, face of a mesh matrix) of every stored position.
template <class Exec, class View>
Array<index_t, typename Exec::space> line_of_positions(Exec& exec, const View& A, index_t nnz) {
  Array<index_t, typename Exec::space> owner(nnz);
  index_t* ow = owner.data();
  exec.for_each(A.outer, [=] SPMESH_HD(index_t o) {
    for (index_t p = A.begin(o); p < A.end(o); ++p) ow[p] = o;
  });
  return owner;
}

// Re-compresses the nnz entries of a view along its inner dimension (positions 0..nnz-1, lines
// starting at 0). Grouping by inner index is stable, so each new line lists its entries in
// old-line order: the output is canonical whenever the input lines are.
template <class Out, class Exec, class View>
Out recompress(Exec& exec, const View& A, index_t nnz, index_t out_rows, index_t out_cols) {
  using S = typename Exec::space;
  using T = typename Out::value_type;
  Array<index_t, S> offsets(A.inner + 1), perm(nnz), indices(nnz);
  Array<T, S> values(nnz);
  exec.group_by_key(A.indices, nnz, A.inner, offsets.data(), perm.data());
  const Array<index_t, S> owner = line_of_positions(exec, A, nnz);
  const index_t *pm = perm.data(), *ow = owner.data();
  index_t* idx = indices.data();
  T* val = values.data();
  exec.for_each(nnz, [=] SPMESH_HD(index_t q) {
    const index_t p = pm[q], o = ow[p];
    idx[q] = o;
    val[q] = static_cast<T>(A.value(o, p));
  });
  return Out(out_rows, out_cols, std::move(offsets), std::move(indices), std::move(values));
}

// The COO entries of row i in input order (a build_rows producer).
template <class T>
struct EntriesOfRow {
  const index_t* first;  // row i's entries are position[first[i] .. first[i+1])
  const index_t* position;
  const index_t* col;
  const T* value;

  SPMESH_HD std::int64_t bound(index_t i) const { return first[i + 1] - first[i]; }
  template <class Sink>
  SPMESH_HD void operator()(index_t i, Sink&& sink) const {
    for (index_t q = first[i]; q < first[i + 1]; ++q) sink(col[position[q]], value[position[q]]);
  }
};

}  // namespace detail

// The same matrix stored by columns.
template <Executor Exec, class T, class S>
Csc<T, S> to_csc(Exec& exec, const Csr<T, S>& A) {
  return detail::recompress<Csc<T, S>>(exec, A.view(), A.nnz(), A.rows, A.cols);
}

// The same matrix stored by rows.
template <Executor Exec, class T, class S>
Csr<T, S> to_csr(Exec& exec, const Csc<T, S>& A) {
  return detail::recompress<Csr<T, S>>(exec, A.view(), A.nnz(), A.rows, A.cols);
}

// A mesh matrix stored by rows: row i lists the faces around vertex i (ascending), each with
// the vertex's slot in that face as value. y = M f (Eq. 17) is a gather over this matrix.
template <Executor Exec, class MeshMatrixT>
  requires requires(const MeshMatrixT& M) { M.view().outer; MeshMatrixT::column_major; }
Csr<index_t, typename Exec::space> to_csr(Exec& exec, const MeshMatrixT& M) {
  return detail::recompress<Csr<index_t, typename Exec::space>>(exec, M.view(), M.nnz(), M.rows(),
                                                                M.cols());
}

// Assembles a canonical CSR matrix from triplets; entries with the same (row, column) are
// combined by `reduce` in their order in the input (deterministic).
template <Executor Exec, class T, class S, class Reduce = reduce::Sum>
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
  // Each row's entries in input order (a stable grouping by row), folded by column.
  Array<index_t, S> first(rows + 1), position(n);
  exec.group_by_key(ri, n, rows, first.data(), position.data());
  return detail::build_rows<tuning::assembly_row_capacity, T>(
      exec, rows, cols, detail::EntriesOfRow<T>{first.data(), position.data(), ci, A.values.data()},
      reduce);
}

// The n x n identity.
template <class T, Executor Exec, class S = typename Exec::space>
Csr<T, S> identity(Exec& exec, index_t n) {
  Array<index_t, S> offsets(n + 1), indices(n);
  Array<T, S> values(n);
  index_t *o = offsets.data(), *ix = indices.data();
  T* v = values.data();
  exec.for_each(n + 1, [=] SPMESH_HD(index_t i) {
    o[i] = i;
    if (i < n) ix[i] = i, v[i] = T(1);
  });
  return Csr<T, S>(n, n, std::move(offsets), std::move(indices), std::move(values));
}

// A with its values converted to T (A itself when they already are).
template <class T, Executor Exec, class F, class S>
Csr<T, S> cast_values(Exec& exec, Csr<F, S> A) {
  if constexpr (std::is_same_v<T, F>) {
    return A;
  } else {
    Array<T, S> values(A.nnz());
    const F* in = A.values.data();
    T* out = values.data();
    exec.for_each(A.nnz(), [=] SPMESH_HD(index_t p) { out[p] = static_cast<T>(in[p]); });
    return Csr<T, S>(A.rows, A.cols, std::move(A.offsets), std::move(A.indices), std::move(values));
  }
}

// A rows x cols canonical CSR matrix assembled row by row from a producer (the interface of
// detail/rows.hpp: bound(i) and operator()(i, sink)); the contributions to one entry are
// combined by `reduce` in the order the producer lists them. Deterministic on every backend.
template <class T, Executor Exec, class Producer, class Reduce = reduce::Sum>
Csr<T, typename Exec::space> assemble_rows(Exec& exec, index_t rows, index_t cols,
                                           const Producer& produce, Reduce reduce = {}) {
  return detail::build_rows<tuning::assembly_row_capacity, T>(exec, rows, cols, produce, reduce);
}

}  // namespace spmesh::linalg
