// Input check shared by the triangle-only schemes (Loop, sqrt(3)).
#pragma once

#include "linalg/mesh_matrix.hpp"

#include <string>

namespace spmesh::schemes {

// The error naming face f of M, the first of `others` faces that are not triangles.
template <class Exec>
InputError not_triangles(Exec& exec, const linalg::MeshMatrix<typename Exec::space>& M, index_t f,
                         index_t others, const std::string& scheme) {
  index_t o[2];
  exec.read(M.offsets.data() + f, 2, o);
  return InputError(scheme + " subdivision needs triangles: face " + std::to_string(f) + " has " +
                    std::to_string(o[1] - o[0]) + " vertices (" + std::to_string(others) +
                    " faces are not triangles; triangulate first)");
}

// Throws not_triangles' error if M has a face that is not a triangle.
template <class Exec>
void check_triangles(Exec& exec, const linalg::MeshMatrix<typename Exec::space>& M,
                     const std::string& scheme) {
  const auto m = M.view();
  const index_t others = exec.count_if(M.faces, [=] SPMESH_HD(index_t f) {
    return m.end(f) - m.begin(f) != 3;
  });
  if (others == 0) return;
  for (index_t f = 0; f < M.faces; ++f)  // name the first one
    if (exec.read(M.offsets.data() + f + 1) - exec.read(M.offsets.data() + f) != 3)
      throw not_triangles(exec, M, f, others, scheme);
}

}  // namespace spmesh::schemes
