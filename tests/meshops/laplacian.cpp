// The Laplacians and mass matrices of meshops/laplacian.hpp against a plain loop over the faces
// (each triangle's cotangents and area scattered into a dense matrix, the textbook assembly) and
// against closed forms: a flat grid's cotangent Laplacian is zero on linear functions at its
// inner vertices, the mass matrices' entries sum to the area, a closed mesh's rows sum to zero. On
// each backend (tests/backends.hpp; cuda/laplacian.cu compiles this source for the GPU).
#include "../backends.hpp"
#include "surfaces.hpp"
#include "linalg/formats.hpp"
#include "meshops/laplacian.hpp"
#include "meshops/obj.hpp"
#include "meshops/triangulate.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace spmesh::test::laplacian_tests {

using meshops::PolyMesh;

using Matrix = std::vector<std::vector<double>>;

Matrix dense(const linalg::Csr<double>& A) {
  Matrix out(std::size_t(A.rows), std::vector<double>(std::size_t(A.cols), 0.0));
  for (index_t i = 0; i < A.rows; ++i)
    for (index_t p = A.offsets[i]; p < A.offsets[i + 1]; ++p) out[std::size_t(i)][std::size_t(A.indices[p])] = A.values[p];
  return out;
}

double largest_difference(const Matrix& a, const Matrix& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < a[i].size(); ++j) worst = std::max(worst, std::abs(a[i][j] - b[i][j]));
  return worst;
}

std::array<double, 3> point(const PolyMesh& mesh, index_t v) {
  return {mesh.positions(v, 0), mesh.positions(v, 1), mesh.positions(v, 2)};
}
std::array<double, 3> minus(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
std::array<double, 3> cross(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const std::array<double, 3>& a, const std::array<double, 3>& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
double norm(const std::array<double, 3>& a) { return std::sqrt(dot(a, a)); }

// The textbook assembly: for each triangle (a, b, c) and each corner, half the cotangent of its
// angle added to the opposite edge's two entries and subtracted from its ends' diagonals; the
// area split among the corners (barycentric) or as the linear elements' Gram matrix (full).
struct Reference {
  Matrix cotangent, barycentric, full;
};
Reference assembled(const PolyMesh& mesh) {
  const std::size_t V = std::size_t(mesh.vertex_count());
  Reference r{Matrix(V, std::vector<double>(V, 0.0)), Matrix(V, std::vector<double>(V, 0.0)),
              Matrix(V, std::vector<double>(V, 0.0))};
  for (index_t f = 0; f < mesh.face_count(); ++f) {
    const index_t* corner = mesh.M.indices.data() + mesh.M.offsets[f];
    for (int at = 0; at < 3; ++at) {
      const index_t o = corner[at], a = corner[(at + 1) % 3], b = corner[(at + 2) % 3];
      const auto e = minus(point(mesh, a), point(mesh, o)), g = minus(point(mesh, b), point(mesh, o));
      const double half_cot = dot(e, g) / norm(cross(e, g)) / 2;
      r.cotangent[std::size_t(a)][std::size_t(b)] += half_cot, r.cotangent[std::size_t(b)][std::size_t(a)] += half_cot;
      r.cotangent[std::size_t(a)][std::size_t(a)] -= half_cot, r.cotangent[std::size_t(b)][std::size_t(b)] -= half_cot;
    }
    const double area = norm(cross(minus(point(mesh, corner[1]), point(mesh, corner[0])),
                                   minus(point(mesh, corner[2]), point(mesh, corner[0])))) / 2;
    for (int x = 0; x < 3; ++x) {
      r.barycentric[std::size_t(corner[x])][std::size_t(corner[x])] += area / 3;
      for (int y = 0; y < 3; ++y) r.full[std::size_t(corner[x])][std::size_t(corner[y])] += x == y ? area / 6 : area / 12;
    }
  }
  return r;
}

// An n x n grid of unit squares in the plane z = 0, each cut along a diagonal chosen at random,
// its inner points moved in the plane.
PolyMesh flat_grid(int n) {
  PolyMesh mesh;
  const index_t side = n + 1;
  mesh.positions = linalg::Dense<double>(side * side, 3);
  std::mt19937 random(9);
  std::uniform_real_distribution<double> jitter(-0.2, 0.2);
  for (index_t j = 0; j < side; ++j)
    for (index_t i = 0; i < side; ++i) {
      const bool inner = i > 0 && j > 0 && i < n && j < n;
      mesh.positions(i + side * j, 0) = i + (inner ? jitter(random) : 0);
      mesh.positions(i + side * j, 1) = j + (inner ? jitter(random) : 0);
      mesh.positions(i + side * j, 2) = 0;
    }
  std::vector<index_t> offsets{0}, indices;
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < n; ++i) {
      const index_t a = i + side * j, b = a + 1, c = a + 1 + side, d = a + side;
      const std::array<index_t, 6> cut = random() % 2 ? std::array<index_t, 6>{a, b, c, a, c, d}
                                                      : std::array<index_t, 6>{a, b, d, b, c, d};
      for (int t = 0; t < 2; ++t) {
        for (int x = 0; x < 3; ++x) indices.push_back(cut[std::size_t(3 * t + x)]);
        offsets.push_back(index_t(indices.size()));
      }
    }
  mesh.M = linalg::MeshMatrix<>(side * side, linalg::Array<index_t>(offsets), linalg::Array<index_t>(indices));
  return mesh;
}

// The three matrices of `mesh` on backend B, on the host.
struct Matrices {
  linalg::Csr<double> cotangent, barycentric, full, uniform;
};
template <class B>
Matrices matrices_on(const PolyMesh& mesh) {
  typename B::Exec exec;
  const auto M = B::upload(mesh.M);
  const auto P = B::upload(mesh.positions);
  const bool triangles = meshops::is_triangle_mesh(mesh);
  return {triangles ? B::download(meshops::cotangent_laplacian(exec, M, P)) : linalg::Csr<double>(),
          triangles ? B::download(meshops::mass_matrix(exec, M, P)) : linalg::Csr<double>(),
          triangles ? B::download(meshops::mass_matrix(exec, M, P, meshops::MassMatrix::full)) : linalg::Csr<double>(),
          B::download(meshops::uniform_laplacian(exec, M))};
}

TEST_CASE_TEMPLATE("The cotangent Laplacian and the mass matrices by implicit M M^T are the face-by-face assembly's, "
                   "symmetric, with zero row sums on a closed mesh and entries summing to the area",
                   B, SPMESH_TEST_BACKENDS) {
  const PolyMesh mesh = perturbed_torus(5);
  const Reference want = assembled(mesh);
  const Matrices on = matrices_on<B>(mesh);
  const auto &L = on.cotangent, &lumped = on.barycentric, &full = on.full;
  double scale = 0;
  for (const auto& row : want.cotangent)
    for (const double x : row) scale = std::max(scale, std::abs(x));
  CHECK(largest_difference(dense(L), want.cotangent) <= 1e-13 * scale);
  const Matrix got = dense(L);
  double asymmetry = 0, row_sum = 0, area = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    double sum = 0;
    for (std::size_t j = 0; j < got.size(); ++j) asymmetry = std::max(asymmetry, std::abs(got[i][j] - got[j][i])), sum += got[i][j];
    row_sum = std::max(row_sum, std::abs(sum));
  }
  CHECK(asymmetry <= 1e-14 * scale);
  CHECK(row_sum <= 1e-13 * scale);
  for (index_t p = 0; p < lumped.values.size(); ++p) area += lumped.values[p];
  double total = 0;
  for (const auto& row : want.barycentric)
    for (const double x : row) total += x;
  CHECK(largest_difference(dense(lumped), want.barycentric) <= 1e-15 * total);
  CHECK(largest_difference(dense(full), want.full) <= 1e-15 * total);
  CHECK(lumped.values.size() == mesh.vertex_count());  // diagonal
  CHECK(std::abs(area - total) <= 1e-12 * total);
  // Every row of the full matrix sums to the lumped one's diagonal.
  const Matrix whole = dense(full), diagonal = dense(lumped);
  double row_difference = 0;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    double sum = 0;
    for (const double x : whole[i]) sum += x;
    row_difference = std::max(row_difference, std::abs(sum - diagonal[i][i]));
  }
  CHECK(row_difference <= 1e-14 * total);
}

TEST_CASE_TEMPLATE("The cotangent Laplacian of a flat triangulated grid is zero on linear functions at its inner "
                   "vertices",
                   B, SPMESH_TEST_BACKENDS) {
  const int n = 6;
  const PolyMesh mesh = flat_grid(n);
  const auto L = matrices_on<B>(mesh).cotangent;
  double worst = 0;
  for (index_t i = 0; i < L.rows; ++i) {
    const index_t x = i % (n + 1), y = i / (n + 1);
    if (x == 0 || y == 0 || x == n || y == n) continue;
    for (int f = 0; f < 2; ++f) {  // f = x and f = 2 x - 3 y + 1 at the points
      double sum = 0;
      for (index_t p = L.offsets[i]; p < L.offsets[i + 1]; ++p) {
        const index_t j = L.indices[p];
        const double value = f == 0 ? mesh.positions(j, 0) : 2 * mesh.positions(j, 0) - 3 * mesh.positions(j, 1) + 1;
        sum += L.values[p] * value;
      }
      worst = std::max(worst, std::abs(sum));
    }
  }
  CHECK(worst <= 1e-12);
}

TEST_CASE_TEMPLATE("The uniform Laplacian counts a polygon mesh's edges: 1 on each, minus the vertex's degree on "
                   "the diagonal",
                   B, SPMESH_TEST_BACKENDS) {
  for (const char* name : {"torus.obj", "tent.obj", "lantern.obj"}) {
    CAPTURE(name);
    const PolyMesh mesh = meshops::read_obj(std::string(SPMESH_DATA_DIR) + "/meshes/" + name);
    const auto L = matrices_on<B>(mesh).uniform;
    // The edges by a loop over the faces' consecutive corners.
    const std::size_t V = std::size_t(mesh.vertex_count());
    Matrix want(V, std::vector<double>(V, 0.0));
    for (index_t f = 0; f < mesh.face_count(); ++f) {
      const index_t begin = mesh.M.offsets[f], c = mesh.M.offsets[f + 1] - begin;
      for (index_t s = 0; s < c; ++s) {
        const std::size_t a = std::size_t(mesh.M.indices[begin + s]), b = std::size_t(mesh.M.indices[begin + (s + 1) % c]);
        want[a][b] = want[b][a] = 1;
      }
    }
    for (std::size_t i = 0; i < V; ++i) {
      double degree = 0;
      for (std::size_t j = 0; j < V; ++j) degree += i == j ? 0 : want[i][j];
      want[i][i] = -degree;
    }
    CHECK(largest_difference(dense(L), want) == 0);
  }
}

TEST_CASE_TEMPLATE("The cotangent Laplacian and the mass matrices refuse a face that is not a triangle, naming it, "
                   "and positions of another size",
                   B, SPMESH_TEST_BACKENDS) {
  typename B::Exec exec;
  const PolyMesh quads = meshops::read_obj(SPMESH_DATA_DIR "/meshes/torus.obj");
  std::string message;
  try {
    meshops::cotangent_laplacian(exec, B::upload(quads.M), B::upload(quads.positions));
  } catch (const DimensionError& e) {
    message = e.what();
  }
  CHECK(message.find("cotangent_laplacian: face 0 has 4 corners") != std::string::npos);
  message.clear();
  const PolyMesh triangles = meshops::triangulate(quads);
  try {
    meshops::mass_matrix(exec, B::upload(triangles.M), B::upload(linalg::Dense<double>(triangles.vertex_count() - 1, 3)));
  } catch (const DimensionError& e) {
    message = e.what();
  }
  CHECK(message.find("mass_matrix: the positions are " + std::to_string(triangles.vertex_count() - 1) + " x 3") !=
        std::string::npos);
}

}  // namespace spmesh::test::laplacian_tests
