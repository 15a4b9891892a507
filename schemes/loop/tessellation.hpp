// A watertight tessellation of Loop's limit surface at a uniform rate N, as OpenSubdiv's
// Bfr::Tessellation with rate N: each triangle the (N + 1)(N + 2) / 2 points at (i / N, j / N),
// i + j <= N, in its parameterization, N^2 triangles. A point on a shared edge or corner is one
// point, evaluated once (schemes/tessellation.hpp), so both faces hold it bit for bit; the points
// are limit_at_samples' (exact on box splines and Stam's). The layout is made on the executor, a
// thread a point or a triangle, from the mesh's first half-edge level.
#pragma once

#include "schemes/loop/limit_at.hpp"
#include "schemes/tessellation.hpp"
#include "schemes/triangles.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace spmesh::schemes::loop {

namespace detail {

// The points of a tessellation at rate N of a triangle level: first a point at each vertex on a
// face (`vertex_point`: its number, in vertex order; -1 for a vertex on none), then N - 1 along
// each edge in the level's edge order (from the start of the half-edge it runs along), then
// (N - 1)(N - 2) / 2 inside each face, face by face, row j = 1 .. N - 2 of i = 1 .. N - 1 - j.
struct TrianglePoints {
  TriangleView t;
  const index_t* vertex_point;
  index_t vertex_points;
  int N;

  SPMESH_HD static std::int64_t inner(int N) { return std::int64_t(N - 1) * (N - 2) / 2; }
  SPMESH_HD index_t edge_point(index_t edge, int k) const { return vertex_points + edge * (N - 1) + k - 1; }
  SPMESH_HD index_t inner_point(index_t f, int i, int j) const {
    return vertex_points + t.edges * (N - 1) + f * index_t(inner(N)) + (j - 1) * (N - 1) - (j - 1) * j / 2 + i - 1;
  }
  // The point at place (i, j) of face f (i, j >= 0, i + j <= N).
  SPMESH_HD index_t at(index_t f, int i, int j) const {
    if (i + j == N && (i == N || j == N)) return vertex_point[t.corners[3 * f + (i == N ? 1 : 2)]];
    if (i == 0 && j == 0) return vertex_point[t.corners[3 * f]];
    if (i > 0 && j > 0 && i + j < N) return inner_point(f, i, j);
    // Side a runs from corner a to corner a + 1; k steps from corner a.
    const int a = j == 0 ? 0 : i + j == N ? 1 : 2;
    const int k = a == 0 ? i : a == 1 ? j : N - j;
    const index_t code = t.edge_code[3 * f + a];
    return edge_point(code >> 1, (code & 1) ? N - k : k);
  }
  // The sample (face, u, v) of the point k steps from corner a of face f towards corner a + 1
  // (corners at (0, 0), (1, 0), (0, 1)).
  SPMESH_HD void side_sample(index_t f, index_t a, int k, index_t* face, double* u, double* v, index_t point) const {
    const double from[3][2] = {{0, 0}, {1, 0}, {0, 1}}, s = double(k) / N;
    const int b = int(a + 1) % 3;
    face[point] = f;
    u[point] = from[a][0] + s * (from[b][0] - from[a][0]), v[point] = from[a][1] + s * (from[b][1] - from[a][1]);
  }
};

}  // namespace detail

// How many facets a triangle has in tessellation_samples' layout at rate N, whose facets come
// face by face: N^2.
inline std::int64_t facets_of_face(std::int64_t, int N, bool) { return std::int64_t(N) * N; }

// The samples and triangles of triangle mesh M at rate N (1 to 1024) on the executor, Bfr's
// points and facets in TrianglePoints' order: triangle (i, j) of a face (i + j < N) has places
// (i, j), (i + 1, j), (i, j + 1), and (i + j < N - 1) its neighbour (i + 1, j), (i + 1, j + 1),
// (i, j + 1). limit_at_samples evaluates the samples. InputError for a face that is not a
// triangle, a rate out of range or more points than an index holds.
template <class Exec, class S = typename Exec::space>
TessellationSamples<S> tessellation_samples(Exec& exec, const linalg::MeshMatrix<S>& M, int N) {
  check_rate(N);
  check_triangles(exec, M, Loop::title);
  const index_t V = M.vertices;
  linalg::Array<float, S> no_sharpness(V);
  float* sharpness = no_sharpness.data();
  exec.for_each(V, [=] SPMESH_HD(index_t v) { sharpness[v] = 0; });
  const Sharpness<S> smooth{linalg::Coo<float, S>{V, V, {}, {}, {}}, std::move(no_sharpness)};
  const auto level = triangle_level(exec, schemes::detail::copy_mesh(exec, M), smooth);
  const index_t F = level.faces;
  linalg::Array<index_t, S> vertex_point;
  const index_t vertex_points = schemes::detail::number_vertex_points(exec, level, vertex_point);
  const std::int64_t inner = detail::TrianglePoints::inner(N);
  const std::int64_t points = vertex_points + std::int64_t(level.edges) * (N - 1) + std::int64_t(F) * inner;
  const std::int64_t triangles = std::int64_t(F) * N * N;
  checked_index(3 * triangles, "tessellation triangle corners");
  checked_index(points, "tessellation points");
  const detail::TrianglePoints layout{view(level), vertex_point.data(), vertex_points, N};
  TessellationSamples<S> out{linalg::Array<index_t, S>(index_t(points)), linalg::Array<double, S>(index_t(points)),
                             linalg::Array<double, S>(index_t(points)), {}};
  index_t* face = out.faces.data();
  double *u = out.u.data(), *v = out.v.data();
  // The vertices' and edges' points, then a face's inner points from itself.
  schemes::detail::vertex_and_edge_samples(exec, level, layout, vertex_point.data(), face, u, v);
  exec.for_each(index_t(F * inner), [=] SPMESH_HD(index_t p) {
    const index_t f = p / index_t(inner);
    index_t at = p % index_t(inner);
    int j = 1;
    while (at >= N - 1 - j) at -= N - 1 - j, ++j;  // row j holds N - 1 - j points
    const int i = int(at) + 1;
    const index_t point = layout.inner_point(f, i, j);
    face[point] = f, u[point] = double(i) / N, v[point] = double(j) / N;
  });
  // Face f's triangles, row by row: row j's 2 (N - j) - 1, up and down in turn.
  linalg::Array<index_t, S> offsets(index_t(triangles) + 1), indices(index_t(3 * triangles));
  index_t *starts = offsets.data(), *corners = indices.data();
  exec.for_each(index_t(triangles) + 1, [=] SPMESH_HD(index_t triangle) {
    starts[triangle] = 3 * triangle;
    if (triangle == index_t(N) * N * F) return;
    const index_t f = triangle / (N * N);
    index_t at = triangle % (N * N);
    int j = 0;
    while (at >= 2 * (N - j) - 1) at -= 2 * (N - j) - 1, ++j;
    const int i = int(at / 2);
    index_t* c = corners + 3 * triangle;
    if (at % 2 == 0) c[0] = layout.at(f, i, j), c[1] = layout.at(f, i + 1, j), c[2] = layout.at(f, i, j + 1);
    else c[0] = layout.at(f, i + 1, j), c[1] = layout.at(f, i + 1, j + 1), c[2] = layout.at(f, i, j + 1);
  });
  out.facets = linalg::MeshMatrix<S>(index_t(points), std::move(offsets), std::move(indices));
  return out;
}

// Triangle mesh M (level-0 sharpness C, vertex data P0, 3 columns) tessellated at `rate`: the
// layout above, its points evaluated by limit_at_samples going down at most `depth` levels
// (which refuses, naming the point, one that reaches no patch, unless `approximate`), the
// normals.
template <class Exec, class T, class S = typename Exec::space>
Tessellation<T, S> tessellate(Exec& exec, linalg::MeshMatrix<S> M, Sharpness<S> C, const linalg::Dense<T, S>& P0,
                              int rate, int depth, Options options = {}, bool approximate = false) {
  check_tessellated_data(P0);
  auto layout = tessellation_samples(exec, M, rate);
  return evaluated(exec, std::move(layout), [&](const auto& faces, const auto& u, const auto& v) {
    return limit_at_samples(exec, std::move(M), std::move(C), faces, u, v, P0, depth, options, approximate);
  });
}

}  // namespace spmesh::schemes::loop
