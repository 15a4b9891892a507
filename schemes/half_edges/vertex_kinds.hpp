// What a vertex of a half-edge level is to the limit-surface patches (catmull_clark/ and loop/
// limit_at.hpp), by its ring and its rules: a face whose corners are all `regular` is the
// scheme's regular patch (bicubic B-spline, quartic box spline); `boundary`, `corner` and
// `crease` corners take the same patch with the points beyond the boundary or an infinitely sharp
// crease reflected; a face with one `stam` corner and the others regular is Stam's; a quad with
// one `smooth_corner` is the smooth corner's (catmull_clark/smooth_corner.hpp) where its other
// corners are boundary and regular ones, and one with a `boundary_fan` or `pinned_fan` corner
// the boundary fan's (catmull_clark/boundary_fan.hpp) where the fan's other vertices are regular
// ones. The edge counts are the faces': RegularCounts.
#pragma once

#include "linalg/atomics.hpp"
#include "linalg/intrinsics.hpp"
#include "schemes/creasing.hpp"
#include "schemes/half_edges/level.hpp"

#include <cstdint>
#include <type_traits>

namespace spmesh::schemes {

// Kinds are raised, never lowered: `other` is last.
namespace vertex_kind {
inline constexpr index_t regular = 0;   // inside, the regular edge count, the smooth rule
inline constexpr index_t stam = 1;      // inside, another edge count, the smooth rule
inline constexpr index_t boundary = 2;  // on the boundary, the regular boundary's edges, the crease rule along it
inline constexpr index_t corner = 3;    // on the boundary, 2 edges (quads), pinned (the corner rule)
inline constexpr index_t crease = 4;    // inside, regular, two opposite infinitely sharp edges: the crease rule
inline constexpr index_t smooth_corner = 5;  // on the boundary, 2 edges (quads), the crease rule round it (unpinned)
inline constexpr index_t boundary_fan = 6;   // on the boundary, 4 edges or more (quads), the crease rule along it
inline constexpr index_t pinned_fan = 7;     // on the boundary, 3 edges or more (quads), pinned (the corner rule)
inline constexpr index_t other = 8;     // anything else: a semi-sharp crease, a dart, a blend of rules, ...
}  // namespace vertex_kind

// A regular vertex's edges inside (4 among quads, 6 among triangles) and on the boundary (3, 4);
// the edges of a pinned corner that a patch takes (2 among quads; none among triangles).
template <class View>
struct RegularCounts {
  static constexpr bool quads = View::corners_per_face == 4;
  static constexpr index_t inner = quads ? 4 : 6, boundary = quads ? 3 : 4, corner = quads ? 2 : -1;
};

// A face's corners by kind, as the samples' patches read them: its first `stam` corner, how many
// take the regular patch with the points beyond them reflected (boundary, corner, crease), how
// many no patch.
struct FaceCorners {
  int extraordinary = -1, on_boundary = 0, others = 0;
};
template <class View>
SPMESH_HD FaceCorners face_corners(const View& view, const index_t* irregular, index_t f) {
  FaceCorners c;
  for (int a = 0; a < View::corners_per_face; ++a) {
    const index_t kind = irregular[linalg::ldg(view.corners + View::corners_per_face * f + a)];
    if (kind == vertex_kind::stam && c.extraordinary < 0) c.extraordinary = a;
    else if (kind == vertex_kind::boundary || kind == vertex_kind::corner || kind == vertex_kind::crease)
      ++c.on_boundary;
    else if (kind != vertex_kind::regular) ++c.others;
  }
  return c;
}

namespace detail {

// A vertex's kind by its ring alone (a walk): regular, stam, boundary, corner, boundary_fan (quads)
// or other (a boundary vertex of other edge counts).
template <class View>
SPMESH_HD index_t ring_kind(const View& q, index_t v) {
  using Counts = RegularCounts<View>;
  index_t edges = 0;
  bool boundary = false;
  q.for_each_edge(v, [&](index_t, index_t, index_t face) { ++edges, boundary |= face < 0; });
  return boundary ? (edges == Counts::boundary                ? vertex_kind::boundary
                     : edges == Counts::corner                ? vertex_kind::corner
                     : Counts::quads && edges > Counts::boundary ? vertex_kind::boundary_fan
                                                                 : vertex_kind::other)
                  : edges != Counts::inner ? vertex_kind::stam
                                           : vertex_kind::regular;
}

// Per vertex: its ring_kind.
template <class View>
struct IrregularVertices {
  View q;
  index_t *irregular, *near;
  SPMESH_HD void operator()(index_t v) const {
    irregular[v] = ring_kind(q, v);
    near[v] = 0;
  }
};
// ... then `other` for a special vertex whose mask is not the smooth one, unless it is a boundary
// vertex (or a boundary fan's) whose mask is exactly the crease rule along the boundary (3/4, 1/8,
// 1/8: its inner edges and the vertex smooth, so it stays so) or a corner whose mask is the corner rule (a corner
// whose mask is the crease rule round it, edge-only's, is `smooth_corner`), and for the
// ends of an inner edge of sharpness above 0 (integer maxima: the same whatever order they land
// in; a special vertex's ring is walked again rather than its kind read, which other threads
// may be raising). With `sharp_sides` (set by InfiniteSides first), an infinitely sharp inner
// edge does not raise its ends: a regular inner vertex whose two marked sides are opposite and
// whose mask is the crease rule is `crease` (each side of the crease is then a regular boundary,
// and stays so at every level); any other vertex on a marked side is `other`.
template <class View>
struct CreaseVertices {
  View q;
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
      const bool opposite = 2 * (last - first) == RegularCounts<View>::inner;
      if (kind == vertex_kind::regular && crease_rule && marked == 2 && opposite) {
        linalg::atomic_max(irregular + v, vertex_kind::crease);
        return;
      }
      const bool on_boundary = kind == vertex_kind::boundary || kind == vertex_kind::boundary_fan;
      const bool kept = (on_boundary && crease_rule) || (kind == vertex_kind::corner && corner_rule);
      if (kind == vertex_kind::corner && crease_rule) linalg::atomic_max(irregular + v, vertex_kind::smooth_corner);
      else if (on_boundary && corner_rule && RegularCounts<View>::quads && marked == 0)
        linalg::atomic_max(irregular + v, vertex_kind::pinned_fan);
      else if ((!smooth[i] && !kept) || marked > 0) linalg::atomic_max(irregular + v, vertex_kind::other);
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

}  // namespace detail

// Per vertex of half-edge level L (its rules made; view(L) its view): its vertex_kind; `near` is
// zeroed, for the patches' IrregularFaces. With `sharp_sides`, also per half-edge whether its
// edge is an infinitely sharp inner edge (1), across which a crease patch reflects; without, no
// vertex is of kind crease (a vertex on a sharp inner edge is `other`).
template <class Exec, class Level, class S = typename Exec::space>
linalg::Array<index_t, S> irregular_vertices(Exec& exec, const Level& L, linalg::Array<index_t, S>& near,
                                             linalg::Array<std::uint8_t, S>* sharp_sides = nullptr) {
  const index_t V = L.vertices, specials = L.C.special.size(), sharp = L.C.edges.size();
  const auto q = view(L);
  using View = std::remove_const_t<decltype(q)>;
  linalg::Array<index_t, S> irregular(V);
  near = linalg::Array<index_t, S>(V);
  exec.for_each(V, detail::IrregularVertices<View>{q, irregular.data(), near.data()});
  if (sharp_sides) {
    *sharp_sides = linalg::Array<std::uint8_t, S>(index_t(View::corners_per_face) * L.faces);
    std::uint8_t* sides = sharp_sides->data();
    exec.for_each(index_t(View::corners_per_face) * L.faces, [=] SPMESH_HD(index_t h) { sides[h] = 0; });
    exec.for_each(sharp, detail::InfiniteSides{q.twin, L.C.halves.data(), L.C.edge_values.data(), sides});
  }
  exec.for_each(specials + sharp,
                detail::CreaseVertices<View>{q, L.C.special.data(), L.C.halves.data(), L.rules.smooth.data(),
                                             L.rules.self.data(), L.rules.ring.data(), L.rules.crease.data(),
                                             L.C.edge_values.data(), sharp_sides ? sharp_sides->data() : nullptr,
                                             specials, irregular.data()});
  return irregular;
}

}  // namespace spmesh::schemes
