// Catmull-Clark patches, found on the build's side (patch_eval.hpp says what they are for):
// which faces of the patch level have a 1-ring that is a smooth regular 4 x 4 grid, which
// border one that has not, and the region of faces refined level by level.
#pragma once

#include "linalg/atomics.hpp"
#include "schemes/catmull_clark/plan.hpp"
#include "schemes/catmull_clark/quads.hpp"
#include "schemes/creasing.hpp"
#include "schemes/half_edges/vertex_kinds.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <variant>

namespace spmesh::schemes::catmull_clark {

namespace detail {

// Faces with an irregular corner are irregular; their corners are near one.
struct IrregularFaces {
  const index_t *corners, *irregular;
  index_t* near;
  PatchKind* kind;
  SPMESH_HD void operator()(index_t f) const {
    const linalg::Index4 c = linalg::load4(corners + 4 * f);
    bool any = false;
    for (int a = 0; a < 4; ++a) any |= irregular[c.v[a]] != 0;
    kind[f] = any ? PatchKind::irregular : PatchKind::regular;
    if (any)
      for (int a = 0; a < 4; ++a) linalg::atomic_max(near + c.v[a], 1);
  }
};
// Regular faces with a corner near an irregular face border it.
struct BorderingFaces {
  const index_t *corners, *near;
  PatchKind* kind;
  SPMESH_HD void operator()(index_t f) const {
    if (kind[f] != PatchKind::regular) return;
    const linalg::Index4 c = linalg::load4(corners + 4 * f);
    for (int a = 0; a < 4; ++a)
      if (near[c.v[a]]) kind[f] = PatchKind::bordering;
  }
};

}  // namespace detail

// The patches of the `depth` levels below quad level L (level `level` of its plan; its rules
// made): four kernels over its vertices, crease entries and faces, selections of the region and
// of its irregular faces (one host wait) and the layouts; none where the region holds more than
// `max_share` of the faces.
template <class Exec, class S = typename Exec::space>
Patches<S> find_patches(Exec& exec, const QuadLevel<S>& L, int level, int depth,
                        double max_share = 1.0) {
  if (depth < 1 || depth > max_patch_depth)
    throw InputError("catmull_clark patches: depth " + std::to_string(depth) + " is not in [1, " +
                     std::to_string(max_patch_depth) + "]");
  using linalg::Array;
  Patches<S> p;
  p.level = level, p.depth = depth;
  const index_t V = L.vertices, F = L.faces;
  const auto q = view(L);
  Array<index_t, S> near;
  const Array<index_t, S> irregular = irregular_vertices(exec, L, near);
  p.kind = Array<std::uint8_t, S>(F);
  p.region = Array<index_t, S>(F), p.irregular = Array<index_t, S>(F);
  auto* kind = reinterpret_cast<PatchKind*>(p.kind.data());
  exec.for_each(F, detail::IrregularFaces{q.corners, irregular.data(), near.data(), kind});
  exec.for_each(F, detail::BorderingFaces{q.corners, near.data(), kind});
  Array<index_t, S> count(2);
  exec.select_positions(F, p.region.data(), count.data(),
                        [kind] SPMESH_HD(index_t f) { return kind[f] != PatchKind::regular; });
  exec.select_positions(F, p.irregular.data(), count.data() + 1,
                        [kind] SPMESH_HD(index_t f) { return kind[f] == PatchKind::irregular; });
  index_t counts[2];
  exec.read(count.data(), 2, counts);
  p.region_count = counts[0], p.irregular_count = counts[1];
  if (p.region_count > max_share * F) return {};
  p.float_layout = Array<PatchLayout<float>, S>(1), p.double_layout = Array<PatchLayout<double>, S>(1);
  exec.write(p.float_layout.data(), PatchLayout<float>(depth, V, F, L.edges));
  exec.write(p.double_layout.data(), PatchLayout<double>(depth, V, F, L.edges));
  return p;
}

// How many of a plan's last levels are quad levels, which patches may take.
template <class S>
int trailing_quad_levels(const Plan<S>& plan) {
  const int levels = static_cast<int>(plan.levels.size());
  int quads = 0;
  while (quads < levels && std::holds_alternative<QuadLevel<S>>(plan.levels[levels - 1 - quads])) ++quads;
  return quads;
}

// The patches of a plan's last `depth` levels (fewer where fewer of its last levels are quad
// levels; none for none).
template <class Exec, class S = typename Exec::space>
Patches<S> find_patches(Exec& exec, const Plan<S>& plan, int depth) {
  const int levels = static_cast<int>(plan.levels.size()), d = std::min(depth, trailing_quad_levels(plan));
  if (d <= 0) return {};
  return find_patches(exec, std::get<QuadLevel<S>>(plan.levels[levels - d]), levels - d, d);
}

// The patches build() gives a plan: the deepest, max_patch_depth to min_chosen_depth levels,
// whose region holds at most max_region_share of their level's faces; none (eval level by
// level) where there are none such. Deeper patches leave fewer levels to the level-by-level
// eval and read their control points for more points, but a level nearer the base has more
// faces near creases that have not yet decayed.
template <class Exec, class S = typename Exec::space>
Patches<S> choose_patches(Exec& exec, const Plan<S>& plan) {
  const int levels = static_cast<int>(plan.levels.size());
  for (int d = std::min(max_patch_depth, trailing_quad_levels(plan)); d >= min_chosen_depth; --d)
    if (auto p = find_patches(exec, std::get<QuadLevel<S>>(plan.levels[levels - d]), levels - d, d,
                              max_region_share))
      return p;
  return {};
}

}  // namespace spmesh::schemes::catmull_clark
