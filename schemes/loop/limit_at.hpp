// Loop's limit surface at any (face, u, v) of a triangle mesh, exactly where it is a quartic box
// spline or Stam's nest of them, in OpenSubdiv's Bfr parameterization of a triangle (corner 0 at
// (0, 0), 1 at (1, 0), 2 at (0, 1); u + v <= 1). A triangle whose corners are inner vertices of 6
// edges under the smooth rule, boundary vertices of 4 under the crease rule along the boundary,
// or inner vertices of 6 on a straight infinitely sharp crease (two opposite sharp edges; points
// beyond the boundary or the crease reflected), is its box-spline patch (box_spline.hpp); one with one
// smooth inner corner of 3 to max_stam_valence edges and two regular ones is Stam's (stam.hpp).
// Elsewhere the sample goes down the levels to the child triangle that holds it (stam.hpp's
// triangle_child: the middle child is turned half a turn), until a child is one of those; a
// derivative in the base face's parameters is the child's times +-2^level (a semi-sharp crease
// decays on the way down). Samples that reach neither within the levels asked (at a semi-sharp
// crease not yet decayed, a crease vertex of other than 6 edges or where a crease turns or ends,
// a corner, a boundary vertex of other than 4 edges, an inner vertex of more than
// max_stam_valence edges) are refused, or on request
// approximated by the linear interpolation of the limit points at the last level's triangle's
// corners.
#pragma once

#include "schemes/half_edges/vertex_kinds.hpp"
#include "schemes/limit.hpp"
#include "schemes/loop/box_spline.hpp"
#include "schemes/loop/scheme.hpp"
#include "schemes/loop/stam.hpp"
#include "schemes/samples.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace spmesh::schemes::loop {

namespace detail {

// A level as the samples read it: its triangles, its vertices' kinds and which half-edges are on
// an infinitely sharp inner edge (irregular_vertices).
struct SampleLevel {
  TriangleView t;
  const index_t* irregular = nullptr;
  const std::uint8_t* sharp_sides = nullptr;
};

// What a sample's limit is (samples.hpp's statuses and terms), found level by level.
struct SampleTerms {
  SampleLevel level[max_sample_depth + 1];
  int levels = 0;  // level[0 .. levels - 1]
  const index_t* face;
  const double *u, *v;
  StamView stam;
  StamNets stam_nets;  // where sample_points made them
  bool approximate = false;
  LimitTerms<TriangleView, LimitMask> last;  // the last level's limit masks, where approximate

  // What samples.hpp's Stam's nets ask of a scheme (as catmull_clark::detail::SampleTerms).
  static constexpr int stam_points = box_spline_points;
  static constexpr int max_stam_ring = loop::max_stam_ring;
  SPMESH_HD index_t faces(int l) const { return level[l].t.faces; }
  SPMESH_HD int stam_corner(int l, index_t f, int& n) const {
    const SampleLevel& L = level[l];
    return schemes::stam_corner(L.t, f, face_corners(L.t, L.irregular, f), max_stam_valence, n);
  }
  template <class Visit>
  SPMESH_HD void stam_ring(int l, index_t f, int a, int n, Visit&& visit) const {
    loop::stam_ring(level[l].t, f, a, n, visit);
  }

  template <class F>
  SPMESH_HD std::uint8_t operator()(index_t s, F&& f) const {
    index_t at = face[s];
    double x = u[s], y = v[s];
    if (at < 0 || at >= level[0].t.faces) return 2;
    if (!(x >= 0 && y >= 0 && x + y <= 1)) return 3;
    double scale = 1;  // +-2^l: the middle child turns its parent half a turn
    for (int l = 0; l < levels; ++l) {
      const SampleLevel& L = level[l];
      auto on_level = [&](index_t vertex, double p, double pu, double pv) { f(l, vertex, p, pu, pv); };
      if (stam_nets.terms(stam, l, at, x, y, scale, f)) return 0;
      const FaceCorners c = face_corners(L.t, L.irregular, at);
      int n = 0;
      const int a = schemes::stam_corner(L.t, at, c, max_stam_valence, n);
      if (c.extraordinary < 0 && c.others == 0) {
        const BoxSplineNet net = box_spline_net(L.t, at, L.sharp_sides);
        if (net.complete) {
          net.weights(x, y, scale, on_level);
          return 0;
        }
      } else if (a >= 0) {
        stam.limit(L.t, at, a, n, x, y, scale, on_level);
        return 0;
      }
      if (l + 1 == levels) {
        if (!approximate) return 1;
        linear(L.t, at, x, y, scale, on_level);
        return 4;
      }
      const TriangleChild child = triangle_child(x, y);
      at = 4 * at + child.child, x = child.x, y = child.y, scale *= 2 * child.sign;
    }
    return 1;
  }

  // The linear interpolation at (x, y) of the limit points of triangle f's corners (f of the
  // last level): g(vertex, weights) for the terms of their limit masks, derivatives times
  // `scale`. Continuous across the triangles' sides but not smooth (docs/rules.md).
  template <class G>
  SPMESH_HD void linear(const TriangleView& t, index_t f, double x, double y, double scale, G&& g) const {
    const double weight[3] = {1 - x - y, x, y}, along_u[3] = {-1, 1, 0}, along_v[3] = {-1, 0, 1};
    for (int a = 0; a < 3; ++a)
      last(linalg::ldg(t.corners + 3 * f + a), [&](index_t vertex, const LimitWeights& w) {
        g(vertex, weight[a] * w.position, scale * along_u[a] * w.position, scale * along_v[a] * w.position);
      });
  }
};

// Every level to `depth` of triangle mesh M with its topology and rules, the samples' terms on
// them, and f(plan, terms, statuses); then the first sample not evaluated is refused by name.
// Returns how many were approximated.
template <class Exec, class F, class S = typename Exec::space>
index_t with_sample_terms(Exec& exec, linalg::MeshMatrix<S> M, const Sharpness<S>& C,
                          const linalg::Array<index_t, S>& faces, const linalg::Array<double, S>& u,
                          const linalg::Array<double, S>& v, int depth, const Options& options, bool approximate,
                          F&& f) {
  schemes::detail::check_input<Loop>(exec, M, C, depth, false);
  schemes::detail::check_samples(depth, faces, u, v);
  const index_t n = faces.size(), base_faces = M.faces;
  Plan<Loop, S> plan;
  std::optional<AnyLevel<S>> last;
  std::optional<SharpTable<S>> table;
  schemes::detail::KeepLevelsAndLast<Exec, Plan<Loop, S>, AnyLevel<S>> sink{{plan}, exec, last, table};
  schemes::detail::build_half_edges<Loop>(exec, std::move(M), C, depth, options, sink);
  std::vector<linalg::Array<index_t, S>> irregular;
  std::vector<linalg::Array<std::uint8_t, S>> sharp_sides;
  linalg::Array<index_t, S> near;
  SampleTerms terms{};
  terms.levels = depth + 1;
  terms.face = faces.data(), terms.u = u.data(), terms.v = v.data();
  linalg::Array<index_t, S> valences(max_stam_valence + 1);
  const std::vector<index_t> none(max_stam_valence + 1, 0);
  exec.write(valences.data(), none.data(), max_stam_valence + 1);
  for (int l = 0; l <= depth; ++l) {
    const auto& L = std::get<TriangleLevel<S>>(l < depth ? plan.levels[std::size_t(l)] : *last);
    sharp_sides.emplace_back();
    irregular.push_back(irregular_vertices(exec, L, near, &sharp_sides.back()));
    terms.level[l] = {view(L), irregular.back().data(), sharp_sides.back().data()};
    exec.for_each(L.vertices, StamValences<TriangleView>{terms.level[l].t, irregular.back().data(), valences.data(),
                                                         max_stam_valence});
  }
  const auto stam = stam_tables(exec, valences);
  terms.stam = stam_view<StamView>(stam);
  // The last level's limit masks, for the samples that no patch holds.
  linalg::Array<std::uint8_t, S> turned;
  linalg::Array<float, S> vertex_sharpness;
  if (approximate) {
    const auto& L = std::get<TriangleLevel<S>>(*last);
    turned = schemes::detail::ring_starts<LimitMask>(exec, plan.levels, L.vertices);
    terms.last = limit_terms<LimitMask>(exec, L, table->at(depth), turned, vertex_sharpness);
    terms.approximate = true;
  }
  linalg::Array<std::uint8_t, S> status(n);
  f(plan, terms, status.data());
  return schemes::detail::count_or_refuse(
      exec, status, faces, u, v, base_faces, approximate, "a triangle's is u >= 0, v >= 0, u + v <= 1",
      "no box-spline patch nor one of Stam's holds it within " + std::to_string(depth) +
          " levels (a semi-sharp crease, a crease vertex of other than 6 edges or a turning crease, a dart, a corner, "
          "a boundary vertex of other than 4 edges or an inner one of more than " +
          std::to_string(max_stam_valence) + " edges is near, whose exact patches are not built yet; approximate "
          "evaluates it between the last level's limit points)");
}

}  // namespace detail

// The limit points and their u and v derivatives at samples (faces[s], u[s], v[s]) of triangle
// mesh M (level-0 sharpness C, vertex data P0), going down at most `depth` levels (0 to
// max_sample_depth). SampleError (an InputError) naming the first sample that is out of range, or
// that reaches no patch within `depth` levels unless `approximate`, which evaluates those
// between the limit points at the corners of the level `depth` triangle that holds them
// (counted in `approximated`).
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

// The same as sparse matrices of the base vertices (samples x base vertices): re-evaluating
// moved vertices is one SpMV.
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

}  // namespace spmesh::schemes::loop
