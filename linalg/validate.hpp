// Structural checks for matrices built from outside data: offsets that never decrease and
// indices inside the matrix. Errors say which line and which index.
#pragma once

#include "linalg/executor.hpp"
#include "linalg/formats.hpp"
#include "linalg/mesh_matrix.hpp"

#include <string>
#include <type_traits>

namespace spmesh::linalg {

namespace detail {
// Offsets first: lines of a view whose offsets run from 0 to nnz and never decrease lie inside
// its arrays, so only then are the indices read.
template <class Exec, class View>
void validate_view(Exec& exec, const View& A, const char* what, const char* line_name) {
  const index_t outer = A.outer, inner = A.inner;
  const index_t decreasing = exec.count_if(outer, [=] SPMESH_HD(index_t o) { return A.end(o) < A.begin(o); });
  const index_t bad = decreasing ? 0 : exec.count_if(outer, [=] SPMESH_HD(index_t o) {
    for (index_t p = A.begin(o); p < A.end(o); ++p)
      if (A.index(p) < 0 || A.index(p) >= inner) return true;
    return false;
  });
  if (decreasing == 0 && bad == 0) return;
  // Slow path, host only: name the first bad line.
  for (index_t o = 0; o < outer; ++o)
    if (A.end(o) < A.begin(o))
      throw InputError(std::string(what) + ": " + line_name + " " + std::to_string(o) +
                       " has decreasing offsets");
  for (index_t o = 0; o < outer; ++o)
    for (index_t p = A.begin(o); p < A.end(o); ++p)
      if (A.index(p) < 0 || A.index(p) >= inner)
        throw InputError(std::string(what) + ": " + line_name + " " + std::to_string(o) +
                         " holds index " + std::to_string(A.index(p)) + ", outside [0, " +
                         std::to_string(inner) + ")");
}
}  // namespace detail

// Throws InputError naming the first bad row/column (host matrices: compressed, or CSR arrays
// from outside).
template <Executor Exec, class Matrix>
  requires std::is_same_v<typename Matrix::space, Host> && requires(const Matrix& A) { A.view().find(0, 0); }
void validate(Exec& exec, const Matrix& A) {
  const auto view = A.view();
  if (view.offsets[0] != 0 || view.offsets[A.outer()] != A.nnz())
    throw InputError("sparse matrix " + A.shape() + ": offsets must run from 0 to nnz = " +
                     std::to_string(A.nnz()));
  detail::validate_view(exec, view, "sparse matrix", Matrix::major == Major::row ? "row" : "column");
}

template <Executor Exec>
void validate(Exec& exec, const MeshMatrix<Host>& M) {
  if (M.offsets.size() == 0 || M.offsets[0] != 0 || M.offsets[M.faces] != M.nnz())
    throw InputError("mesh matrix: offsets must run from 0 to nnz = " + std::to_string(M.nnz()));
  detail::validate_view(exec, M.view(), "mesh matrix", "face");
}

template <Executor Exec>
void validate(Exec& exec, const ReducedMeshMatrix<Host>& M) {
  detail::validate_view(exec, M.view(), "mesh matrix", "face");
}

}  // namespace spmesh::linalg
