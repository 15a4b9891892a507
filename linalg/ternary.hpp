// Ternary matrices (Mueller-Roemer, Altenhofen and Stork 2017): sparse matrices whose entries are
// all +1 or -1, such as the signed incidences of a mesh (solids/topology.hpp). CSR without a
// value array: the sign is folded into the stored column, j for +1 and ~j (= -j - 1) for -1,
// so a matrix costs 4 bytes a non-zero and 4 a row.
#pragma once

#include "linalg/array.hpp"

namespace spmesh::linalg {

// Column j with sign +1 or -1 as stored, and back.
SPMESH_HD inline index_t signed_column(index_t j, int sign) { return sign > 0 ? j : ~j; }
SPMESH_HD inline index_t column_of(index_t stored) { return stored < 0 ? ~stored : stored; }
SPMESH_HD inline int sign_of(index_t stored) { return stored < 0 ? -1 : 1; }

template <class S = Host>
struct Ternary {
  index_t rows = 0, cols = 0;
  Array<index_t, S> offsets;  // rows + 1
  Array<index_t, S> columns;  // signed columns (signed_column), row by row

  index_t nnz() const { return columns.size(); }
};

}  // namespace spmesh::linalg
