// A watertight tessellation of Catmull-Clark's limit surface at a uniform rate N, as OpenSubdiv's
// Bfr::Tessellation with rate N: each quad an (N + 1) x (N + 1) grid of points at (i / N, j / N)
// in its parameterization, N x N quads; each other polygon (N even) its sub-faces' grids at rate
// N / 2, which are its level-1 children's. A point on a shared edge or corner is one point,
// evaluated once (from the face of the vertex's outgoing half-edge, from the face of the
// half-edge the edge runs along), so both faces hold it bit for bit; the points are
// limit_at_samples' (exact on regular faces and Stam's). The layout is made on the executor, a
// thread a point or a quad, from the mesh's first half-edge level (or level 1 of a polygon mesh).
#pragma once

#include "schemes/catmull_clark/limit_at.hpp"
#include "schemes/catmull_clark/parameterization.hpp"
#include "schemes/catmull_clark/quad_build.hpp"

#include <string>
#include <utility>

namespace spmesh::schemes::catmull_clark {

// Where a tessellation's points are (a sample each: face, u, v) and its quads of those points.
template <class S = linalg::Host>
struct TessellationSamples {
  linalg::Array<index_t, S> faces;
  linalg::Array<double, S> u, v;
  linalg::MeshMatrix<S> quads;
};

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
  // The sample (face, u, v) of the point k steps from corner a of face f towards corner a + 1.
  SPMESH_HD void side_sample(index_t f, int a, int k, index_t* face, double* u, double* v, index_t point) const {
    const int b = (a + 1) & 3;
    const double t = double(k) / N;
    face[point] = f, u[point] = corner_u(a) + t * (corner_u(b) - corner_u(a)),
    v[point] = corner_v(a) + t * (corner_v(b) - corner_v(a));
  }
};

// The samples and quads at rate N of a quad level, on its own faces (TessellationPoints' order).
template <class Exec, class S = typename Exec::space>
TessellationSamples<S> quad_tessellation(Exec& exec, const QuadLevel<S>& level, int N) {
  const index_t V = level.vertices, F = level.faces;
  // The vertices' points: those on a face, numbered in vertex order.
  linalg::Array<index_t, S> vertex_point(V);
  index_t* numbers = vertex_point.data();
  const index_t* vertex_edge = level.vertex_edge.data();
  exec.for_each(V, [=] SPMESH_HD(index_t v) { numbers[v] = vertex_edge[v] >= 0 ? 1 : 0; });
  const index_t vertex_points = exec.exclusive_scan(numbers, numbers, V);
  exec.for_each(V, [=] SPMESH_HD(index_t v) { numbers[v] = vertex_edge[v] >= 0 ? numbers[v] : -1; });
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
  // A vertex's point from the face of its outgoing half-edge; an edge's from the face of the
  // half-edge it runs along, in that half-edge's direction; a face's inner points from itself.
  exec.for_each(V, [=] SPMESH_HD(index_t vertex) {
    const index_t h = vertex_edge[vertex];
    if (h >= 0) layout.side_sample(h >> 2, int(h & 3), 0, face, u, v, numbers[vertex]);
  });
  const index_t* edge_code = level.edge_code.data();
  exec.for_each(4 * F, [=] SPMESH_HD(index_t h) {
    if (edge_code[h] & 1) return;
    for (int k = 1; k < N; ++k) layout.side_sample(h >> 2, int(h & 3), k, face, u, v, layout.edge_point(edge_code[h] >> 1, k));
  });
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
  out.quads = linalg::MeshMatrix<S>(index_t(points), std::move(offsets), std::move(indices));
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

// The samples and quads of mesh M at rate N (1 to 1024) on the executor. A quad mesh in
// TessellationPoints' order; another polygon mesh (even N only) as its level-1 quads at rate N /
// 2 (Bfr's layout for such faces: N segments along each edge, N^2 / 4 quads a sub-face), the
// samples moved to the base faces' parameters. limit_at_samples evaluates them. InputError for a
// rate out of range, an odd rate on a polygon mesh, or more points than an index holds.
template <class Exec, class S = typename Exec::space>
TessellationSamples<S> tessellation_samples(Exec& exec, const linalg::MeshMatrix<S>& M, int rate) {
  if (rate < 1 || rate > 1024) throw InputError("tessellation: rate " + std::to_string(rate) + " is not in [1, 1024]");
  const index_t V = M.vertices;
  linalg::Array<float, S> no_sharpness(V);
  float* sharpness = no_sharpness.data();
  exec.for_each(V, [=] SPMESH_HD(index_t v) { sharpness[v] = 0; });
  const Sharpness<S> smooth{linalg::Coo<float, S>{V, V, {}, {}, {}}, std::move(no_sharpness)};
  if (M.nnz() == 4 * std::int64_t(M.faces))
    return detail::quad_tessellation(exec, std::get<QuadLevel<S>>(first_level(exec, schemes::detail::copy_mesh(exec, M), smooth)),
                                     rate);
  if (rate % 2)
    throw InputError("tessellation: rate " + std::to_string(rate) + " is odd and the mesh has faces other than quads, "
                     "whose sub-faces take half the rate each; give an even rate (Bfr's layout at odd rates, a ring "
                     "of quads around a fan of triangles, is not built)");
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

// A tessellation's points, their unit normals (du x dv; zero where the derivatives are parallel
// or zero) and quads, in the executor's memory.
template <class T, class S = linalg::Host>
struct Tessellation {
  linalg::Dense<T, S> position, normal;
  linalg::MeshMatrix<S> quads;
  index_t approximated = 0;  // points approximated (limit_at_samples)
};

// Mesh M (level-0 sharpness C, vertex data P0, k = 3 columns) tessellated at `rate`: the
// layout above, its points evaluated by limit_at_samples going down at most `depth` levels
// (which refuses, naming the point, one that reaches no patch nor Stam's quad, unless
// `approximate`), the normals.
template <class Exec, class T, class S = typename Exec::space>
Tessellation<T, S> tessellate(Exec& exec, linalg::MeshMatrix<S> M, Sharpness<S> C, const linalg::Dense<T, S>& P0,
                              int rate, int depth, Options options = {}, bool approximate = false) {
  if (P0.cols != 3) throw DimensionError("tessellate: " + std::to_string(P0.cols) + " columns of vertex data, not 3");
  auto layout = tessellation_samples(exec, M, rate);
  auto limits = limit_at_samples(exec, std::move(M), std::move(C), layout.faces, layout.u, layout.v, P0, depth, options,
                                 approximate);
  auto normal = unit_normals(exec, limits.du, limits.dv);
  return {std::move(limits.position), std::move(normal), std::move(layout.quads), limits.approximated};
}

}  // namespace spmesh::schemes::catmull_clark
