// An adaptive plan's patches (issue 28): the faces its samples reach and it does not refine, the
// leaves of its levels, each with the kind of patch that takes its limit (limit_at.hpp's
// FaceHolder), its place in its base face and its control points among R_adaptive's rows
// (adaptive.hpp's refinement_matrix: every level's points, one SpMV of the base vertices). The
// patches tile every base face (their domains are its parameterization's squares of side
// 2^-level, disjoint) and their surfaces are the limit surface: the regular kinds are bicubic
// B-spline patches of their 16 points, which any renderer evaluates; the others name the points
// their exact evaluation (Stam's, the smooth corner's, a boundary fan's tables) reads.
// patch_file.hpp writes them; docs/adaptive.md documents both.
#pragma once

#include "linalg/search.hpp"
#include "schemes/catmull_clark/adaptive.hpp"

#include <cstdint>
#include <vector>

namespace spmesh::schemes::catmull_clark {

// The patches of an adaptive plan, level by level, in face order on each; per patch:
template <class S>
struct AdaptivePatches {
  linalg::Array<index_t, S> base_face;  // the base face it lies in
  linalg::Array<double, S> u0, v0;      // where its corner 0 is in the base face's (u, v) (Bfr's)
  linalg::Array<std::uint8_t, S> level;  // its level: it covers [u0, u0 + 2^-level] x [v0, v0 + 2^-level]
  linalg::Array<index_t, S> face;        // its face on that level
  linalg::Array<std::uint8_t, S> kind;   // FaceHolder; none: no patch within the isolation level
  // patch: 0; boundary_patch: the sides beyond which its grid is reflected (bit a: side a,
  // corner a to a + 1); stam and smooth_corner: the corner at the irregular vertex; boundary_fan:
  // that corner + 4 x its sector (+ 128 pinned by a corner tag).
  linalg::Array<std::uint8_t, S> detail;
  linalg::Array<index_t, S> offsets;  // its control points are points[offsets[p], offsets[p + 1])
  linalg::Array<index_t, S> points;   // rows of R_adaptive; -1 beyond a boundary patch's sides
  index_t size() const { return base_face.size(); }
};

namespace detail {

// How many control points the patch holding a face reads, by its kind.
SPMESH_HD inline int patch_point_count(const HeldBy& by) {
  switch (by.holder) {
    case FaceHolder::patch:
    case FaceHolder::boundary_patch: return 16;
    case FaceHolder::stam: return stam_ring_size(by.valence);
    case FaceHolder::smooth_corner: return 9;
    case FaceHolder::boundary_fan: return fan_ring_size(by.fan.faces);
    case FaceHolder::none: break;
  }
  return 4;  // its corners, whose limit points an approximation reads
}

// Those points, visit(j, vertex) in the order of the kind's evaluation: the 4 x 4 grid (row-major,
// rows along v: patch_grid), stam_ring's, smooth_corner_points', boundary_fan_points'; for none
// the face's corners. Returns the patch's `detail` (AdaptivePatches).
template <class Visit>
SPMESH_HD std::uint8_t patch_points(const SampleLevel& L, index_t f, const HeldBy& by, Visit&& visit) {
  index_t grid[16];
  bool beyond[4];
  switch (by.holder) {
    case FaceHolder::patch:
      patch_grid(L.q, f, grid);
      for (int j = 0; j < 16; ++j) visit(j, grid[j]);
      return 0;
    case FaceHolder::boundary_patch: {
      boundary_patch_grid(L.q, L.sharp_sides, f, grid, beyond);
      for (int j = 0; j < 16; ++j) visit(j, grid[j]);
      std::uint8_t sides = 0;
      for (int a = 0; a < 4; ++a) sides |= beyond[a] ? std::uint8_t(1 << a) : 0;
      return sides;
    }
    case FaceHolder::stam: stam_ring(L.q, f, by.corner, by.valence, visit); return std::uint8_t(by.corner);
    case FaceHolder::smooth_corner: smooth_corner_points(L.q, f, by.corner, visit); return std::uint8_t(by.corner);
    case FaceHolder::boundary_fan:
      boundary_fan_points(L.q, by.fan.first, by.fan.faces, visit);
      return std::uint8_t(by.fan.corner + 4 * by.fan.sector + (by.fan.pinned ? 128 : 0));
    case FaceHolder::none: break;
  }
  for (int a = 0; a < 4; ++a) visit(a, linalg::ldg(L.q.corners + 4 * f + a));
  return 0;
}

// Where face f of level l of an adaptive plan lies in its base face: up the levels through each
// step's region (face f of level k + 1 is child f & 3 of the region's face f >> 2, which is face
// region_faces[k][f >> 2] of level k; child a at corner a, half the size: parameterization.hpp),
// to the base face, or to a polygon base mesh's level-1 face, sub-face f - offsets[F] of face F.
struct PatchPlace {
  const index_t* region_faces[max_sample_depth + 1];
  const index_t* polygon_offsets = nullptr;  // null: a quad base mesh
  index_t base_faces = 0;
  int first = 0;
  SPMESH_HD void operator()(int l, index_t f, index_t& base_face, double& u0, double& v0) const {
    double x = 0, y = 0;
    for (int k = l - 1; k >= first; --k) {
      const int a = int(f & 3);
      x = (x + double(a == 1 || a == 2)) / 2, y = (y + double(a >= 2)) / 2;
      f = region_faces[k][f >> 2];
    }
    if (!polygon_offsets) {
      base_face = f, u0 = x, v0 = y;
      return;
    }
    base_face = linalg::row_of(polygon_offsets, base_faces, f);
    const index_t begin = polygon_offsets[base_face];
    face_parameter(f - begin, polygon_offsets[base_face + 1] - begin, x, y, u0, v0);
  }
};

}  // namespace detail

// The patches of an adaptive plan (AdaptivePatches), on the executor: per level its leaves, the
// faces reached (every face of the first level, the children of the faces refined below) that it
// does not refine; their kinds, places and points.
template <class Exec, class S = typename Exec::space>
AdaptivePatches<S> adaptive_patches(Exec& exec, const AdaptivePlan<S>& plan) {
  const int first = plan.first_level(), levels = int(plan.levels.size());
  detail::PatchPlace place;
  place.first = first, place.base_faces = plan.base_faces;
  if (plan.polygons) place.polygon_offsets = std::get<PolygonLevel<S>>(plan.steps[0].plan.levels[0]).M.offsets.data();
  for (int l = first; l + 1 < levels; ++l) place.region_faces[l] = plan.steps[std::size_t(l)].faces.data();
  // Per level, its leaves and their point counts.
  const auto level_count = static_cast<std::size_t>(levels);
  std::vector<linalg::Array<index_t, S>> leaves(level_count), counts(level_count);
  std::vector<index_t> leaf_count(level_count, 0);
  const std::vector<index_t> row = plan.level_rows();
  index_t patches = 0;
  for (int l = first; l < levels; ++l) {
    const auto ul = std::size_t(l);
    const QuadLevel<S>& L = plan.levels[ul];
    const std::uint8_t* reached = l > first ? plan.steps[ul - 1].refined.data() : nullptr;
    const index_t* position = ul < plan.steps.size() ? plan.steps[ul].position.data() : nullptr;
    const std::uint8_t* refined = ul < plan.steps.size() ? plan.steps[ul].refined.data() : nullptr;
    auto leaf = [=] SPMESH_HD(index_t f) {
      if (reached && !reached[f >> 2]) return false;
      return !position || position[f] < 0 || !refined[position[f]];
    };
    linalg::Array<index_t, S> count(1);
    leaves[ul] = linalg::Array<index_t, S>(L.faces);
    exec.select_positions(L.faces, leaves[ul].data(), count.data(), leaf);
    leaf_count[ul] = exec.read(count.data());
    counts[ul] = linalg::Array<index_t, S>(leaf_count[ul]);
    const detail::SampleLevel level{view(L), plan.kinds[ul].data(), plan.sharp_sides[ul].data()};
    const index_t* faces = leaves[ul].data();
    index_t* n = counts[ul].data();
    exec.for_each(leaf_count[ul], [=] SPMESH_HD(index_t i) { n[i] = detail::patch_point_count(detail::held_by(level, faces[i])); });
    patches += leaf_count[ul];
  }
  AdaptivePatches<S> out{linalg::Array<index_t, S>(patches), linalg::Array<double, S>(patches),
                         linalg::Array<double, S>(patches),  linalg::Array<std::uint8_t, S>(patches),
                         linalg::Array<index_t, S>(patches), linalg::Array<std::uint8_t, S>(patches),
                         linalg::Array<std::uint8_t, S>(patches), linalg::Array<index_t, S>(patches + 1), {}};
  // The offsets: the point counts level by level, scanned.
  for (int l = first, at = 0; l < levels; at += leaf_count[std::size_t(l)], ++l)
    exec.copy(counts[std::size_t(l)].data(), leaf_count[std::size_t(l)], out.offsets.data() + at);
  exec.write(out.offsets.data() + patches, index_t(0));
  exec.exclusive_scan(out.offsets.data(), out.offsets.data(), patches + 1);
  out.points = linalg::Array<index_t, S>(exec.read(out.offsets.data() + patches));
  index_t at = 0;
  for (int l = first; l < levels; at += leaf_count[std::size_t(l)], ++l) {
    const auto ul = std::size_t(l);
    const detail::SampleLevel level{view(plan.levels[ul]), plan.kinds[ul].data(), plan.sharp_sides[ul].data()};
    const index_t* faces = leaves[ul].data();
    const index_t first_row = row[ul];
    index_t *base_face = out.base_face.data() + at, *face = out.face.data() + at, *points = out.points.data();
    const index_t* offsets = out.offsets.data() + at;
    double *u0 = out.u0.data() + at, *v0 = out.v0.data() + at;
    std::uint8_t *level_of = out.level.data() + at, *kind = out.kind.data() + at, *detail_of = out.detail.data() + at;
    exec.for_each(leaf_count[ul], [=] SPMESH_HD(index_t i) {
      const index_t f = faces[i];
      const detail::HeldBy by = detail::held_by(level, f);
      place(l, f, base_face[i], u0[i], v0[i]);
      level_of[i] = std::uint8_t(l), face[i] = f, kind[i] = std::uint8_t(by.holder);
      index_t* to = points + offsets[i];
      detail_of[i] = detail::patch_points(level, f, by, [&](int j, index_t vertex) { to[j] = vertex < 0 ? -1 : first_row + vertex; });
    });
  }
  return out;
}

}  // namespace spmesh::schemes::catmull_clark
