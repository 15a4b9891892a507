// A watertight tessellation of Catmull-Clark's limit surface at a uniform rate N, as OpenSubdiv's
// Bfr::Tessellation with rate N: each quad an (N + 1) x (N + 1) grid of points at (i / N, j / N)
// in its parameterization, N x N quads; each other polygon its sub-faces' grids at rate N / 2,
// which are its level-1 children's (N even), or (N odd) Bfr's ring: each sub-face's grid at (a /
// N, b / N), quads joining neighbouring sub-faces and a fan of triangles round the centre (one
// triangle in a triangle). A point on a shared edge or corner is one point, evaluated once (from
// the face of the vertex's outgoing half-edge, from the face of the half-edge the edge runs
// along), so both faces hold it bit for bit; the points are limit_at_samples' (exact on regular
// faces, crease patches and Stam's). At an even rate a point on the line between two sub-faces
// carries the parameters of the child it is evaluated from, which may be the other sub-face than
// Bfr's: the same point. The layout is made on the executor, a thread a point, a quad or a face,
// from the mesh's first half-edge level (or level 1 of a polygon mesh at an even rate).
#pragma once

#include "schemes/catmull_clark/limit_at.hpp"
#include "schemes/catmull_clark/parameterization.hpp"
#include "schemes/catmull_clark/quad_build.hpp"
#include "schemes/tessellation.hpp"

#include <string>
#include <utility>

namespace spmesh::schemes::catmull_clark {

using schemes::Tessellation;
using schemes::TessellationSamples;

namespace detail {

// The points of a tessellation at rate N of a quad level: first a point at each vertex on a
// face (`vertex_point`: its number, in vertex order; -1 for a vertex on none), then N - 1 along
// each edge in the level's edge order (from the start of the half-edge it runs along), then
// (N - 1)^2 inside each face, face by face, row by row.
struct TessellationPoints {
  QuadView q;
  const index_t* vertex_point;
  index_t vertex_points;
  int N;

  // Corner a's parameters: (0, 0), (1, 0), (1, 1), (0, 1).
  SPMESH_HD static double corner_u(int a) { return a == 1 || a == 2 ? 1 : 0; }
  SPMESH_HD static double corner_v(int a) { return a >= 2 ? 1 : 0; }

  SPMESH_HD index_t edge_point(index_t edge, int k) const { return vertex_points + edge * (N - 1) + k - 1; }
  SPMESH_HD index_t inner_point(index_t f, int i, int j) const {
    return vertex_points + q.edges * (N - 1) + f * (N - 1) * (N - 1) + (j - 1) * (N - 1) + i - 1;
  }
  // The point at grid place (i, j) of face f (0 <= i, j <= N).
  SPMESH_HD index_t at(index_t f, int i, int j) const {
    if ((i == 0 || i == N) && (j == 0 || j == N)) {
      const int a = j == 0 ? (i == 0 ? 0 : 1) : (i == N ? 2 : 3);
      return vertex_point[q.corners[4 * f + a]];
    }
    if (i > 0 && i < N && j > 0 && j < N) return inner_point(f, i, j);
    // Side a runs from corner a to corner a + 1; k steps from corner a.
    const int a = j == 0 ? 0 : i == N ? 1 : j == N ? 2 : 3;
    const int k = a == 0 ? i : a == 1 ? j : a == 2 ? N - i : N - j;
    const index_t code = q.edge_code[4 * f + a];
    return edge_point(code >> 1, (code & 1) ? N - k : k);
  }
  // (u, v) of the point k steps from corner a of a quad towards corner a + 1, at rate N.
  SPMESH_HD static void side_parameter(int a, int k, int N, double& u, double& v) {
    const int b = (a + 1) & 3;
    const double t = double(k) / N;
    u = corner_u(a) + t * (corner_u(b) - corner_u(a)), v = corner_v(a) + t * (corner_v(b) - corner_v(a));
  }
  // The sample (face, u, v) of the point k steps from corner a of face f towards corner a + 1.
  SPMESH_HD void side_sample(index_t f, index_t a, int k, index_t* face, double* u, double* v, index_t point) const {
    face[point] = f;
    side_parameter(int(a), k, N, u[point], v[point]);
  }
};

// The samples and quads at rate N of a quad level, on its own faces (TessellationPoints' order).
template <class Exec, class S = typename Exec::space>
TessellationSamples<S> quad_tessellation(Exec& exec, const QuadLevel<S>& level, int N) {
  const index_t F = level.faces;
  linalg::Array<index_t, S> vertex_point;
  const index_t vertex_points = schemes::detail::number_vertex_points(exec, level, vertex_point);
  const index_t* numbers = vertex_point.data();
  const std::int64_t inner = std::int64_t(N - 1) * (N - 1), points = vertex_points + std::int64_t(level.edges) * (N - 1) +
                                                                         std::int64_t(F) * inner;
  const std::int64_t quads = std::int64_t(F) * N * N;
  checked_index(4 * quads, "tessellation quad corners");
  checked_index(points, "tessellation points");
  const detail::TessellationPoints layout{view(level), numbers, vertex_points, N};
  TessellationSamples<S> out{linalg::Array<index_t, S>(index_t(points)), linalg::Array<double, S>(index_t(points)),
                             linalg::Array<double, S>(index_t(points)), {}};
  index_t* face = out.faces.data();
  double *u = out.u.data(), *v = out.v.data();
  // The vertices' and edges' points, then a face's inner points from itself.
  schemes::detail::vertex_and_edge_samples(exec, level, layout, numbers, face, u, v);
  exec.for_each(index_t(F * inner), [=] SPMESH_HD(index_t p) {
    const index_t f = p / index_t(inner), at = p % index_t(inner);
    const int i = int(at % (N - 1)) + 1, j = int(at / (N - 1)) + 1;
    const index_t point = layout.inner_point(f, i, j);
    face[point] = f, u[point] = double(i) / N, v[point] = double(j) / N;
  });
  // Quad (i, j) of face f: grid places (i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1).
  linalg::Array<index_t, S> offsets(index_t(quads) + 1), indices(index_t(4 * quads));
  index_t *starts = offsets.data(), *corners = indices.data();
  exec.for_each(index_t(quads) + 1, [=] SPMESH_HD(index_t quad) {
    starts[quad] = 4 * quad;
    if (quad == index_t(N) * N * F) return;
    const index_t f = quad / (N * N), at = quad % (N * N);
    const int i = int(at % N), j = int(at / N);
    corners[4 * quad] = layout.at(f, i, j), corners[4 * quad + 1] = layout.at(f, i + 1, j);
    corners[4 * quad + 2] = layout.at(f, i + 1, j + 1), corners[4 * quad + 3] = layout.at(f, i, j + 1);
  });
  out.facets = linalg::MeshMatrix<S>(index_t(points), std::move(offsets), std::move(indices));
  return out;
}

// A tessellation at an odd rate N = 2k + 1 of a polygon level, as Bfr lays one out: a quad an
// (N + 1) x (N + 1) grid; a face of n != 4 sides, on each sub-face s, the (k + 1) x (k + 1) grid
// at (a / N, b / N) from its tile's corner (so no point lies on the lines between sub-faces), k x
// k quads in it, k quads joining its last column to the next sub-face's last row, and a triangle
// from their last points to the face's centre (a triangle's three last points are one triangle,
// and it has no centre point). The points: a point at each vertex on a face (as
// TessellationPoints), N - 1 along each edge, then each face's inner points from
// `inner_first[f]`: a quad's (N - 1)^2, row by row; an n-gon's k^2 a sub-face, then its centre.
struct OddPolygonPoints {
  PolygonView p;
  const index_t *vertex_point, *inner_first;
  index_t vertex_points;
  int N;

  // Per face of n sides: the triangles round its centre (a triangle's one), inner points, facets
  // and their corners (64-bit: a face of many sides at a high rate passes 2^31 on its own).
  SPMESH_HD static std::int64_t fan(std::int64_t n) { return n == 3 ? 1 : n; }
  SPMESH_HD static std::int64_t inner_points(std::int64_t n, int N) {
    const std::int64_t k = N / 2;
    return n == 4 ? std::int64_t(N - 1) * (N - 1) : n * k * k + (n == 3 ? 0 : 1);
  }
  SPMESH_HD static std::int64_t facets(std::int64_t n, int N) {
    const std::int64_t k = N / 2;
    return n == 4 ? std::int64_t(N) * N : n * (k * k + k) + fan(n);
  }
  SPMESH_HD static std::int64_t facet_corners(std::int64_t n, int N) {
    const std::int64_t k = N / 2;
    return n == 4 ? 4 * std::int64_t(N) * N : 4 * n * (k * k + k) + 3 * fan(n);
  }
  SPMESH_HD index_t edge_point(index_t edge, int m) const { return vertex_points + edge * (N - 1) + m - 1; }
  // The point m steps (0 to N) along side a of face f, from corner a towards corner a + 1.
  SPMESH_HD index_t side_point(index_t f, index_t a, int m) const {
    const index_t first = p.begin(f), n = p.size(f);
    if (m == 0) return vertex_point[p.corners[first + a]];
    if (m == N) return vertex_point[p.corners[first + (a + 1) % n]];
    const index_t code = p.edge_code[first + a];
    return edge_point(code >> 1, (code & 1) ? N - m : m);
  }
  // Grid place (i, j) of quad f (0 <= i, j <= N).
  SPMESH_HD index_t quad_point(index_t f, int i, int j) const {
    if (j == 0) return side_point(f, 0, i);
    if (i == N) return side_point(f, 1, j);
    if (j == N) return side_point(f, 2, N - i);
    if (i == 0) return side_point(f, 3, N - j);
    return inner_first[f] + (j - 1) * (N - 1) + i - 1;
  }
  // Grid place (a, b) of sub-face s of n-gon f (0 <= a, b <= k): along side s where b = 0, along
  // side s - 1 (towards corner s) where a = 0.
  SPMESH_HD index_t sub_face_point(index_t f, index_t s, int a, int b) const {
    const int k = N / 2;
    if (b == 0) return side_point(f, s, a);
    if (a == 0) return side_point(f, (s + p.size(f) - 1) % p.size(f), N - b);
    return inner_first[f] + s * k * k + (b - 1) * k + a - 1;
  }
  SPMESH_HD index_t centre(index_t f) const { return inner_first[f] + p.size(f) * (N / 2) * (N / 2); }

  // The sample (face, u, v) of the point m steps along side a of face f.
  SPMESH_HD void side_sample(index_t f, index_t a, int m, index_t* face, double* u, double* v, index_t point) const {
    const index_t n = p.size(f);
    face[point] = f;
    if (n == 4) {
      TessellationPoints::side_parameter(int(a), m, N, u[point], v[point]);
      return;
    }
    // The first half in sub-face a, along its x; the rest in sub-face a + 1, along its y
    // (parameterization.hpp's child coordinates: twice the steps' m / N).
    if (m <= N / 2) face_parameter(a, n, 2.0 * m / N, 0, u[point], v[point]);
    else face_parameter((a + 1) % n, n, 0, 2.0 * (N - m) / N, u[point], v[point]);
  }
  // Face f's inner points' samples.
  SPMESH_HD void inner_samples(index_t f, index_t* face, double* u, double* v) const {
    const index_t n = p.size(f), first = inner_first[f];
    const int k = N / 2;
    if (n == 4) {
      for (int j = 1; j < N; ++j)
        for (int i = 1; i < N; ++i) {
          const index_t point = first + (j - 1) * (N - 1) + i - 1;
          face[point] = f, u[point] = double(i) / N, v[point] = double(j) / N;
        }
      return;
    }
    for (index_t s = 0; s < n; ++s)
      for (int b = 1; b <= k; ++b)
        for (int a = 1; a <= k; ++a) {
          const index_t point = first + s * k * k + (b - 1) * k + a - 1;
          face[point] = f;
          face_parameter(s, n, 2.0 * a / N, 2.0 * b / N, u[point], v[point]);
        }
    if (n != 3) {  // Bfr's centre: sub-face 0's far corner
      face[centre(f)] = f;
      face_parameter(0, n, 1, 1, u[centre(f)], v[centre(f)]);
    }
  }
  // Face f's facets from facet `facet` and corner `corner` on: starts[facet...] and their corners.
  SPMESH_HD void facets_of(index_t f, index_t facet, index_t corner, index_t* starts, index_t* corners) const {
    auto put = [&](index_t a, index_t b, index_t c, index_t d) {
      starts[facet++] = corner;
      corners[corner++] = a, corners[corner++] = b, corners[corner++] = c;
      if (d >= 0) corners[corner++] = d;
    };
    const index_t n = p.size(f);
    if (n == 4) {
      for (int j = 0; j < N; ++j)
        for (int i = 0; i < N; ++i)
          put(quad_point(f, i, j), quad_point(f, i + 1, j), quad_point(f, i + 1, j + 1), quad_point(f, i, j + 1));
      return;
    }
    const int k = N / 2;
    for (index_t s = 0; s < n; ++s) {
      const index_t next = (s + 1) % n;
      for (int b = 0; b < k; ++b)
        for (int a = 0; a < k; ++a)
          put(sub_face_point(f, s, a, b), sub_face_point(f, s, a + 1, b), sub_face_point(f, s, a + 1, b + 1),
              sub_face_point(f, s, a, b + 1));
      // Across the line to the next sub-face: its (j, k) faces this one's (k, j).
      for (int j = 0; j < k; ++j)
        put(sub_face_point(f, s, k, j), sub_face_point(f, next, j, k), sub_face_point(f, next, j + 1, k),
            sub_face_point(f, s, k, j + 1));
      if (n != 3) put(sub_face_point(f, s, k, k), sub_face_point(f, next, k, k), centre(f), -1);
    }
    if (n == 3) put(sub_face_point(f, 0, k, k), sub_face_point(f, 1, k, k), sub_face_point(f, 2, k, k), -1);
  }
};

// The samples and facets (quads, and the polygons' triangles) at odd rate N of a polygon level.
template <class Exec, class S = typename Exec::space>
TessellationSamples<S> odd_polygon_tessellation(Exec& exec, const PolygonLevel<S>& level, int N) {
  const index_t F = level.faces;
  linalg::Array<index_t, S> vertex_point;
  const index_t vertex_points = schemes::detail::number_vertex_points(exec, level, vertex_point);
  const PolygonView polygons = view(level);
  // Per face: its inner points, facets and facet corners, scanned into where each starts.
  linalg::Array<std::int64_t, S> inner(F + 1), facets(F + 1), corners(F + 1);
  std::int64_t *inner_of = inner.data(), *facets_of = facets.data(), *corners_of = corners.data();
  exec.for_each(F + 1, [=] SPMESH_HD(index_t f) {
    if (f == F) {
      inner_of[f] = facets_of[f] = corners_of[f] = 0;
      return;
    }
    const index_t n = polygons.size(f);
    inner_of[f] = OddPolygonPoints::inner_points(n, N), facets_of[f] = OddPolygonPoints::facets(n, N);
    corners_of[f] = OddPolygonPoints::facet_corners(n, N);
  });
  const std::int64_t edge_points = std::int64_t(level.edges) * (N - 1);
  const std::int64_t points = vertex_points + edge_points + exec.exclusive_scan(inner_of, inner_of, F + 1);
  const std::int64_t facet_count = exec.exclusive_scan(facets_of, facets_of, F + 1);
  const std::int64_t corner_count = exec.exclusive_scan(corners_of, corners_of, F + 1);
  checked_index(points, "tessellation points");
  checked_index(facet_count + 1, "tessellation facets");
  checked_index(corner_count, "tessellation facet corners");
  linalg::Array<index_t, S> inner_first(F);
  index_t* first = inner_first.data();
  const index_t before_inner = index_t(vertex_points + edge_points);
  exec.for_each(F, [=] SPMESH_HD(index_t f) { first[f] = before_inner + index_t(inner_of[f]); });
  const OddPolygonPoints layout{polygons, vertex_point.data(), first, vertex_points, N};
  TessellationSamples<S> out{linalg::Array<index_t, S>(index_t(points)), linalg::Array<double, S>(index_t(points)),
                             linalg::Array<double, S>(index_t(points)), {}};
  index_t* face = out.faces.data();
  double *u = out.u.data(), *v = out.v.data();
  // The vertices' and edges' points, then a face's inner points from itself.
  schemes::detail::vertex_and_edge_samples(exec, level, layout, vertex_point.data(), face, u, v);
  exec.for_each(F, [=] SPMESH_HD(index_t f) { layout.inner_samples(f, face, u, v); });
  linalg::Array<index_t, S> offsets(index_t(facet_count) + 1), indices(static_cast<index_t>(corner_count));
  index_t *starts = offsets.data(), *facet_corners = indices.data();
  exec.for_each(F + 1, [=] SPMESH_HD(index_t f) {
    if (f == F) starts[facets_of[F]] = index_t(corners_of[F]);
    else layout.facets_of(f, index_t(facets_of[f]), index_t(corners_of[f]), starts, facet_corners);
  });
  out.facets = linalg::MeshMatrix<S>(index_t(points), std::move(offsets), std::move(indices));
  return out;
}

// A sample on a level-1 child moved to its base face's parameters (parameterization.hpp).
struct ToBaseFace {
  PolygonView base;
  index_t* face;
  double *u, *v;
  SPMESH_HD void operator()(index_t s) const {
    const index_t child = face[s], f = base.face(child);
    face_parameter(child - base.begin(f), base.size(f), u[s], v[s], u[s], v[s]);
    face[s] = f;
  }
};

}  // namespace detail

// How many facets face f of n sides has in tessellation_samples' layout at rate N, whose facets
// come face by face: N^2 in a quad mesh, N^2 / 4 a sub-face of a polygon mesh at an even rate
// (its level-1 quads), OddPolygonPoints' at an odd one.
SPMESH_HD inline std::int64_t facets_of_face(std::int64_t n, int N, bool polygons) {
  if (!polygons) return std::int64_t(N) * N;
  return N % 2 ? detail::OddPolygonPoints::facets(n, N) : n * std::int64_t(N / 2) * (N / 2);
}

// The samples and facets of mesh M at rate N (1 to 1024) on the executor, Bfr's points and
// facets in another order. A quad mesh in TessellationPoints' order; another polygon mesh at an
// even rate as its level-1 quads at rate N / 2 (N segments along each edge, N^2 / 4 quads a
// sub-face), the samples moved to the base faces' parameters; at an odd rate in
// OddPolygonPoints' order (an n-gon's facets include n triangles). limit_at_samples evaluates the
// samples. InputError for a rate out of range or more points than an index holds.
template <class Exec, class S = typename Exec::space>
TessellationSamples<S> tessellation_samples(Exec& exec, const linalg::MeshMatrix<S>& M, int rate) {
  check_rate(rate);
  const index_t V = M.vertices;
  linalg::Array<float, S> no_sharpness(V);
  float* sharpness = no_sharpness.data();
  exec.for_each(V, [=] SPMESH_HD(index_t v) { sharpness[v] = 0; });
  const Sharpness<S> smooth{linalg::Coo<float, S>{V, V, {}, {}, {}}, std::move(no_sharpness)};
  if (!linalg::has_faces_other_than(exec, M, 4))
    return detail::quad_tessellation(exec, std::get<QuadLevel<S>>(first_level(exec, schemes::detail::copy_mesh(exec, M), smooth)),
                                     rate);
  if (rate % 2)
    return detail::odd_polygon_tessellation(
        exec, std::get<PolygonLevel<S>>(first_level(exec, schemes::detail::copy_mesh(exec, M), smooth)), rate);
  // Level 1 with its topology (the build's, which refines what the rules of level 0 say).
  Plan<S> plan;
  std::optional<AnyLevel<S>> level1;
  std::optional<SharpTable<S>> table;
  schemes::detail::KeepLevelsAndLast<Exec, Plan<S>, AnyLevel<S>> sink{{plan}, exec, level1, table};
  schemes::detail::build_half_edges<CatmullClark>(exec, schemes::detail::copy_mesh(exec, M), smooth, 1, Options{}, sink);
  auto out = detail::quad_tessellation(exec, std::get<QuadLevel<S>>(*level1), rate / 2);
  exec.for_each(out.faces.size(), detail::ToBaseFace{view(std::get<PolygonLevel<S>>(plan.levels[0])), out.faces.data(),
                                                     out.u.data(), out.v.data()});
  return out;
}

// Mesh M (level-0 sharpness C, vertex data P0, k = 3 columns) tessellated at `rate`: the
// layout above, its points evaluated by limit_at_samples going down at most `depth` levels
// (which refuses, naming the point, one that reaches no patch nor Stam's quad, unless
// `approximate`), the normals.
template <class Exec, class T, class S = typename Exec::space>
Tessellation<T, S> tessellate(Exec& exec, linalg::MeshMatrix<S> M, Sharpness<S> C, const linalg::Dense<T, S>& P0,
                              int rate, int depth, Options options = {}, bool approximate = false) {
  check_tessellated_data(P0);
  auto layout = tessellation_samples(exec, M, rate);
  return evaluated(exec, std::move(layout), [&](const auto& faces, const auto& u, const auto& v) {
    return limit_at_samples(exec, std::move(M), std::move(C), faces, u, v, P0, depth, options, approximate);
  });
}

}  // namespace spmesh::schemes::catmull_clark
