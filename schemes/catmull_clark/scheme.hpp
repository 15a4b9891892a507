// Catmull-Clark's traits for the front door (subdivision.hpp): what this scheme has that others
// do not. Polygons at level 0, quads after; crease rules (crease_rules.hpp); the last levels of
// regular faces evaluated by B-spline patches (patches.hpp).
#pragma once

#include "schemes/catmull_clark/build.hpp"
#include "schemes/catmull_clark/eval.hpp"
#include "schemes/catmull_clark/limit_masks.hpp"
#include "schemes/catmull_clark/patch_build.hpp"
#include "schemes/catmull_clark/quad_build.hpp"
#include "schemes/catmull_clark/refinement.hpp"
#include "schemes/subdivision.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace spmesh::schemes {

struct CatmullClark {
  static constexpr const char* name = "catmark";         // on the command line
  static constexpr const char* title = "Catmull-Clark";  // in messages
  static constexpr bool triangles_only = false;
  static constexpr bool crease_rules = true;  // takes sharpness and Options
  // Takes Options::triangles (on the general path: build and build_and_eval go there for it).
  static constexpr bool triangle_rules = true;

  // The base face that face `face` of level `levels` descends from: level 1 has a quad at each
  // corner of the base mesh, in their order, and each quad after four children in a row.
  static index_t base_face(const linalg::MeshMatrix<>& base, index_t face, int levels) {
    if (levels == 0) return face;
    const index_t corner = face >> (2 * (levels - 1));
    return index_t(std::upper_bound(base.offsets.begin(), base.offsets.end(), corner) - base.offsets.begin()) - 1;
  }

  // A plan's levels: the general path's, or half-edge levels (a polygon base level, then quad
  // levels); a quad level after a quad level is evaluated through its parent's faces
  // (group_eval.hpp). A plan also holds its patches.
  template <class S>
  using Level = catmull_clark::AnyLevel<S>;
  template <class S>
  using GroupedLevel = catmull_clark::QuadLevel<S>;
  template <class S>
  using PlanData = catmull_clark::PlanPatches<S>;
  using SmoothMask = catmull_clark::detail::SmoothMask;  // Eq. 14's, for the crease rules
  using LimitMask = catmull_clark::LimitMask;            // limit.hpp's

  // The general path's level build.
  template <class Exec, class S = typename Exec::space>
  static auto build_level(Exec& exec, linalg::MeshMatrix<S> M, const Sharpness<S>& C,
                          const Options& options, int) {
    return catmull_clark::build_level(exec, std::move(M), C, options);
  }
  // The half-edge build: the first level (a QuadLevel, or a PolygonLevel) and each child.
  template <class Exec, class S = typename Exec::space>
  static auto first_level(Exec& exec, linalg::MeshMatrix<S> M, const Sharpness<S>& C) {
    return catmull_clark::first_level(exec, std::move(M), C);
  }
  template <class Exec, class Level>
  static auto refine(Exec& exec, const Level& L, bool topology) {
    return catmull_clark::refine_quads(exec, L, topology);
  }
  // After the build, the patches its eval takes (choose_patches).
  template <class Exec, class S>
  static void finish(Exec& exec, Plan<CatmullClark, S>& plan) {
    plan.patches = catmull_clark::choose_patches(exec, plan);
  }

  // Eval: the last levels by the plan's patches; build_and_eval chooses them as build does.
  template <class Exec, class T, class S>
  static linalg::Dense<T, S> eval_plan(Exec& exec, const Plan<CatmullClark, S>& plan,
                                       const linalg::Dense<T, S>& P0) {
    return catmull_clark::eval_with_patches(exec, plan, P0);
  }
  template <class Exec, class T>
  using EvalSink = catmull_clark::detail::EvalWithPatches<Exec, T>;

  // Sizes: a level of V vertices, F faces, C corners and E edges gives V + F + E vertices, C
  // quads and 2E + C edges. Bytes on half-edges: 3 arrays per corner, 1 per vertex, a byte per
  // face and a margin for the sparse C; a polygon base level adds its offsets and a face per
  // corner.
  static SizeEstimate::Counts child_counts(const SizeEstimate::Counts& c, int) {
    return {c.vertices + c.faces + c.edges, c.corners, 4 * c.corners, 2 * c.edges + c.corners};
  }
  static std::int64_t level_bytes(const SizeEstimate::Counts& c, int level) {
    const bool polygons = level == 0 && c.corners != 4 * c.faces;
    return 12 * c.corners + 4 * c.vertices + c.faces + c.edges +
           (polygons ? 4 * c.corners + 4 * (c.faces + 1) : 0);
  }
  // build_and_eval holds the patch levels' operators; finding patches holds a byte and an index
  // per face and two per vertex of their level (at most the last level's), and their layouts.
  static void add_held(SizeEstimate& s, int levels) {
    s.window = catmull_clark::max_patch_depth;
    if (levels == 0) return;
    const auto& c = s.levels[levels - 1];
    s.extra = 5 * c.faces + 8 * c.vertices + sizeof(catmull_clark::PatchLayout<float>) +
              sizeof(catmull_clark::PatchLayout<double>);
  }
};

}  // namespace spmesh::schemes
