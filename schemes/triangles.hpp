// Input check shared by the triangle-only schemes (Loop, sqrt(3)).
#pragma once

#include "linalg/mesh_matrix.hpp"

#include <string>

namespace spmesh::schemes {

// Throws InputError naming the first face of M that is not a triangle (and its order).
template <class Exec>
void check_triangles(Exec& exec, const linalg::MeshMatrix<typename Exec::space>& M,
                     const std::string& scheme) {
  const auto m = M.view();
  const index_t others = exec.count_if(M.faces, [=] SPMESH_HD(index_t f) {
    return m.end(f) - m.begin(f) != 3;
  });
  if (others == 0) return;
  for (index_t f = 0; f < M.faces; ++f) {  // name the first one
    const index_t c = exec.read(M.offsets.data() + f + 1) - exec.read(M.offsets.data() + f);
    if (c != 3)
      throw InputError(scheme + " subdivision needs triangles: face " + std::to_string(f) +
                       " has " + std::to_string(c) + " vertices (" + std::to_string(others) +
                       " faces are not triangles; triangulate first)");
  }
}

}  // namespace spmesh::schemes
