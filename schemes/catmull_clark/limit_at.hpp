// Catmull-Clark's limit surface at any (face, u, v) of a base mesh, exactly, where it is a bicubic
// B-spline patch or Stam's nest of them (issue 25's "regular faces" and "faces at smooth
// extraordinary vertices"), in OpenSubdiv's Bfr parameterization of the face
// (parameterization.hpp: a quad's corner 0 at (0, 0), 1 at (1, 0), 2 at (1, 1), 3 at (0, 1);
// another polygon's quad sub-faces, which are its level-1 children, where its samples start). A
// face whose corners are all inside the mesh with 4 edges, no sharp edge and no crease mask at
// them (patch_build.hpp's vertex_kind::regular) is, on the limit surface, the tensor product of
// cubic B-splines of the 4 x 4 points around it (Catmull and Clark 1978; patches.hpp's grid,
// corner_controls); where some of its corners are boundary vertices of 3 edges under the crease
// rule, pinned corners of 2, or inner vertices of 4 edges on a straight infinitely sharp crease
// (two opposite sharp edges), the same with the points beyond the boundary or the crease reflected
// (boundary_patch). A face with one smooth inner corner of 3 to max_stam_valence edges and three
// regular ones is Stam's (stam.hpp): exact in constant time at any distance from that corner; a
// face with one smooth (unpinned, edge-only) corner of 2 edges, boundary vertices of 3 edges
// beside it and a regular corner opposite is the smooth corner's (smooth_corner.hpp), the same; so
// is a face at a boundary vertex of 3 to max_fan_faces quads under the crease rule, or of 2 to
// max_fan_faces pinned by a corner tag, whose fan's other vertices are regular (boundary_fan.hpp).
// Elsewhere the sample goes down the levels, to the child quad that holds it (child a of a quad
// lies at its corner a, turned as its parent: (u, v) -> (2u - i, 2v - j)), until that child is one
// of those; a derivative in the base face's parameters is the child's times 2^level (a semi-sharp
// crease decays on the way down, and the faces at it become regular). Samples that reach neither
// within the levels asked (at a semi-sharp crease not yet decayed, a crease vertex that is not
// such a straight one, a dart, a boundary vertex of more than max_fan_faces + 1 edges or under
// a semi-sharp corner, an inner vertex of 2 or more than max_stam_valence edges) are refused, or on
// request approximated between the limit points of the last level's quad (bilinear): their exact
// patches are limit evaluation's next steps.
#pragma once

#include "schemes/catmull_clark/boundary_fan.hpp"
#include "schemes/catmull_clark/patch_build.hpp"
#include "schemes/catmull_clark/parameterization.hpp"
#include "schemes/catmull_clark/patch_eval.hpp"
#include "schemes/catmull_clark/scheme.hpp"
#include "schemes/catmull_clark/smooth_corner.hpp"
#include "schemes/catmull_clark/stam.hpp"
#include "schemes/limit.hpp"
#include "schemes/patches/basis.hpp"
#include "schemes/samples.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace spmesh::schemes::catmull_clark {

using schemes::max_sample_depth;
using schemes::SampleError;
using schemes::SampleLimits;
using schemes::SampleMatrices;

// What takes a quad's limit on its level (detail::SampleTerms below): its bicubic patch, that with
// sides on the boundary or an infinitely sharp crease, Stam's, the smooth corner's or a boundary
// fan's; or none, and the samples go down to its children.
enum class FaceHolder : std::uint8_t { none, patch, boundary_patch, stam, smooth_corner, boundary_fan };

namespace detail {

// A level as the samples read it: its quads, its vertices' kinds and which half-edges are on an
// infinitely sharp inner edge (irregular_vertices), and where a face's children are on the next
// level: face f's child a is 4 f + a there, or, where the level was refined in a region only
// (adaptive.hpp), 4 position[f] + a (position -1: a face not refined); and there, which faces
// samples reach: those whose parent, face f / 4 of the region above, was refined (`reached`; null:
// every face), the only ones whose rings the level holds whole.
struct SampleLevel {
  QuadView q;
  const index_t* irregular = nullptr;
  const std::uint8_t* sharp_sides = nullptr;
  const index_t* position = nullptr;
  const std::uint8_t* reached = nullptr;
};

// Which of them, and where (at corner `corner`, of `valence` edges: Stam's and the smooth
// corner's; `fan`: a boundary fan's).
struct HeldBy {
  FaceHolder holder = FaceHolder::none;
  int corner = -1, valence = 0;
  FanPlace fan;
};
SPMESH_HD inline HeldBy held_by(const SampleLevel& L, index_t f) {
  HeldBy by;
  const FaceCorners c = face_corners(L.q, L.irregular, f);
  if (c.extraordinary < 0 && c.others == 0) {
    by.holder = c.on_boundary == 0 ? FaceHolder::patch : FaceHolder::boundary_patch;
    return by;
  }
  by.corner = schemes::stam_corner(L.q, f, c, max_stam_valence, by.valence);
  if (by.corner >= 0) {
    by.holder = FaceHolder::stam;
    return by;
  }
  if (c.extraordinary < 0 && c.others == 1) {
    by.corner = smooth_corner_at(L.q, L.irregular, f);
    if (by.corner >= 0) {
      by.holder = FaceHolder::smooth_corner;
      return by;
    }
    by.fan = boundary_fan_at(L.q, L.irregular, f);
    if (by.fan.corner >= 0) by.holder = FaceHolder::boundary_fan;
  }
  return by;
}

// The 4 x 4 grid of a quad f with sides on the boundary or on an infinitely sharp crease
// (sharp_sides, or null: none; SampleTerms::boundary_patch), as patch_grid's with -1 for the
// points beyond such a side, and which sides are (beyond[a]: side a, corner a to a + 1; row 0,
// column 3, row 3, column 0).
SPMESH_HD inline void boundary_patch_grid(const QuadView& q, const std::uint8_t* sharp_sides, index_t f, index_t grid[16],
                                          bool beyond[4]) {
  for (int a = 0; a < 4; ++a)
    beyond[a] = linalg::ldg(q.twin + 4 * f + a) < 0 || (sharp_sides && linalg::ldg(sharp_sides + 4 * f + a));
  for (int a = 0; a < 4; ++a) {
    const unsigned places = unsigned(detail::corner_places >> (16 * a));
    auto place = [&](int j) -> index_t& { return grid[(places >> (4 * j)) & 15]; };
    const index_t h = 4 * f + a, t = linalg::ldg(q.twin + h);
    place(0) = linalg::ldg(q.corners + h);
    place(1) = place(2) = place(3) = -1;
    if (beyond[a]) continue;
    const index_t across = t & ~index_t(3);
    const int b = int(t & 3);
    place(1) = linalg::ldg(q.corners + across + ((b + 2) & 3)), place(2) = linalg::ldg(q.corners + across + ((b + 3) & 3));
    const index_t u = linalg::ldg(q.twin + next_half(t));  // in the face diagonal to corner a
    if (u >= 0) place(3) = linalg::ldg(q.corners + prev_half(u));
  }
}

// What a sample's limit is: status 0 and its terms, f(level, vertex, position weight, u
// derivative's, v derivative's) for the control points of the patch, or of Stam's quad, that
// holds it (found level by level); else, with `approximate`, status 4 and the terms of the
// bilinear interpolation of the limit points at the corners of the last level's quad holding it;
// else status 1 (neither within the levels), 2 (a face out of range), 3 ((u, v) outside the face's
// domain or not finite), and no terms.
struct SampleTerms {
  SampleLevel level[max_sample_depth + 1];
  int levels = 0;  // level[0 .. levels - 1]
  index_t base_faces = 0;
  // A polygon base mesh's face offsets (null for a quad mesh): its samples start on level 1,
  // in the child that parameterization.hpp names (level[0] unused).
  const index_t* polygon_offsets = nullptr;
  const index_t* face;
  const double *u, *v;
  StamView stam;
  StamNets stam_nets;  // where sample_points made them
  SmoothCornerView smooth_corner;  // where a level has a smooth corner
  BoundaryFanView boundary_fan;    // where a level has a boundary fan, per quad count
  bool approximate = false;
  LimitTerms<QuadView, LimitMask> last;  // the last level's limit masks, where approximate

  // What samples.hpp's Stam's nets ask of a scheme: its patches' points, a ring's largest size,
  // a level's faces (0: a level the samples do not read), the corner of a face at which Stam's
  // evaluation holds it (-1: none; n its valence) and the face's ring there.
  static constexpr int stam_points = 16;
  static constexpr int max_stam_ring = catmull_clark::max_stam_ring;
  SPMESH_HD index_t faces(int l) const { return level[l].irregular ? level[l].q.faces : 0; }
  SPMESH_HD int stam_corner(int l, index_t f, int& n) const {
    const SampleLevel& L = level[l];
    if (L.reached && !L.reached[f >> 2]) return -1;
    return schemes::stam_corner(L.q, f, face_corners(L.q, L.irregular, f), max_stam_valence, n);
  }
  template <class Visit>
  SPMESH_HD void stam_ring(int l, index_t f, int a, int n, Visit&& visit) const {
    catmull_clark::stam_ring(level[l].q, f, a, n, visit);
  }

  template <class F>
  SPMESH_HD std::uint8_t operator()(index_t s, F&& f) const {
    index_t at = face[s];
    double x = u[s], y = v[s];
    if (at < 0 || at >= base_faces) return 2;
    int first = 0;
    if (polygon_offsets) {
      const index_t begin = linalg::ldg(polygon_offsets + at);
      const ChildParameter child = child_parameter(begin, linalg::ldg(polygon_offsets + at + 1) - begin, x, y);
      if (child.child < 0) return 3;
      at = child.child, x = child.x, y = child.y, first = 1;
    } else if (!(x >= 0 && x <= 1 && y >= 0 && y <= 1)) {
      return 3;
    }
    for (int l = first; l < levels; ++l) {
      const SampleLevel& L = level[l];
      const double scale = double(1 << l);
      auto on_level = [&](index_t vertex, double p, double pu, double pv) { f(l, vertex, p, pu, pv); };
      if (stam_nets.terms(stam, l, at, x, y, scale, f)) return 0;
      const HeldBy by = held_by(L, at);
      switch (by.holder) {
        case FaceHolder::patch: patch(L.q, at, x, y, scale, on_level); return 0;
        case FaceHolder::boundary_patch: boundary_patch(L.q, L.sharp_sides, at, x, y, scale, on_level); return 0;
        case FaceHolder::stam: stam.limit(L.q, at, by.corner, by.valence, x, y, scale, on_level); return 0;
        case FaceHolder::smooth_corner: smooth_corner.limit(L.q, at, by.corner, x, y, scale, on_level); return 0;
        case FaceHolder::boundary_fan: boundary_fan.limit(L.q, by.fan, x, y, scale, on_level); return 0;
        case FaceHolder::none: break;
      }
      if (l + 1 == levels) {
        if (!approximate) return 1;
        bilinear(L.q, at, x, y, scale, on_level);
        return 4;
      }
      // The child holding (x, y): child a lies at corner a.
      const index_t parent = L.position ? linalg::ldg(L.position + at) : at;
      if (parent < 0) return 1;  // not refined (an adaptive plan refines every face a sample reaches)
      const int i = x >= 0.5, j = y >= 0.5;
      at = 4 * parent + (j ? 3 - i : i), x = 2 * x - i, y = 2 * y - j;
    }
    return 1;
  }

  // The bilinear interpolation at (x, y) of the limit points of quad f's corners (f of the last
  // level): g(vertex, weights) for the terms of their limit masks, derivatives times `scale`.
  // Continuous across the quads' sides (a side's points are its two ends' limits) but not
  // smooth; its error shrinks a level (docs/rules.md says by how much).
  template <class G>
  SPMESH_HD void bilinear(const QuadView& q, index_t f, double x, double y, double scale, G&& g) const {
    const double weight[4] = {(1 - x) * (1 - y), x * (1 - y), x * y, (1 - x) * y};
    const double along_u[4] = {-(1 - y), 1 - y, y, -y}, along_v[4] = {-(1 - x), -x, x, 1 - x};
    for (int a = 0; a < 4; ++a)
      last(linalg::ldg(q.corners + 4 * f + a), [&](index_t vertex, const LimitWeights& w) {
        g(vertex, weight[a] * w.position, scale * along_u[a] * w.position, scale * along_v[a] * w.position);
      });
  }

  // The bicubic patch of a quad f with a side on the boundary or on an infinitely sharp crease
  // (sharp_sides, or null: none) at (x, y), its corners regular, boundary, corner or crease
  // vertices, as `patch`: the points of its 4 x 4 grid beyond such a side are not in the mesh, or
  // on the crease's other side, which the rules on this side never read; each is the reflection
  // 2 P_1 - P_2 of the two grid points inward from it across that side (rows beyond sides 0 and 2
  // first, in the columns not beyond a side; then the columns beyond sides 1 and 3, every row),
  // which makes the side the cubic B-spline of its points and keeps a pinned corner where it is,
  // as the crease and corner rules do. Their weights are folded onto the grid points they come
  // from, in the reverse order.
  template <class G>
  SPMESH_HD static void boundary_patch(const QuadView& q, const std::uint8_t* sharp_sides, index_t f, double x,
                                       double y, double scale, G&& g) {
    index_t grid[16];
    bool beyond[4];
    boundary_patch_grid(q, sharp_sides, f, grid, beyond);
    double bx[4], dbx[4], by[4], dby[4];
    patches::basis_functions(patches::Basis::bspline, 3, nullptr, x, bx, dbx);
    patches::basis_functions(patches::Basis::bspline, 3, nullptr, y, by, dby);
    double w[3][16];
    for (int row = 0; row < 4; ++row)
      for (int col = 0; col < 4; ++col)
        w[0][4 * row + col] = by[row] * bx[col], w[1][4 * row + col] = scale * by[row] * dbx[col],
                         w[2][4 * row + col] = scale * dby[row] * bx[col];
    // A reflected point's weights onto the two it comes from: P = 2 P_near - P_far.
    auto fold = [&](int from, int near_, int far_) {
      for (int m = 0; m < 3; ++m) w[m][near_] += 2 * w[m][from], w[m][far_] -= w[m][from], w[m][from] = 0;
    };
    for (int row = 0; row < 4; ++row) {
      if (beyond[3]) fold(4 * row, 4 * row + 1, 4 * row + 2);
      if (beyond[1]) fold(4 * row + 3, 4 * row + 2, 4 * row + 1);
    }
    for (int col = 0; col < 4; ++col) {
      if ((col == 0 && beyond[3]) || (col == 3 && beyond[1])) continue;
      if (beyond[0]) fold(col, 4 + col, 8 + col);
      if (beyond[2]) fold(12 + col, 8 + col, 4 + col);
    }
    for (int p = 0; p < 16; ++p)
      if (grid[p] >= 0) g(grid[p], w[0][p], w[1][p], w[2][p]);
  }

  // The bicubic patch of quad f at (x, y): g(control point, weights), derivatives times `scale`.
  template <class G>
  SPMESH_HD static void patch(const QuadView& q, index_t f, double x, double y, double scale, G&& g) {
    index_t grid[16];
    patch_grid(q, f, grid);
    double bx[4], dbx[4], by[4], dby[4];  // along u (the grid's columns), along v (its rows)
    patches::basis_functions(patches::Basis::bspline, 3, nullptr, x, bx, dbx);
    patches::basis_functions(patches::Basis::bspline, 3, nullptr, y, by, dby);
    for (int row = 0; row < 4; ++row)
      for (int col = 0; col < 4; ++col)
        g(grid[4 * row + col], by[row] * bx[col], scale * by[row] * dbx[col], scale * dby[row] * bx[col]);
  }
};

// What the levels a sample may stop at hold, in one array: per valence 0 .. max_stam_valence
// whether a Stam vertex of it, then whether a smooth corner, then per boundary fan table
// (fan_table: quad count, pinned) whether a fan of it.
inline constexpr index_t kinds_present_smooth_corner = max_stam_valence + 1;
inline constexpr index_t kinds_present_fans = kinds_present_smooth_corner + 1;
inline constexpr index_t kinds_present_size = kinds_present_fans + fan_tables_count;

// Per vertex of a level the samples read: StamValences' flag of its valence, and its smooth
// corner's or boundary fan's. (A functor, not a lambda: with_sample_terms is instantiated with
// local types.)
struct SampleLevelKinds {
  StamValences<QuadView> valences;
  SPMESH_HD void operator()(index_t v) const {
    valences(v);
    const index_t kind = valences.irregular[v];
    if (kind == vertex_kind::smooth_corner)
      linalg::atomic_max(valences.present + kinds_present_smooth_corner, index_t(1));
    if (kind != vertex_kind::boundary_fan && kind != vertex_kind::pinned_fan) return;
    index_t edges = 0;
    valences.q.for_each_edge(v, [&](index_t, index_t, index_t) { ++edges; });
    if (edges - 1 <= max_fan_faces)
      linalg::atomic_max(valences.present + kinds_present_fans +
                             fan_table(int(edges - 1), kind == vertex_kind::pinned_fan),
                         index_t(1));
  }
};

// The samples' tables on levels `first` to terms.levels - 1 of `terms` (their levels set; and
// terms.last where approximate): Stam's, the smooth corner's and the boundary fans' where a level
// has one of theirs (one wait for what the levels hold); then f(plan, terms, statuses), and the
// first sample not evaluated refused by name (`depth`: the levels asked). Returns how many were
// approximated.
template <class Exec, class PlanT, class F, class S = typename Exec::space>
index_t with_tables(Exec& exec, const PlanT& plan, SampleTerms& terms, int first, const linalg::Array<index_t, S>& faces,
                    const linalg::Array<double, S>& u, const linalg::Array<double, S>& v, int depth, F&& f) {
  // What the levels hold (kinds_present_*), read once.
  linalg::Array<index_t, S> present(kinds_present_size);
  const std::vector<index_t> none(static_cast<std::size_t>(kinds_present_size), 0);
  exec.write(present.data(), none.data(), kinds_present_size);
  for (int l = first; l < terms.levels; ++l) {
    const StamValences<QuadView> valences{terms.level[l].q, terms.level[l].irregular, present.data(), max_stam_valence};
    exec.for_each(terms.level[l].q.vertices, SampleLevelKinds{valences});
  }
  std::vector<index_t> found(static_cast<std::size_t>(kinds_present_size));
  exec.read(present.data(), kinds_present_size, found.data());
  const std::span<const index_t> flags(found);
  const auto stam = schemes::stam_tables(exec, flags.first(max_stam_valence + 1), stam_structure);
  terms.stam = stam_view<StamView>(stam);
  linalg::Array<double, S> smooth_corner;
  if (found[kinds_present_smooth_corner])
    smooth_corner = smooth_corner_tables(exec), terms.smooth_corner.values = smooth_corner.data();
  const std::span<const index_t> fan_flags = flags.subspan(kinds_present_fans);
  StamTables<S> fans;
  if (std::any_of(fan_flags.begin(), fan_flags.end(), [](index_t flag) { return flag != 0; }))
    fans = boundary_fan_tables(exec, fan_flags), terms.boundary_fan = stam_view<BoundaryFanView>(fans);
  const index_t n = faces.size();
  linalg::Array<std::uint8_t, S> status(n);
  f(plan, terms, status.data());
  return schemes::detail::count_or_refuse(
      exec, status, faces, u, v, terms.base_faces, terms.approximate,
      "a quad's is [0, 1] x [0, 1], a polygon's the squares of its sub-faces, docs/rules.md",
      "no regular quad nor one of Stam's holds it within " + std::to_string(depth) +
          " levels (a semi-sharp crease, a crease vertex of other than 4 edges or a turning crease, a dart, a boundary "
          "vertex of more than " + std::to_string(max_fan_faces + 1) + " edges or an inner one of 2 or more than " +
          std::to_string(max_stam_valence) + " edges is near, whose exact patches are not built yet; approximate "
          "evaluates it between the last level's limit points)");
}

// A level's SampleLevel, its kinds and sharp sides kept in `irregular` and `sharp_sides`.
template <class Exec, class S = typename Exec::space>
SampleLevel sample_level(Exec& exec, const QuadLevel<S>& L, std::vector<linalg::Array<index_t, S>>& irregular,
                         std::vector<linalg::Array<std::uint8_t, S>>& sharp_sides) {
  linalg::Array<index_t, S> near;
  sharp_sides.emplace_back();
  irregular.push_back(irregular_vertices(exec, L, near, &sharp_sides.back()));
  return {view(L), irregular.back().data(), sharp_sides.back().data()};
}

// The samples' (faces[s], u[s], v[s]) terms that start on the base mesh M (polygon_offsets set
// for polygons).
template <class S>
SampleTerms samples_on(const linalg::Array<index_t, S>& faces, const linalg::Array<double, S>& u,
                       const linalg::Array<double, S>& v, index_t base_faces, bool approximate) {
  SampleTerms terms{};
  terms.base_faces = base_faces, terms.approximate = approximate;
  terms.face = faces.data(), terms.u = u.data(), terms.v = v.data();
  return terms;
}

// Every level to `depth` (1 at least for polygons) of mesh M with its topology and rules
// (plan.levels and last), the samples' terms on them, and f(plan, terms, statuses); then the
// first sample not evaluated is refused by name. Returns how many were approximated.
template <class Exec, class F, class S = typename Exec::space>
index_t with_sample_terms(Exec& exec, linalg::MeshMatrix<S> M, const Sharpness<S>& C,
                          const linalg::Array<index_t, S>& faces, const linalg::Array<double, S>& u,
                          const linalg::Array<double, S>& v, int depth, const Options& options, bool approximate,
                          F&& f) {
  schemes::detail::check_input<CatmullClark>(exec, M, C, depth, false);
  schemes::detail::check_samples(depth, faces, u, v);
  // A polygon mesh's samples start on level 1 (parameterization.hpp), so it goes down one at least.
  const bool polygons = linalg::has_faces_other_than(exec, M, 4);
  if (polygons && depth == 0) depth = 1;
  SampleTerms terms = samples_on(faces, u, v, M.faces, approximate);
  Plan<S> plan;
  std::optional<AnyLevel<S>> last;
  std::optional<SharpTable<S>> table;
  schemes::detail::KeepLevelsAndLast<Exec, Plan<S>, AnyLevel<S>> sink{{plan}, exec, last, table};
  schemes::detail::build_half_edges<CatmullClark>(exec, std::move(M), C, depth, options, sink);
  std::vector<linalg::Array<index_t, S>> irregular;
  std::vector<linalg::Array<std::uint8_t, S>> sharp_sides;
  terms.levels = depth + 1;
  const int first = polygons ? 1 : 0;
  if (polygons) terms.polygon_offsets = std::get<PolygonLevel<S>>(plan.levels[0]).M.offsets.data();
  for (int l = first; l <= depth; ++l)
    terms.level[l] = sample_level(exec, std::get<QuadLevel<S>>(l < depth ? plan.levels[std::size_t(l)] : *last),
                                  irregular, sharp_sides);
  // The last level's limit masks, for the samples that no patch holds.
  linalg::Array<std::uint8_t, S> turned;
  linalg::Array<float, S> vertex_sharpness;
  if (approximate) {
    const auto& L = std::get<QuadLevel<S>>(*last);
    turned = schemes::detail::ring_starts<LimitMask>(exec, plan.levels, L.vertices);
    terms.last = limit_terms<LimitMask>(exec, L, table->at(depth), turned, vertex_sharpness);
  }
  return with_tables(exec, plan, terms, first, faces, u, v, depth, f);
}

}  // namespace detail

// The limit points and their u and v derivatives at samples (faces[s], u[s], v[s]) of mesh M
// (level-0 sharpness C, vertex data P0), going down at most `depth` levels (0 to
// max_sample_depth). SampleError (an InputError) naming the first sample that is out of range, or
// that reaches no patch nor Stam's quad within `depth` levels unless `approximate`, which
// evaluates those as the bilinear interpolation of the limit points at the corners of the level
// `depth` quad that holds them (counted in `approximated`). A mesh with other faces than quads
// goes down one level at least (depth 0 is taken as 1): its faces' sub-faces are level 1's quads.
template <class Exec, class T, class S = typename Exec::space>
SampleLimits<T, S> limit_at_samples(Exec& exec, linalg::MeshMatrix<S> M, Sharpness<S> C,
                                    const linalg::Array<index_t, S>& faces, const linalg::Array<double, S>& u,
                                    const linalg::Array<double, S>& v, const linalg::Dense<T, S>& P0, int depth,
                                    Options options = {}, bool approximate = false) {
  check_vertex_data(P0.rows, M.vertices, "limit_at_samples");
  return schemes::detail::limits_by_terms(exec, P0, faces.size(), [&](auto&& f) {
    return detail::with_sample_terms(exec, std::move(M), C, faces, u, v, depth, options, approximate, f);
  });
}

// The same as sparse matrices of the base vertices (samples x base vertices), for the positions
// and each derivative: the patches' weights on every level's vertices composed with that level's
// refinement matrix (in double, stored as T), so that re-evaluating moved vertices is one SpMV.
template <class T, class Exec, class S = typename Exec::space>
SampleMatrices<T, S> limit_at_samples_matrices(Exec& exec, linalg::MeshMatrix<S> M, Sharpness<S> C,
                                               const linalg::Array<index_t, S>& faces,
                                               const linalg::Array<double, S>& u, const linalg::Array<double, S>& v,
                                               int depth, Options options = {}, bool approximate = false) {
  const index_t base = M.vertices;
  return schemes::detail::matrices_by_terms<T>(exec, base, faces.size(), [&](auto&& f) {
    return detail::with_sample_terms(exec, std::move(M), C, faces, u, v, depth, options, approximate, f);
  });
}

}  // namespace spmesh::schemes::catmull_clark
