// A watertight tessellation of Catmull-Clark's limit surface of a quad mesh at a uniform rate N,
// as OpenSubdiv's Bfr::Tessellation with rate N: each face an (N + 1) x (N + 1) grid of points
// at (i / N, j / N) in its parameterization, N x N quads. A point on a shared edge or corner is
// one point, evaluated once (from the edge's first face, the vertex's first face), so both faces
// hold it bit for bit; the points are limit_at_samples' (exact on regular faces and Stam's).
#pragma once

#include "schemes/catmull_clark/limit_at.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace spmesh::schemes::catmull_clark {

// Where a tessellation's points are (a sample each: face, u, v) and its quads of those points.
struct TessellationSamples {
  std::vector<index_t> faces;
  std::vector<double> u, v;
  linalg::MeshMatrix<> quads;
};

// The samples and quads of quad mesh M at rate N (1 to 1024), made on the host (a map of the
// edges): a point at each of M's vertices first, in vertex order (none for a vertex on no face),
// then N - 1 along each edge in order of first use, then (N - 1)^2 inside each face, face by face.
// limit_at_samples evaluates them on any executor. InputError for a rate out of range or a face
// other than a quad.
inline TessellationSamples tessellation_samples(const linalg::MeshMatrix<>& M, int rate) {
  if (rate < 1 || rate > 1024) throw InputError("tessellation: rate " + std::to_string(rate) + " is not in [1, 1024]");
  if (M.nnz() != 4 * std::int64_t(M.faces))
    throw InputError("tessellation: the mesh has faces other than quads (Bfr's parameterization of their sub-faces "
                     "is not built yet)");
  const int N = rate;
  const double corner_u[4] = {0, 1, 1, 0}, corner_v[4] = {0, 0, 1, 1};
  TessellationSamples out;
  auto sample = [&](index_t face, double u, double v) {
    out.faces.push_back(face), out.u.push_back(u), out.v.push_back(v);
    return index_t(out.faces.size() - 1);
  };
  auto corner = [&](index_t f, int a) { return M.indices[4 * f + a]; };
  // The vertices' points, from the first face at each (face and corner).
  std::vector<index_t> first_face(std::size_t(M.vertices), -1), vertex_point(std::size_t(M.vertices), -1);
  std::vector<int> first_corner(std::size_t(M.vertices), 0);
  for (index_t f = M.faces - 1; f >= 0; --f)
    for (int a = 3; a >= 0; --a) first_face[std::size_t(corner(f, a))] = f, first_corner[std::size_t(corner(f, a))] = a;
  for (index_t vertex = 0; vertex < M.vertices; ++vertex) {
    const auto x = std::size_t(vertex);
    if (first_face[x] >= 0) vertex_point[x] = sample(first_face[x], corner_u[first_corner[x]], corner_v[first_corner[x]]);
  }
  // Each edge's points, from the first face along it, in its direction: edge (p, q) -> the first
  // point's index and the vertex it starts at.
  std::map<std::pair<index_t, index_t>, std::pair<index_t, index_t>> edges;
  for (index_t f = 0; f < M.faces; ++f)
    for (int a = 0; a < 4; ++a) {
      const index_t p = corner(f, a), q = corner(f, (a + 1) % 4);
      const auto [at, fresh] = edges.try_emplace({std::min(p, q), std::max(p, q)}, index_t(out.faces.size()), p);
      if (!fresh) continue;
      const int b = (a + 1) % 4;
      for (int k = 1; k < N; ++k) {
        const double t = double(k) / N;
        sample(f, corner_u[a] + t * (corner_u[b] - corner_u[a]), corner_v[a] + t * (corner_v[b] - corner_v[a]));
      }
    }
  // Each face's grid of point indices, its inner points added, then its quads.
  std::vector<index_t> offsets, indices;
  std::vector<index_t> grid(std::size_t(N + 1) * std::size_t(N + 1));
  auto at = [&](int i, int j) -> index_t& { return grid[std::size_t(j) * std::size_t(N + 1) + std::size_t(i)]; };
  for (index_t f = 0; f < M.faces; ++f) {
    for (int a = 0; a < 4; ++a) {
      const int ci = int(corner_u[a]) * N, cj = int(corner_v[a]) * N;
      at(ci, cj) = vertex_point[std::size_t(corner(f, a))];
      const int b = (a + 1) % 4, di = int(corner_u[b] - corner_u[a]), dj = int(corner_v[b] - corner_v[a]);
      const index_t p = corner(f, a), q = corner(f, b);
      const auto& [first, start] = edges.at({std::min(p, q), std::max(p, q)});
      for (int k = 1; k < N; ++k) at(ci + k * di, cj + k * dj) = first + (start == p ? k : N - k) - 1;
    }
    for (int j = 1; j < N; ++j)
      for (int i = 1; i < N; ++i) at(i, j) = sample(f, double(i) / N, double(j) / N);
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < N; ++i) {
        offsets.push_back(index_t(indices.size()));
        for (const index_t point : {at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)}) indices.push_back(point);
      }
  }
  offsets.push_back(index_t(indices.size()));
  out.quads = linalg::MeshMatrix<>(index_t(out.faces.size()), linalg::Array<index_t>(offsets),
                                   linalg::Array<index_t>(indices));
  return out;
}

}  // namespace spmesh::schemes::catmull_clark
