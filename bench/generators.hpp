// Deterministic mesh-like benchmark inputs: a closed triangle mesh on a torus with a seeded
// sprinkle of irregular vertices, its mesh matrix, a Loop-like refinement matrix and the
// Loop vertex stencil built from it, and randomly permuted copies.
#pragma once

#include "linalg/linalg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace spmesh::bench {

// splitmix64: a fixed, portable generator (std::shuffle and the std distributions are not
// specified bit for bit, so they would make the inputs differ between standard libraries).
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) up to a modulo bias below n / 2^64.
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

// An n x n periodic vertex grid (a torus, so no boundary). Every cell is split into two
// triangles along its main diagonal, except a seeded fraction that is split along the other
// one: each such flip moves two vertices to valence 5 and two to valence 7 (4 or 8 where
// flips touch), so the mesh has extraordinary vertices as real meshes do.
struct TorusMesh {
  index_t n = 0;
  index_t vertices = 0;            // n * n
  std::vector<index_t> triangles;  // 3 per face, 2 faces per cell, consistently oriented
  // Edges, 3 per cell (top, left, diagonal): endpoints and the two opposite vertices.
  std::vector<index_t> edge_a, edge_b, edge_left, edge_right;
  std::vector<index_t> valence;  // per vertex
  index_t flipped_cells = 0;
  index_t irregular_vertices = 0;  // valence != 6

  index_t faces() const { return static_cast<index_t>(triangles.size() / 3); }
  index_t edges() const { return static_cast<index_t>(edge_a.size()); }
};

TorusMesh make_torus(index_t n, double flip_fraction, std::uint64_t seed);

// The mesh matrix M (vertices x faces) of an all-triangle mesh: the face table.
linalg::ReducedMeshMatrix<> mesh_matrix(const TorusMesh& mesh);

// Loop-like refinement R, (V + E) x V: one row per vertex point (the Loop vertex mask,
// valence + 1 non-zeros) then one per edge point (3/8, 3/8, 1/8, 1/8). About 4.75 non-zeros
// per row on a mostly valence-6 mesh (7 V + 4 * 3 V over 4 V rows).
linalg::Csr<double> loop_refinement(cpu::Executor& exec, const TorusMesh& mesh);

// The Loop vertex stencil S (V x V): the vertex rows of R alone, 7 non-zeros per regular row.
linalg::Csr<double> loop_smoothing(cpu::Executor& exec, const TorusMesh& mesh);

// P A Q for seeded random permutations P (rows) and Q (columns): the same matrix in a random
// vertex and element order, which destroys the grid's locality.
linalg::Csr<double> random_permuted(cpu::Executor& exec, const linalg::Csr<double>& A,
                                    std::uint64_t seed);

// n values uniform in [-1, 1), from the seeded generator.
template <class T>
linalg::Array<T> random_values(index_t n, std::uint64_t seed) {
  SplitMix64 rng{seed};
  linalg::Array<T> a(n);
  for (index_t i = 0; i < n; ++i) a[i] = static_cast<T>(2.0 * rng.unit() - 1.0);
  return a;
}

// max |a - b| / max |b|: 0 means the two results are bit-equal.
template <class T>
double max_rel_diff(const T* a, const T* b, std::int64_t n) {
  double diff = 0, scale = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    diff = std::max(diff, std::abs(static_cast<double>(a[i]) - static_cast<double>(b[i])));
    scale = std::max(scale, std::abs(static_cast<double>(b[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

// A copy of A with values converted to T.
template <class T>
linalg::Csr<T> cast_values(const linalg::Csr<double>& A) {
  linalg::Array<T> values(A.nnz());
  for (index_t p = 0; p < A.nnz(); ++p) values[p] = static_cast<T>(A.values[p]);
  return linalg::Csr<T>(A.rows, A.cols, A.offsets.clone(), A.indices.clone(), std::move(values));
}

}  // namespace spmesh::bench
