// Which faces of a quad level eval refines (patch_eval.hpp): every face, or a region of the
// faces a patch level leaves to the level-by-level eval, and the face and crease kernels
// restricted to it.
#pragma once

#include "linalg/base.hpp"
#include "linalg/intrinsics.hpp"

#include <cstdint>

namespace spmesh::schemes::catmull_clark::detail {

// Which faces of a quad level eval refines: every face, or a region (patches.hpp): the faces
// that descend from the `count` faces listed of the level `depth` levels up (face f there has
// the faces [f 4^depth, (f + 1) 4^depth) here), those whose kind there is `least` or more.
// Refined in a region, a level's output holds the points its faces own (the points of an edge:
// the face of its half-edge along; of a vertex: the face of its vertex_edge); the rest is left
// as it was.
struct Region {
  const index_t* listed = nullptr;     // null: every face
  const std::uint8_t* kind = nullptr;  // per face of the listed level
  index_t count = 0;
  int depth = 0;
  std::uint8_t least = 1;
};

// A region's faces on a level `depth` levels below its listed faces, as i -> face for i in
// [0, size()); past the end, `faces` (a face the lane kernels treat as absent). Every face
// where there is no region.
struct FaceSet {
  const index_t* listed;
  index_t count;
  int shift;
  index_t faces;
  FaceSet(const Region& r, index_t level_faces, int depth)
      : listed(r.listed), count(r.count), shift(2 * depth), faces(level_faces) {}
  index_t size() const { return listed ? count << shift : faces; }
  SPMESH_HD index_t operator()(index_t i) const {
    if (!listed) return i;
    const index_t r = i >> shift;
    return r < count ? (linalg::ldg(listed + r) << shift) | (i & ((index_t(1) << shift) - 1))
                     : faces;
  }
};

// A face kernel (a thread or a lane per face) over a FaceSet.
template <class K>
struct OnFacesBase {};
template <class K>
  requires requires { K::min_blocks_per_sm; }
struct OnFacesBase<K> {
  static constexpr int min_blocks_per_sm = K::min_blocks_per_sm;
};
template <class K>
struct OnFaces : OnFacesBase<K> {
  FaceSet set;
  K kernel;
  SPMESH_HD void operator()(index_t i) const { kernel(set(i)); }
  SPMESH_HD void operator()(index_t i, int lane) const { kernel(set(i), lane); }
};
template <class K>
OnFaces<K> on_faces(const FaceSet& set, K kernel) {
  return {{}, set, kernel};
}

// The crease kernels' entries (special vertices, then sharp edges) whose point the region
// owns: its vertex_edge's face, its half-edge along's face, `shift` / 2 levels below a listed
// face of the region.
template <class K>
struct OwnedInRegion {
  K kernel;
  const index_t *special, *vertex_edge, *halves;
  index_t specials;
  const std::uint8_t* kind;
  int shift;
  std::uint8_t least;
  SPMESH_HD void operator()(index_t i) const {
    const index_t h = i < specials ? vertex_edge[special[i]] : halves[i - specials];
    if (h >= 0 && kind[(h >> 2) >> shift] >= least) kernel(i);
  }
};

}  // namespace spmesh::schemes::catmull_clark::detail
