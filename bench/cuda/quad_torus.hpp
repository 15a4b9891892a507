// A periodic quad grid (a torus of n x n quads) for the GPU benchmarks: its reduced mesh
// matrix and a Catmull-Clark-like refinement matrix with the regular-grid stencils.
#pragma once

#include "linalg/convert.hpp"
#include "linalg/cpu/executor.hpp"

#include <vector>

namespace spmesh::bench {

// Quad (i, j) = v(i,j), v(i+1,j), v(i+1,j+1), v(i,j+1) with periodic wrap; V = F = n^2.
inline linalg::ReducedMeshMatrix<> quad_torus(index_t n) {
  auto v = [n](index_t i, index_t j) { return ((i + n) % n) * n + (j + n) % n; };
  linalg::Array<index_t> faces(4 * n * n);
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j) {
      index_t* f = faces.data() + 4 * (i * n + j);
      f[0] = v(i, j), f[1] = v(i + 1, j), f[2] = v(i + 1, j + 1), f[3] = v(i, j + 1);
    }
  return linalg::ReducedMeshMatrix<>(n * n, 4, std::move(faces));
}

// Catmull-Clark-like R, 4V x V: vertex points (9 non-zeros: 9/16, 3/32 x 4, 1/64 x 4), edge
// points (6: 3/8 x 2, 1/16 x 4; horizontal then vertical edges), face points (4: 1/4 x 4).
// 6.25 non-zeros per row, the regular-grid Catmull-Clark stencils.
inline linalg::Csr<float> catmull_clark_like(cpu::Executor& exec, index_t n) {
  auto v = [n](index_t i, index_t j) { return ((i + n) % n + n) % n * n + ((j + n) % n + n) % n; };
  const index_t V = n * n;
  std::vector<index_t> rows, cols;
  std::vector<float> vals;
  auto add = [&](index_t r, index_t c, float w) { rows.push_back(r), cols.push_back(c), vals.push_back(w); };
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j) {
      const index_t p = i * n + j;
      add(p, v(i, j), 9.f / 16);
      for (auto [di, dj] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) add(p, v(i + di, j + dj), 3.f / 32);
      for (auto [di, dj] : {std::pair{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}) add(p, v(i + di, j + dj), 1.f / 64);
      // Edge (i,j)-(i+1,j) between quads (i, j-1) and (i, j).
      add(V + p, v(i, j), 3.f / 8), add(V + p, v(i + 1, j), 3.f / 8);
      for (auto [di, dj] : {std::pair{0, -1}, {1, -1}, {0, 1}, {1, 1}}) add(V + p, v(i + di, j + dj), 1.f / 16);
      // Edge (i,j)-(i,j+1) between quads (i-1, j) and (i, j).
      add(2 * V + p, v(i, j), 3.f / 8), add(2 * V + p, v(i, j + 1), 3.f / 8);
      for (auto [di, dj] : {std::pair{-1, 0}, {-1, 1}, {1, 0}, {1, 1}}) add(2 * V + p, v(i + di, j + dj), 1.f / 16);
      // Face (i, j).
      for (auto [di, dj] : {std::pair{0, 0}, {1, 0}, {1, 1}, {0, 1}}) add(3 * V + p, v(i + di, j + dj), 0.25f);
    }
  linalg::Coo<float> coo{4 * V, V, linalg::Array<index_t>(rows), linalg::Array<index_t>(cols),
                         linalg::Array<float>(vals)};
  return linalg::to_csr(exec, coo);
}

}  // namespace spmesh::bench
