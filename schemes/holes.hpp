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

// A tessellation's facets (tessellation_samples', face by face) without the holes': face f of n
// sides has facets_of(f, n) of them. Its points stay (those inside a hole in no facet).
template <class FacetsOf>
linalg::MeshMatrix<> facets_without_holes(const linalg::MeshMatrix<>& facets, const linalg::MeshMatrix<>& base,
                                          const std::vector<char>& holes, FacetsOf&& facets_of) {
  std::vector<index_t> offsets{0}, indices;
  index_t facet = 0;
  for (index_t f = 0; f < base.faces; ++f) {
    const index_t count = index_t(facets_of(f, base.offsets[f + 1] - base.offsets[f]));
    if (!holes[std::size_t(f)])
      for (index_t k = facet; k < facet + count; ++k) {
        indices.insert(indices.end(), facets.indices.begin() + facets.offsets[k], facets.indices.begin() + facets.offsets[k + 1]);
        offsets.push_back(index_t(indices.size()));
      }
    facet += count;
  }
  if (facet != facets.faces)
    throw DimensionError("facets_without_holes: " + std::to_string(facets.faces) + " facets, the layout's counts " +
                         std::to_string(facet));
  return {facets.vertices, linalg::Array<index_t>(offsets), linalg::Array<index_t>(indices)};
}

// The first of the samples on faces `faces` that lies on a hole, or -1.
inline std::int64_t sample_on_hole(const std::vector<index_t>& faces, const std::vector<char>& holes) {
  if (holes.empty()) return -1;
  for (std::size_t s = 0; s < faces.size(); ++s)
    if (holes[std::size_t(faces[s])]) return std::int64_t(s);
  return -1;
}

// Whether a scheme numbers its children by their parents (Scheme::base_face), so keeps holes.
template <class Scheme>
inline constexpr bool keeps_holes = requires(const linalg::MeshMatrix<>& M) { Scheme::base_face(M, 0, 1); };

// InputError naming `source` where there are holes and the scheme called `scheme` keeps none.
inline void check_holes_kept(const std::string& scheme, const std::vector<char>& holes, const std::string& source) {
  if (holes.empty() || with_scheme(scheme, []<class Scheme>() { return keeps_holes<Scheme>; })) return;
  throw InputError(source + ": " + scheme + " keeps no hole tags (its children are not numbered by their parents); "
                   "remove the t hole lines or refine by catmark or loop");
}

// without_holes for the scheme called `scheme` (Scheme::name); check_holes_kept's InputError for
// one that keeps none where there are holes.
inline linalg::MeshMatrix<> without_holes(const std::string& scheme, linalg::MeshMatrix<> refined,
                                          const linalg::MeshMatrix<>& base, const std::vector<char>& holes,
                                          int levels) {
  if (holes.empty()) return refined;
  check_holes_kept(scheme, holes, "without_holes");
  return with_scheme(scheme, [&]<class Scheme>() {
    if constexpr (keeps_holes<Scheme>) return without_holes<Scheme>(std::move(refined), base, holes, levels);
    return linalg::MeshMatrix<>{};
  });
}

}  // namespace spmesh::schemes
