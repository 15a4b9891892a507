// The README's linalg example as a program: face orders, the edge matrix E, the oriented
// adjacency F and the face points of a mesh (by default data/meshes/creased_cube.obj) as mapped
// products on its mesh matrix, each checked against the same quantity counted face by face.
#include "examples/expect.hpp"
#include "linalg/cpu/executor.hpp"
#include "meshops/io.hpp"
#include "meshops/topology.hpp"

#include <cstdio>
#include <set>
#include <string>
#include <utility>

using namespace spmesh;
using examples::expect;

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "data/meshes/creased_cube.obj";
  cpu::Executor exec;
  auto mesh = meshops::read_mesh(path);

  auto c = meshops::face_orders(exec, mesh.M);          // Eq. 5:  c = M^T 1, val -> 1
  auto E = meshops::edge_matrix(exec, mesh.M);          // Eq. 8:  E = M M^T {Q_c + Q_c^(c-1)}
  auto F = meshops::oriented_adjacency(exec, mesh.M);   // Eq. 12: F = M M^T {Q_c}[gamma]

  // Face points, Eq. 6: f = M^T P with val_i,* -> 1/c_i (a per-column map on M).
  linalg::Array<double> inv_c(mesh.face_count());
  for (index_t f = 0; f < mesh.face_count(); ++f) inv_c[f] = 1.0 / c[f];
  auto f = linalg::spmm_t(exec, mesh.M, mesh.positions, linalg::map::per_column(inv_c));

  // The same quantities face by face, from the faces' vertex lists.
  std::set<std::pair<index_t, index_t>> edges;
  const auto& M = mesh.M;
  for (index_t k = 0; k < mesh.face_count(); ++k) {
    const index_t first = M.offsets[k], order = M.offsets[k + 1] - first;
    expect(c[k] == order, "c holds each face's number of vertices");
    for (index_t col = 0; col < 3; ++col) {
      double sum = 0;
      for (index_t a = 0; a < order; ++a) sum += mesh.positions(M.indices[first + a], col);
      expect(std::abs(f(k, col) - sum / order) <= 1e-12, "f holds each face's centroid");
    }
    for (index_t a = 0; a < order; ++a) {
      const index_t i = M.indices[first + a], j = M.indices[first + (a + 1) % order];
      edges.insert({std::min(i, j), std::max(i, j)});
      const index_t p = F.view().find(i, j);
      expect(p >= 0 && F.values[p] == k, "F(i, j) is the face in which j follows i");
    }
  }
  expect(E.nnz() == 2 * index_t(edges.size()), "E's non-zeros are the mesh's edges, twice");
  for (const auto& [i, j] : edges) {
    const index_t ij = E.view().find(i, j), ji = E.view().find(j, i);
    expect(ij >= 0 && ji >= 0 && E.values[ij] == E.values[ji], "E is symmetric");
  }
  if (path.ends_with("creased_cube.obj")) {  // a closed quad mesh of genus 0
    for (index_t p = 0; p < E.nnz(); ++p) expect(E.values[p] == 2, "every edge has two faces");
    expect(mesh.vertex_count() - index_t(edges.size()) + mesh.face_count() == 2,
           "V - E + F = 2");
  }

  std::printf("%s: %d faces, %d edges (E: %d non-zeros), F: %d oriented edges; face points "
              "are the centroids\n",
              path.c_str(), mesh.face_count(), int(edges.size()), E.nnz(), F.nnz());
  return 0;
}
