// Selective refinement as a polygon mesh (issue 28): a base mesh whose selected faces are refined
// L levels and whose other faces stay whole, without cracks. Every point is on the limit surface:
// a selected face is its tessellation at rate 2^L (the limit at its level-L vertices' parameters,
// tessellation.hpp's layout, N^2 quads a quad, N^2 / 4 a polygon's sub-face); another face is one
// polygon, its corners' limit points with, along each side shared with a selected face, that
// face's points of the side (a transition face: no T-junction, each side's points one set). The
// level-L control points cannot be joined so: a vertex has another point on each level, and a
// face left whole holds its level-0 points, so the refined region's rim would not meet it.
#pragma once

#include "linalg/atomics.hpp"
#include "linalg/search.hpp"
#include "schemes/catmull_clark/adaptive.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace spmesh::schemes::catmull_clark {

namespace detail {

// The boundary of base face f in a tessellation layout at rate N (even for a polygon mesh),
// walked through its facets, point b of it the one b segments from corner 0. A quad's is 4 runs
// of N, one a side, of its N x N grid of quads: in a quad mesh quad (i, j) is its (j N + i)-th;
// in a polygon mesh the grid is its four level-1 children's N/2 x N/2 grids, child a at corner
// a, turned as the quad. Another polygon's of n sides is 2n runs of N / 2, half a side each,
// through its sub-faces' grids (sub-face s, whose corner 0 is corner s, along side s from corner
// s; then sub-face s + 1 along its side 3, from side s's midpoint).
struct FaceRim {
  const index_t* facet_first;  // per base face, its first facet
  const index_t* corners;      // the layout's facets' corners, 4 a quad
  const index_t* offsets;      // the base mesh's, for a polygon mesh (null: quads)
  int N;

  SPMESH_HD index_t sides(index_t f) const { return offsets ? offsets[f + 1] - offsets[f] : 4; }
  SPMESH_HD index_t points(index_t f) const { return sides(f) * N; }
  // Point b of the rim, and whether it is a corner of the base face.
  SPMESH_HD index_t point(index_t f, index_t b, bool& corner) const {
    const index_t n = sides(f);
    if (n == 4) {
      const int side = int(b / N), k = int(b % N);
      corner = k == 0;
      switch (side) {
        case 0: return quad(f, k, 0, 0);
        case 1: return quad(f, N - 1, k, 1);
        case 2: return quad(f, N - 1 - k, N - 1, 2);
        default: return quad(f, 0, N - 1 - k, 3);
      }
    }
    const int R = N / 2;
    const index_t piece = b / R;
    const int k = int(b % R);
    const index_t side = piece / 2;
    corner = piece % 2 == 0 && k == 0;
    auto sub_face = [&](index_t s, int i, int j, int a) { return corners[4 * (facet_first[f] + s * R * R + j * R + i) + a]; };
    return piece % 2 == 0 ? sub_face(side, k, 0, 0) : sub_face((side + 1) % n, 0, R - 1 - k, 3);
  }
  // Corner a of quad (i, j) of quad face f's N x N grid.
  SPMESH_HD index_t quad(index_t f, int i, int j, int a) const {
    if (!offsets) return corners[4 * (facet_first[f] + j * N + i) + a];
    const int R = N / 2, right = i >= R, up = j >= R;
    const int child = up ? 3 - right : right;
    return corners[4 * (facet_first[f] + child * R * R + (j - up * R) * R + (i - right * R)) + a];
  }
};

}  // namespace detail

// The selective refinement of base mesh M (the plan's) to the plan's isolation level L (1 to 10,
// or 0 for a quad mesh: the base faces' limit corners) for vertex data P0 (3 columns), the faces
// marked in `selected` (one a base face) refined: the points, their unit normals and the facets
// above, the points in the first facet's order that holds them. The points are
// limit_at_samples(plan)'s (approximate: as there).
template <class Exec, class T, class S = typename Exec::space>
Tessellation<T, S> selective_mesh(Exec& exec, const AdaptivePlan<S>& plan, const linalg::MeshMatrix<S>& M,
                                  const linalg::Dense<T, S>& P0, const linalg::Array<std::uint8_t, S>& selected,
                                  bool approximate = false) {
  check_tessellated_data(P0);
  if (M.vertices != plan.base_vertices || M.faces != plan.base_faces || selected.size() != M.faces)
    throw DimensionError("selective_mesh: a mesh of " + std::to_string(M.vertices) + " vertices and " +
                         std::to_string(M.faces) + " faces with " + std::to_string(selected.size()) +
                         " selection marks; the plan's base has " + std::to_string(plan.base_vertices) + " and " +
                         std::to_string(plan.base_faces));
  if (plan.isolation > 10) throw InputError("selective_mesh: level " + std::to_string(plan.isolation) + ", not 0 to 10");
  const int N = 1 << plan.isolation;
  const bool polygons = plan.polygons;
  auto layout = tessellation_samples(exec, M, N);
  const index_t F = M.faces, points = layout.faces.size();
  // Per base face its first facet in the layout, and in the result.
  linalg::Array<index_t, S> facet_first(F + 1), out_first(F + 1), corner_first(F + 1);
  const index_t* offsets = M.offsets.data();
  const std::uint8_t* chosen = selected.data();
  index_t *first = facet_first.data(), *out = out_first.data();
  exec.for_each(F + 1, [=] SPMESH_HD(index_t f) {
    const index_t facets = f == F ? 0 : index_t(facets_of_face(offsets[f + 1] - offsets[f], N, polygons));
    first[f] = facets, out[f] = f == F ? 0 : chosen[f] ? facets : 1;
  });
  exec.exclusive_scan(first, first, F + 1);
  exec.exclusive_scan(out, out, F + 1);
  const index_t facets = exec.read(out + F);
  // The points the selected faces' facets hold.
  linalg::Array<index_t, S> held(points);
  index_t* held_by_selected = held.data();
  exec.for_each(points, [=] SPMESH_HD(index_t p) { held_by_selected[p] = 0; });
  const index_t* corners = layout.facets.indices.data();
  const index_t layout_facets = layout.facets.faces;
  exec.for_each(layout_facets, [=] SPMESH_HD(index_t facet) {
    if (!chosen[linalg::row_of(first, F, facet)]) return;
    for (int a = 0; a < 4; ++a) linalg::atomic_add(held_by_selected + corners[4 * facet + a], index_t(1));
  });
  // A face's corners in the result: 4 a facet, or its rim's corners and points so held.
  const detail::FaceRim rim{first, corners, polygons ? offsets : nullptr, N};
  index_t* corners_of = corner_first.data();
  exec.for_each(F + 1, [=] SPMESH_HD(index_t f) {
    if (f == F) {
      corners_of[f] = 0;
      return;
    }
    if (chosen[f]) {
      corners_of[f] = 4 * (first[f + 1] - first[f]);
      return;
    }
    index_t n = 0;
    for (index_t b = 0; b < rim.points(f); ++b) {
      bool corner = false;
      const index_t p = rim.point(f, b, corner);
      n += corner || held_by_selected[p] ? 1 : 0;
    }
    corners_of[f] = n;
  });
  exec.exclusive_scan(corners_of, corners_of, F + 1);
  linalg::Array<index_t, S> facet_offsets(facets + 1), facet_corners(exec.read(corners_of + F));
  index_t *starts = facet_offsets.data(), *to = facet_corners.data();
  exec.for_each(facets + 1, [=] SPMESH_HD(index_t facet) {
    if (facet == facets) {
      starts[facet] = corners_of[F];
      return;
    }
    const index_t f = linalg::row_of(out, F, facet), i = facet - out[f];
    starts[facet] = corners_of[f] + 4 * i;
    index_t* write = to + corners_of[f] + 4 * i;
    if (chosen[f]) {
      for (int a = 0; a < 4; ++a) write[a] = corners[4 * (first[f] + i) + a];
      return;
    }
    for (index_t b = 0; b < rim.points(f); ++b) {
      bool corner = false;
      const index_t p = rim.point(f, b, corner);
      if (corner || held_by_selected[p]) *write++ = p;
    }
  });
  // The points the result holds, renumbered in order, and their samples.
  linalg::Array<index_t, S> number(points + 1);
  index_t* kept = number.data();
  const index_t result_corners = exec.read(corners_of + F);
  exec.for_each(points + 1, [=] SPMESH_HD(index_t p) { kept[p] = 0; });
  exec.for_each(result_corners, [=] SPMESH_HD(index_t c) { linalg::atomic_add(kept + to[c], index_t(1)); });
  exec.for_each(points + 1, [=] SPMESH_HD(index_t p) { kept[p] = kept[p] > 0 ? 1 : 0; });
  exec.exclusive_scan(kept, kept, points + 1);
  const index_t kept_points = exec.read(kept + points);
  TessellationSamples<S> result{linalg::Array<index_t, S>(kept_points), linalg::Array<double, S>(kept_points),
                                linalg::Array<double, S>(kept_points), {}};
  index_t* face = result.faces.data();
  double *u = result.u.data(), *v = result.v.data();
  const index_t* from_face = layout.faces.data();
  const double *from_u = layout.u.data(), *from_v = layout.v.data();
  exec.for_each(points, [=] SPMESH_HD(index_t p) {
    if (kept[p + 1] == kept[p]) return;
    face[kept[p]] = from_face[p], u[kept[p]] = from_u[p], v[kept[p]] = from_v[p];
  });
  exec.for_each(result_corners, [=] SPMESH_HD(index_t c) { to[c] = kept[to[c]]; });
  result.facets = linalg::MeshMatrix<S>(kept_points, std::move(facet_offsets), std::move(facet_corners));
  return evaluated(exec, std::move(result), [&](const auto& faces, const auto& us, const auto& vs) {
    return limit_at_samples(exec, plan, faces, us, vs, P0, approximate);
  });
}

}  // namespace spmesh::schemes::catmull_clark
