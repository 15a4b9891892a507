// A polygon mesh as spmesh holds it: positions (V x 3, row-major), the mesh matrix M
// (one column per face) and the OpenSubdiv-style tags that came with it.
#pragma once

#include "linalg/formats.hpp"
#include "linalg/mesh_matrix.hpp"

#include <string>
#include <vector>

namespace spmesh::meshops {

// One `t name ints/floats/strings args...` line of an OBJ file (OpenSubdiv's tag syntax),
// kept as read; the subdivision schemes interpret crease, corner and boundary tags.
struct Tag {
  std::string name;
  std::vector<int> ints;
  std::vector<double> floats;
  std::vector<std::string> strings;
  int line = 0;  // where it was read, for error messages
};

struct PolyMesh {
  linalg::Dense<double> positions;  // V x 3
  linalg::MeshMatrix<> M;           // V x F, rows of each column in the face's cyclic order
  std::vector<Tag> tags;
  std::string source;  // file name (or a label) for messages
  // After triangulate: the input face each face came from (0-based), for messages; empty when
  // the faces are the input's.
  std::vector<index_t> input_faces = {};

  index_t vertex_count() const { return M.vertices; }
  index_t face_count() const { return M.faces; }
};

}  // namespace spmesh::meshops
