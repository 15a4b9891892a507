// Hole faces (OpenSubdiv's `t hole` tag): a hole takes part in the rules like any other face, so
// every refined point is what it is without the tag (OpenSubdiv's Far refines so, and the parity
// test checks it), and the faces that descend from it are left out of the refined mesh. The
// refined vertices keep their numbers, so those of the holes' descendants alone are in no face.
#pragma once

#include "linalg/mesh_matrix.hpp"

#include <vector>

namespace spmesh::schemes {

// The refined mesh of `levels` levels of `base` without the faces that descend from its holes
// (`holes`, a flag per base face, as TagSettings::holes), by the scheme's numbering of children
// (Scheme::base_face); `refined` itself where there are none.
template <class Scheme>
linalg::MeshMatrix<> without_holes(linalg::MeshMatrix<> refined, const linalg::MeshMatrix<>& base,
                                   const std::vector<char>& holes, int levels) {
  if (holes.empty()) return refined;
  std::vector<index_t> offsets{0}, indices;
  for (index_t f = 0; f < refined.faces; ++f) {
    if (holes[std::size_t(levels == 0 ? f : Scheme::base_face(base, f, levels))]) continue;
    indices.insert(indices.end(), refined.indices.begin() + refined.offsets[f],
                   refined.indices.begin() + refined.offsets[f + 1]);
    offsets.push_back(index_t(indices.size()));
  }
  return {refined.vertices, linalg::Array<index_t>(offsets), linalg::Array<index_t>(indices)};
}

}  // namespace spmesh::schemes
