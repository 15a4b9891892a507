// Triangulation of polygon meshes (see triangulate.hpp).
#include "meshops/triangulate.hpp"

#include <vector>

namespace spmesh::meshops {

namespace {

double squared_distance(const linalg::Dense<double>& P, index_t a, index_t b) {
  double d = 0;
  for (index_t c = 0; c < P.cols; ++c) d += (P(a, c) - P(b, c)) * (P(a, c) - P(b, c));
  return d;
}

}  // namespace

PolyMesh triangulate(const PolyMesh& mesh, Triangulation how) {
  const auto& M = mesh.M;
  std::vector<index_t> indices, input_faces;
  indices.reserve(3 * static_cast<std::size_t>(M.nnz()));
  // A face that was itself a triangle of an input face keeps that input face.
  auto input_face = [&](index_t f) { return mesh.input_faces.empty() ? f : mesh.input_faces[f]; };
  for (index_t f = 0; f < M.faces; ++f) {
    const index_t* v = M.indices.data() + M.offsets[f];
    const index_t c = M.offsets[f + 1] - M.offsets[f];
    if (c == 4 && how == Triangulation::shortest_diagonal &&
        squared_distance(mesh.positions, v[1], v[3]) < squared_distance(mesh.positions, v[0], v[2])) {
      indices.insert(indices.end(), {v[0], v[1], v[3], v[1], v[2], v[3]});
      input_faces.insert(input_faces.end(), 2, input_face(f));
      continue;
    }
    for (index_t i = 1; i + 1 < c; ++i) {
      indices.insert(indices.end(), {v[0], v[i], v[i + 1]});
      input_faces.push_back(input_face(f));
    }
  }
  std::vector<index_t> offsets(indices.size() / 3 + 1);
  for (std::size_t t = 0; t < offsets.size(); ++t) offsets[t] = static_cast<index_t>(3 * t);
  PolyMesh out;
  out.positions = mesh.positions.clone();
  out.M = linalg::MeshMatrix<>(M.vertices, linalg::Array<index_t>(offsets),
                               linalg::Array<index_t>(indices));
  out.tags = mesh.tags;
  out.source = mesh.source;
  out.input_faces = std::move(input_faces);
  return out;
}

bool is_triangle_mesh(const PolyMesh& mesh) {
  for (index_t f = 0; f < mesh.M.faces; ++f)
    if (mesh.M.offsets[f + 1] - mesh.M.offsets[f] != 3) return false;
  return true;
}

}  // namespace spmesh::meshops
