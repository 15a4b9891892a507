// Builds the benchmark meshes and matrices declared in generators.hpp.
#include "bench/generators.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace spmesh::bench {

namespace {

// Loop's vertex mask (docs/rules.md "Loop"): weight of each neighbour and of
// the vertex itself for valence n.
struct LoopMask {
  double self, neighbour;
};
LoopMask loop_mask(index_t n) {
  if (n == 6) return {5.0 / 8.0, 1.0 / 16.0};
  const double beta = 3.0 / 8.0 + 0.25 * std::cos(2.0 * std::numbers::pi / n);
  const double w = (5.0 / 8.0 - beta * beta) / n;
  return {1.0 - n * w, w};
}

// Appends the vertex rows (Loop vertex masks) of the refinement to a triplet list.
struct Triplets {
  std::vector<index_t> rows, cols;
  std::vector<double> values;
  void add(index_t r, index_t c, double v) {
    rows.push_back(r), cols.push_back(c), values.push_back(v);
  }
  linalg::Csr<double> assemble(cpu::Executor& exec, index_t n_rows, index_t n_cols) const {
    linalg::Coo<double> coo{n_rows, n_cols, linalg::Array<index_t>(rows),
                            linalg::Array<index_t>(cols), linalg::Array<double>(values)};
    return linalg::to_csr(exec, coo);
  }
};

void add_vertex_rows(const TorusMesh& m, Triplets& t) {
  for (index_t v = 0; v < m.vertices; ++v) t.add(v, v, loop_mask(m.valence[v]).self);
  for (index_t e = 0; e < m.edges(); ++e) {
    const index_t a = m.edge_a[e], b = m.edge_b[e];
    t.add(a, b, loop_mask(m.valence[a]).neighbour);
    t.add(b, a, loop_mask(m.valence[b]).neighbour);
  }
}

}  // namespace

TorusMesh make_torus(index_t n, double flip_fraction, std::uint64_t seed) {
  if (n < 3) throw std::invalid_argument("make_torus: the grid needs at least 3 x 3 vertices");
  TorusMesh m;
  m.n = n;
  m.vertices = checked_index(static_cast<std::int64_t>(n) * n, "torus vertices");
  auto v = [n](index_t i, index_t j) { return ((i + n) % n) * n + (j + n) % n; };

  SplitMix64 rng{seed};
  std::vector<unsigned char> flip(static_cast<std::size_t>(m.vertices));
  for (auto& f : flip) f = rng.unit() < flip_fraction ? 1 : 0;
  auto flipped = [&](index_t i, index_t j) { return flip[v(i, j)] != 0; };

  const std::size_t cells = static_cast<std::size_t>(m.vertices);
  m.triangles.reserve(6 * cells);
  for (auto* e : {&m.edge_a, &m.edge_b, &m.edge_left, &m.edge_right}) e->reserve(3 * cells);
  auto add_edge = [&](index_t a, index_t b, index_t l, index_t r) {
    m.edge_a.push_back(a), m.edge_b.push_back(b);
    m.edge_left.push_back(l), m.edge_right.push_back(r);
  };
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j) {
      // Cell corners, counter-clockwise in (row, column) order: a b / d c.
      const index_t a = v(i, j), b = v(i, j + 1), c = v(i + 1, j + 1), d = v(i + 1, j);
      const bool f = flipped(i, j);
      m.flipped_cells += f ? 1 : 0;
      if (!f)
        m.triangles.insert(m.triangles.end(), {a, b, c, a, c, d});
      else
        m.triangles.insert(m.triangles.end(), {a, b, d, b, c, d});
      // Top edge a-b: the third corner of this cell's triangle on it, and of the cell above.
      add_edge(a, b, f ? d : c, flipped(i - 1, j) ? v(i - 1, j + 1) : v(i - 1, j));
      // Left edge a-d: this cell's triangle and the cell to the left.
      add_edge(a, d, f ? b : c, flipped(i, j - 1) ? v(i + 1, j - 1) : v(i, j - 1));
      // The diagonal.
      if (!f)
        add_edge(a, c, b, d);
      else
        add_edge(b, d, a, c);
    }

  m.valence.assign(cells, 0);
  for (index_t e = 0; e < m.edges(); ++e) ++m.valence[m.edge_a[e]], ++m.valence[m.edge_b[e]];
  for (index_t k : m.valence) m.irregular_vertices += k != 6 ? 1 : 0;
  return m;
}

linalg::ReducedMeshMatrix<> mesh_matrix(const TorusMesh& mesh) {
  return linalg::ReducedMeshMatrix<>(mesh.vertices, 3, linalg::Array<index_t>(mesh.triangles));
}

linalg::Csr<double> loop_refinement(cpu::Executor& exec, const TorusMesh& mesh) {
  Triplets t;
  const std::size_t nnz = static_cast<std::size_t>(mesh.vertices) + 6u * mesh.edges();
  t.rows.reserve(nnz), t.cols.reserve(nnz), t.values.reserve(nnz);
  add_vertex_rows(mesh, t);
  for (index_t e = 0; e < mesh.edges(); ++e) {
    const index_t row = mesh.vertices + e;
    t.add(row, mesh.edge_a[e], 3.0 / 8.0);
    t.add(row, mesh.edge_b[e], 3.0 / 8.0);
    t.add(row, mesh.edge_left[e], 1.0 / 8.0);
    t.add(row, mesh.edge_right[e], 1.0 / 8.0);
  }
  const index_t rows =
      checked_index(static_cast<std::int64_t>(mesh.vertices) + mesh.edges(), "refinement rows");
  return t.assemble(exec, rows, mesh.vertices);
}

linalg::Csr<double> loop_smoothing(cpu::Executor& exec, const TorusMesh& mesh) {
  Triplets t;
  add_vertex_rows(mesh, t);
  return t.assemble(exec, mesh.vertices, mesh.vertices);
}

linalg::Csr<double> random_permuted(cpu::Executor& exec, const linalg::Csr<double>& A,
                                    std::uint64_t seed) {
  SplitMix64 rng{seed};
  auto permutation = [&](index_t n) {  // Fisher-Yates
    std::vector<index_t> p(static_cast<std::size_t>(n));
    for (index_t i = 0; i < n; ++i) p[i] = i;
    for (index_t i = n - 1; i > 0; --i)
      std::swap(p[i], p[static_cast<index_t>(rng.below(static_cast<std::uint64_t>(i) + 1))]);
    return p;
  };
  const auto row_to = permutation(A.rows), col_to = permutation(A.cols);
  Triplets t;
  t.rows.reserve(A.nnz()), t.cols.reserve(A.nnz()), t.values.reserve(A.nnz());
  for (index_t r = 0; r < A.rows; ++r)
    for (index_t p = A.offsets[r]; p < A.offsets[r + 1]; ++p)
      t.add(row_to[r], col_to[A.indices[p]], A.values[p]);
  return t.assemble(exec, A.rows, A.cols);
}

}  // namespace spmesh::bench
