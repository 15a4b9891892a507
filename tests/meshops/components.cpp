// Face adjacency and connected components (meshops/components.hpp) against a host reference:
// face pairs counted by a map of sorted sides, components by union-find, both numbered by their
// smallest member. Meshes of many pieces with their vertices shuffled; faces that meet at a vertex
// only; a non-manifold edge; a one-sided matrix. On each backend (cuda/geometry.cu compiles this
// source for the GPU).
#include "../backends.hpp"
#include "surfaces.hpp"
#include "meshops/components.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <vector>

namespace spmesh::test::components_tests {

using meshops::PolyMesh;

// Union-find, each set numbered by the order of its smallest member.
struct UnionFind {
  std::vector<index_t> parent;
  explicit UnionFind(index_t n) : parent(std::size_t(n)) { std::iota(parent.begin(), parent.end(), 0); }
  index_t root(index_t i) { return parent[i] == i ? i : parent[i] = root(parent[i]); }
  void join(index_t a, index_t b) {
    a = root(a), b = root(b);
    parent[std::max(a, b)] = std::min(a, b);
  }
  std::vector<index_t> numbers() {
    std::vector<index_t> number(parent.size()), out(parent.size());
    index_t count = 0;
    for (index_t i = 0; i < index_t(parent.size()); ++i)
      if (root(i) == i) number[i] = count++;
    for (index_t i = 0; i < index_t(parent.size()); ++i) out[i] = number[root(i)];
    return out;
  }
};

std::vector<std::vector<index_t>> faces_of(const PolyMesh& mesh) {
  std::vector<std::vector<index_t>> faces;
  for (index_t f = 0; f < mesh.face_count(); ++f)
    faces.emplace_back(mesh.M.indices.data() + mesh.M.offsets[f], mesh.M.indices.data() + mesh.M.offsets[f + 1]);
  return faces;
}

// Pieces: copies of the bundled torus (quads), icospheres and single triangles, with the vertices
// numbered at random and the faces in random order; two isolated vertices.
PolyMesh pieces(unsigned seed) {
  std::mt19937 random(seed);
  std::vector<std::vector<index_t>> faces;
  index_t vertices = 0;
  auto add = [&](const PolyMesh& piece) {
    for (auto face : faces_of(piece)) {
      for (index_t& v : face) v += vertices;
      faces.push_back(face);
    }
    vertices += piece.vertex_count();
  };
  const PolyMesh torus = meshops::read_obj(SPMESH_DATA_DIR "/meshes/torus.obj");
  for (int k = 0; k < 3; ++k) add(torus), add(icosphere(k)), add(triangle_mesh({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}}));
  vertices += 2;
  std::vector<index_t> name(std::size_t(vertices), 0);
  std::iota(name.begin(), name.end(), 0);
  std::shuffle(name.begin(), name.end(), random);
  std::shuffle(faces.begin(), faces.end(), random);
  PolyMesh mesh;
  linalg::Array<index_t> offsets(index_t(faces.size()) + 1);
  std::vector<index_t> indices;
  offsets[0] = 0;
  for (std::size_t f = 0; f < faces.size(); ++f) {
    for (index_t v : faces[f]) indices.push_back(name[v]);
    offsets[index_t(f) + 1] = index_t(indices.size());
  }
  linalg::Array<index_t> stored(index_t(indices.size()));
  std::copy(indices.begin(), indices.end(), stored.data());
  mesh.M = linalg::MeshMatrix<>(vertices, std::move(offsets), std::move(stored));
  mesh.positions = linalg::Dense<double>(vertices, 3);
  return mesh;
}

// Face pairs and how many sides they share, from a map of sorted sides.
std::map<std::pair<index_t, index_t>, index_t> shared_sides(const PolyMesh& mesh) {
  std::map<std::pair<index_t, index_t>, std::vector<index_t>> faces_on_side;
  const auto faces = faces_of(mesh);
  for (index_t f = 0; f < index_t(faces.size()); ++f)
    for (std::size_t s = 0; s < faces[f].size(); ++s)
      faces_on_side[std::minmax(faces[f][s], faces[f][(s + 1) % faces[f].size()])].push_back(f);
  std::map<std::pair<index_t, index_t>, index_t> pairs;
  for (const auto& [side, on] : faces_on_side)
    for (index_t f : on)
      for (index_t g : on)
        if (f != g) ++pairs[{f, g}];
  return pairs;
}

template <class B>
void check_against_references(const PolyMesh& mesh) {
  typename B::Exec exec;
  const auto M = B::upload(mesh.M);
  const auto A = B::download(meshops::face_adjacency(exec, M));
  const auto want = shared_sides(mesh);
  REQUIRE(A.nnz() == index_t(want.size()));
  for (index_t f = 0; f < A.rows; ++f)
    for (index_t p = A.offsets[f]; p < A.offsets[f + 1]; ++p) CHECK(want.at({f, A.indices[p]}) == A.values[p]);

  UnionFind by_edges(mesh.vertex_count()), by_sides(mesh.face_count());
  const auto faces = faces_of(mesh);
  for (const auto& face : faces)
    for (std::size_t s = 0; s < face.size(); ++s) by_edges.join(face[s], face[(s + 1) % face.size()]);
  for (const auto& [pair, sides] : want) by_sides.join(pair.first, pair.second);
  auto check = [&](const meshops::Components<typename B::Exec::space>& components, std::vector<index_t> reference) {
    const auto got = B::download(components.component);
    CHECK(components.count == *std::max_element(reference.begin(), reference.end()) + 1);
    CHECK(std::equal(reference.begin(), reference.end(), got.data()));
  };
  check(meshops::vertex_components(exec, M), by_edges.numbers());
  check(meshops::face_components(exec, M), by_sides.numbers());
}

TEST_CASE_TEMPLATE("Face adjacency and the components of a mesh of many shuffled pieces equal union-find's", B,
                   SPMESH_TEST_BACKENDS) {
  const PolyMesh mesh = pieces(5);
  check_against_references<B>(mesh);
  typename B::Exec exec;
  const auto M = B::upload(mesh.M);
  // 3 tori, 3 spheres, 3 triangles, and 2 vertices in no face.
  CHECK(meshops::vertex_components(exec, M).count == 11);
  CHECK(meshops::face_components(exec, M).count == 9);
}

TEST_CASE_TEMPLATE("Faces meeting at a vertex only are apart, and every face of a non-manifold edge is adjacent", B,
                   SPMESH_TEST_BACKENDS) {
  // Two triangles sharing vertex 0; three triangles on edge (5, 6), one of them turned.
  const PolyMesh mesh = triangle_mesh({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, -1, 0}, {0, 0, 1}, {1, 1, 1}, {2, 0, 1}, {0, 2, 1}, {1, 1, 2}},
                                      {{0, 1, 2}, {0, 3, 4}, {5, 6, 7}, {6, 5, 8}, {5, 6, 9}});
  check_against_references<B>(mesh);
  typename B::Exec exec;
  const auto M = B::upload(mesh.M);
  CHECK(meshops::vertex_components(exec, M).count == 2);
  CHECK(meshops::face_components(exec, M).count == 3);
  const auto A = B::download(meshops::face_adjacency(exec, M));
  CHECK(A.offsets[3] - A.offsets[2] == 2);  // face 2 meets faces 3 and 4 across (5, 6)
}

TEST_CASE_TEMPLATE("connected_components takes a one-sided entry as joining both ends, and a long path in few rounds", B,
                   SPMESH_TEST_BACKENDS) {
  // The path 0 - 1 - ... - n-1 stored as the upper entries (i, i+1) only, then two pieces.
  const index_t n = 4096;
  linalg::Coo<double> path{n, n, linalg::Array<index_t>(n - 2), linalg::Array<index_t>(n - 2), linalg::Array<double>(n - 2)};
  for (index_t i = 0, e = 0; i + 1 < n; ++i) {
    if (i == 1000) continue;  // cuts the path after 1000
    path.row_indices[e] = i, path.col_indices[e] = i + 1, path.values[e++] = 1;
  }
  linalg::cpu::Executor cpu;
  const auto A = linalg::to_csr(cpu, path);
  typename B::Exec exec;
  const auto components = meshops::connected_components(exec, B::upload(A));
  const auto label = B::download(components.component);
  CHECK(components.count == 2);
  for (index_t i = 0; i < n; ++i) CHECK(label[i] == (i <= 1000 ? 0 : 1));
  INFO("rounds: ", components.rounds);
  CHECK(components.rounds <= 16);  // pointer jumping: about log2(n), not n
  CHECK_THROWS_WITH_AS(meshops::connected_components(exec, B::upload(linalg::to_csr(cpu, linalg::Coo<double>{2, 3, {}, {}, {}}))),
                       doctest::Contains("the matrix is 2 x 3"), DimensionError);
}

}  // namespace spmesh::test::components_tests
