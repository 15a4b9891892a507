// Catmull-Clark patches, found on the build's side (patch_eval.hpp says what they are for):
// which faces of the patch level have a 1-ring that is a smooth regular 4 x 4 grid, which
// border one that has not, and the region of faces refined level by level.
#pragma once

#include "linalg/atomics.hpp"
#include "schemes/catmull_clark/plan.hpp"
#include "schemes/catmull_clark/quads.hpp"
#include "schemes/creasing.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <variant>

namespace spmesh::schemes::catmull_clark {

// What irregular_vertices says of a vertex of a quad level, by the faces at it: any other kind
// than `regular` makes them irregular to the patches (patch_eval.hpp); limit_at.hpp evaluates a
// face whose corners are regular, boundary, corner or crease as a bicubic patch (with points
// beyond the boundary or an infinitely sharp crease reflected), one with a single `stam` corner
// and three regular ones by Stam's method. Kinds are raised, never lowered: `other` is last.
namespace vertex_kind {
inline constexpr index_t regular = 0;   // inside, 4 edges, the smooth rule
inline constexpr index_t stam = 1;      // inside, other than 4 edges, the smooth rule
inline constexpr index_t boundary = 2;  // on the boundary, 3 edges, the crease rule along it
inline constexpr index_t corner = 3;    // on the boundary, 2 edges, pinned (the corner rule)
inline constexpr index_t crease = 4;    // inside, 4 edges, two opposite infinitely sharp: the crease rule
inline constexpr index_t other = 5;     // anything else: a semi-sharp crease, a dart, a blend of rules, ...
}  // namespace vertex_kind

namespace detail {

// A vertex's kind by its ring alone (a walk): regular, stam, boundary, corner or other (a
// boundary vertex of other than 2 or 3 edges).
SPMESH_HD inline index_t ring_kind(const QuadView& q, index_t v) {
  index_t edges = 0;
  bool boundary = false;
  q.for_each_edge(v, [&](index_t, index_t, index_t face) { ++edges, boundary |= face < 0; });
  return boundary ? (edges == 3 ? vertex_kind::boundary : edges == 2 ? vertex_kind::corner : vertex_kind::other)
                  : edges != 4 ? vertex_kind::stam
                               : vertex_kind::regular;
}

// Per vertex: its ring_kind.
struct IrregularVertices {
  QuadView q;
  index_t *irregular, *near;
  SPMESH_HD void operator()(index_t v) const {
    irregular[v] = ring_kind(q, v);
    near[v] = 0;
  }
};
// ... then `other` for a special vertex whose mask is not the smooth one, unless it is a boundary
// vertex whose mask is exactly the crease rule along the boundary (3/4, 1/8, 1/8: its inner edge
// and the vertex smooth, so it stays so) or a corner whose mask is the corner rule, and for the
// ends of an inner edge of sharpness above 0 (integer maxima: the same whatever order they land
// in; a special vertex's ring is walked again rather than its kind read, which other threads
// may be raising). With `sharp_sides` (set by InfiniteSides first), an infinitely sharp inner
// edge does not raise its ends: an inner vertex of 4 edges whose two marked sides are opposite
// and whose mask is the crease rule is `crease` (each side of the crease is then a boundary of 3
// edges, and stays so at every level); any other vertex on a marked side is `other`.
struct CreaseVertices {
  QuadView q;
  const index_t *special, *halves;
  const std::uint8_t* smooth;
  const double *self, *ring, *crease;
  const float* sharpness;
  const std::uint8_t* sharp_sides;  // null: no crease kind
  index_t specials;
  index_t* irregular;
  SPMESH_HD void operator()(index_t i) const {
    if (i < specials) {
      const index_t v = special[i], kind = ring_kind(q, v);
      const bool crease_rule = self[i] == 0.75 && ring[i] == 0 && crease[i] == 0.125;
      const bool corner_rule = self[i] == 1 && ring[i] == 0 && crease[i] == 0;
      int marked = 0, first = -1, last = -1, at = 0;
      if (sharp_sides)
        q.for_each_edge(v, [&](index_t g, index_t, index_t face) {
          if (face >= 0 && sharp_sides[g]) ++marked, last = at, first = first < 0 ? at : first;
          ++at;
        });
      if (kind == vertex_kind::regular && crease_rule && marked == 2 && last - first == 2) {
        linalg::atomic_max(irregular + v, vertex_kind::crease);
        return;
      }
      const bool kept = (kind == vertex_kind::boundary && crease_rule) || (kind == vertex_kind::corner && corner_rule);
      if ((!smooth[i] && !kept) || marked > 0) linalg::atomic_max(irregular + v, vertex_kind::other);
      return;
    }
    const float s = sharpness[i - specials];
    if (!creasing::is_sharp(s)) return;
    const index_t h = halves[i - specials];
    if (linalg::ldg(q.twin + h) < 0) return;  // a boundary edge: its ends' rules decide (above)
    if (sharp_sides && !creasing::is_semi_sharp(s)) return;  // marked: its ends decide (above)
    linalg::atomic_max(irregular + q.corners[h], vertex_kind::other);
    linalg::atomic_max(irregular + q.corners[q.next(h)], vertex_kind::other);
  }
};
// Per sharp edge of a level: its two half-edges marked in `sharp_sides` (zeroed before) where
// it is an infinitely sharp inner edge.
struct InfiniteSides {
  const index_t *twin, *halves;
  const float* sharpness;
  std::uint8_t* sharp_sides;
  SPMESH_HD void operator()(index_t j) const {
    const index_t h = halves[j], t = linalg::ldg(twin + h);
    if (t < 0 || !creasing::is_sharp(sharpness[j]) || creasing::is_semi_sharp(sharpness[j])) return;
    sharp_sides[h] = 1, sharp_sides[t] = 1;
  }
};
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

// Per vertex of quad level L (its rules made): its vertex_kind; `near` is zeroed, for
// IrregularFaces. With `sharp_sides`, also per half-edge whether its edge is an infinitely sharp
// inner edge (1), across which a crease patch reflects; without, no vertex is of kind crease (a
// vertex on a sharp inner edge is `other`).
template <class Exec, class S = typename Exec::space>
linalg::Array<index_t, S> irregular_vertices(Exec& exec, const QuadLevel<S>& L, linalg::Array<index_t, S>& near,
                                             linalg::Array<std::uint8_t, S>* sharp_sides = nullptr) {
  const index_t V = L.vertices, specials = L.C.special.size(), sharp = L.C.edges.size();
  const auto q = view(L);
  linalg::Array<index_t, S> irregular(V);
  near = linalg::Array<index_t, S>(V);
  exec.for_each(V, detail::IrregularVertices{q, irregular.data(), near.data()});
  if (sharp_sides) {
    *sharp_sides = linalg::Array<std::uint8_t, S>(4 * L.faces);
    std::uint8_t* sides = sharp_sides->data();
    exec.for_each(4 * L.faces, [=] SPMESH_HD(index_t h) { sides[h] = 0; });
    exec.for_each(sharp, detail::InfiniteSides{q.twin, L.C.halves.data(), L.C.edge_values.data(), sides});
  }
  exec.for_each(specials + sharp,
                detail::CreaseVertices{q, L.C.special.data(), L.C.halves.data(), L.rules.smooth.data(),
                                       L.rules.self.data(), L.rules.ring.data(), L.rules.crease.data(),
                                       L.C.edge_values.data(), sharp_sides ? sharp_sides->data() : nullptr, specials,
                                       irregular.data()});
  return irregular;
}

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
