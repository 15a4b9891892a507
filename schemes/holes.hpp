// Hole faces (OpenSubdiv's `t hole` tag): a hole takes part in the rules like any other face, so
// every refined point is what it is without the tag (OpenSubdiv's Far refines so, and the parity
// test checks it), and the faces that descend from it are left out of the refined mesh. The
// refined vertices keep their numbers, so those of the holes' descendants alone are in no face.
#pragma once

#include "linalg/mesh_matrix.hpp"
#include "schemes/schemes.hpp"

#include <string>
#include <vector>

namespace spmesh::schemes {

// The refined mesh of `levels` levels of `base` without the faces that descend from its holes
// (`holes`, a flag per base face, as TagSettings::holes), by the scheme's numbering of children
// (Scheme::base_face); `refined` itself where there are none.
template <class Scheme>
linalg::MeshMatrix<> without_holes(linalg::MeshMatrix<> refined, const linalg::MeshMatrix<>& base,
                                   const std::vector<char>& holes, int levels) {
  if (holes.empty()) return refined;
  auto kept = [&](index_t f) { return !holes[std::size_t(Scheme::base_face(base, f, levels))]; };
  index_t faces = 0, corners = 0;  // counted first: the kept mesh is made at its size, once
  for (index_t f = 0; f < refined.faces; ++f)
    if (kept(f)) ++faces, corners += refined.offsets[f + 1] - refined.offsets[f];
  linalg::Array<index_t> offsets(faces + 1), indices(corners);
  offsets[0] = 0;
  for (index_t f = 0, k = 0; f < refined.faces; ++f) {
    if (!kept(f)) continue;
    index_t at = offsets[k];
    for (index_t p = refined.offsets[f]; p < refined.offsets[f + 1]; ++p) indices[at++] = refined.indices[p];
    offsets[++k] = at;
  }
  return {refined.vertices, std::move(offsets), std::move(indices)};
}

// Whether a scheme numbers its children by their parents (Scheme::base_face), so keeps holes.
template <class Scheme>
inline constexpr bool keeps_holes = requires(const linalg::MeshMatrix<>& M) { Scheme::base_face(M, 0, 1); };

// The same for the scheme called `scheme` (Scheme::name); InputError for one that keeps none
// where there are holes.
inline linalg::MeshMatrix<> without_holes(const std::string& scheme, linalg::MeshMatrix<> refined,
                                          const linalg::MeshMatrix<>& base, const std::vector<char>& holes,
                                          int levels) {
  if (holes.empty()) return refined;
  return with_scheme(scheme, [&]<class Scheme>() {
    if constexpr (keeps_holes<Scheme>)
      return without_holes<Scheme>(std::move(refined), base, holes, levels);
    else
      throw InputError(scheme + " keeps no hole tags (its children are not numbered by their parents)");
    return linalg::MeshMatrix<>{};
  });
}

}  // namespace spmesh::schemes
