// What every scheme's tessellation shares (catmull_clark/tessellation.hpp, loop/
// tessellation.hpp): the samples and facets a layout gives, a point at each vertex and N - 1
// along each edge sampled once from one face at it (so faces that share the point hold it bit for
// bit), and the points evaluated with their unit normals.
#pragma once

#include "linalg/mesh_matrix.hpp"
#include "schemes/limit.hpp"

#include <string>
#include <type_traits>
#include <utility>

namespace spmesh::schemes {

// Where a tessellation's points are (a sample each: face, u, v) and its facets of those points
// (Catmull-Clark's quads, and at an odd rate an n-gon's fan of triangles; Loop's triangles).
template <class S = linalg::Host>
struct TessellationSamples {
  linalg::Array<index_t, S> faces;
  linalg::Array<double, S> u, v;
  linalg::MeshMatrix<S> facets;
};

// A tessellation's points, their unit normals (du x dv; zero where the derivatives are parallel
// or zero) and facets (tessellation_samples'), in the executor's memory.
template <class T, class S = linalg::Host>
struct Tessellation {
  linalg::Dense<T, S> position, normal;
  linalg::MeshMatrix<S> facets;
  index_t approximated = 0;  // points approximated (limit_at_samples)
};

// InputError for a rate out of [1, 1024].
inline void check_rate(int rate) {
  if (rate < 1 || rate > 1024) throw InputError("tessellation: rate " + std::to_string(rate) + " is not in [1, 1024]");
}
// DimensionError unless P0 has 3 columns (positions, whose normals are made).
template <class T, class S>
void check_tessellated_data(const linalg::Dense<T, S>& P0) {
  if (P0.cols != 3) throw DimensionError("tessellate: " + std::to_string(P0.cols) + " columns of vertex data, not 3");
}

// A layout's points evaluated by `limits(faces, u, v)` (a scheme's limit_at_samples), with the
// unit normals of their derivatives.
template <class Exec, class S, class Limits>
auto evaluated(Exec& exec, TessellationSamples<S> layout, Limits&& limits) {
  auto at = limits(layout.faces, layout.u, layout.v);
  auto normal = unit_normals(exec, at.du, at.dv);
  using T = std::remove_cvref_t<decltype(*at.position.data.data())>;
  return Tessellation<T, S>{std::move(at.position), std::move(normal), std::move(layout.facets), at.approximated};
}

namespace detail {

// The vertices' points of a level: those on a face numbered in vertex order into `numbers` (-1
// for a vertex on none); returns how many.
template <class Exec, class Level, class S = typename Exec::space>
index_t number_vertex_points(Exec& exec, const Level& level, linalg::Array<index_t, S>& numbers) {
  const index_t V = level.vertices;
  numbers = linalg::Array<index_t, S>(V);
  index_t* number = numbers.data();
  const index_t* vertex_edge = level.vertex_edge.data();
  exec.for_each(V, [=] SPMESH_HD(index_t v) { number[v] = vertex_edge[v] >= 0 ? 1 : 0; });
  const index_t count = exec.exclusive_scan(number, number, V);
  exec.for_each(V, [=] SPMESH_HD(index_t v) { number[v] = vertex_edge[v] >= 0 ? number[v] : -1; });
  return count;
}

// The samples of a layout's vertex and edge points (its side_sample and edge_point): a
// vertex's point from the face of its outgoing half-edge; an edge's from the face of the
// half-edge it runs along, in that half-edge's direction (the other face reads them backwards).
template <class Exec, class Level, class Layout>
void vertex_and_edge_samples(Exec& exec, const Level& level, const Layout& layout, const index_t* numbers, index_t* face,
                             double* u, double* v) {
  const auto faces = view(level);
  const index_t *vertex_edge = level.vertex_edge.data(), *edge_code = level.edge_code.data();
  const int N = layout.N;
  exec.for_each(level.vertices, [=] SPMESH_HD(index_t vertex) {
    const index_t h = vertex_edge[vertex];
    if (h < 0) return;
    const index_t f = faces.face(h);
    layout.side_sample(f, h - faces.begin(f), 0, face, u, v, numbers[vertex]);
  });
  exec.for_each(level.edge_code.size(), [=] SPMESH_HD(index_t h) {
    if (edge_code[h] & 1) return;
    const index_t f = faces.face(h);
    for (int k = 1; k < N; ++k) layout.side_sample(f, h - faces.begin(f), k, face, u, v, layout.edge_point(edge_code[h] >> 1, k));
  });
}

}  // namespace detail

}  // namespace spmesh::schemes
