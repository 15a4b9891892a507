// Ternary matrices (Mueller-Roemer, Altenhofen and Stork 2017): sparse matrices whose entries are
// all +1 or -1, such as the signed incidences of a mesh (solids/topology.hpp). CSR without a
// value array: the sign is folded into the stored column, j for +1 and ~j (= -j - 1) for -1,
// so a matrix costs 4 bytes a non-zero and 4 a row. Mapped SpMM (spmv.hpp) takes them as it
// takes CSR, the map seeing each entry's sign as its value: map::constant(1) multiplies by |A|
// (the pattern), map::Identity by A itself. transpose() re-stores A^T.
#pragma once

#include "linalg/array.hpp"
#include "linalg/spmv.hpp"

namespace spmesh::linalg {

// Column j with sign +1 or -1 as stored, and back.
SPMESH_HD inline index_t signed_column(index_t j, int sign) { return sign > 0 ? j : ~j; }
SPMESH_HD inline index_t column_of(index_t stored) { return stored < 0 ? ~stored : stored; }
SPMESH_HD inline int sign_of(index_t stored) { return stored < 0 ? -1 : 1; }

// What a kernel sees of a ternary matrix: CompressedView's interface, each entry's value its
// sign.
struct TernaryView {
  index_t outer = 0, inner = 0;
  const index_t* offsets = nullptr;
  const index_t* columns = nullptr;

  SPMESH_HD index_t begin(index_t o) const { return offsets[o]; }
  SPMESH_HD index_t end(index_t o) const { return offsets[o + 1]; }
  SPMESH_HD index_t index(index_t p) const { return column_of(columns[p]); }
  SPMESH_HD index_t value(index_t, index_t p) const { return sign_of(columns[p]); }
};

template <class S = Host>
struct Ternary {
  using space = S;
  index_t rows = 0, cols = 0;
  Array<index_t, S> offsets;  // rows + 1
  Array<index_t, S> columns;  // signed columns (signed_column), row by row

  index_t nnz() const { return columns.size(); }
  TernaryView view() const { return {rows, cols, offsets.data(), columns.data()}; }
};

// A^T, each of its rows the entries of one column of A in ascending row order, signs kept.
template <Executor Exec, class S = typename Exec::space>
Ternary<S> transpose(Exec& exec, const Ternary<S>& A) {
  const index_t nnz = A.nnz();
  Array<index_t, S> column(nnz), row(nnz), position(nnz);
  const TernaryView a = A.view();
  index_t *c = column.data(), *r = row.data();
  exec.for_each(A.rows, [=] SPMESH_HD(index_t i) {
    for (index_t p = a.begin(i); p < a.end(i); ++p) c[p] = a.index(p), r[p] = i;
  });
  Ternary<S> T{A.cols, A.rows, Array<index_t, S>(A.cols + 1), Array<index_t, S>(nnz)};
  exec.group_by_key(c, nnz, A.cols, T.offsets.data(), position.data());
  index_t *out = T.columns.data(), *from = position.data();
  exec.for_each(nnz, [=] SPMESH_HD(index_t q) {
    out[q] = signed_column(r[from[q]], a.value(0, from[q]));
  });
  return T;
}

}  // namespace spmesh::linalg
