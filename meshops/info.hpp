// Summary statistics of a polygon mesh (what `spmesh info` prints), computed with linalg ops.
#pragma once

#include "linalg/cpu/executor.hpp"
#include "meshops/mesh.hpp"

#include <map>
#include <string>

namespace spmesh::meshops {

struct MeshInfo {
  index_t vertices = 0, edges = 0, faces = 0;
  index_t boundary_edges = 0;     // edges on exactly one face side
  index_t nonmanifold_edges = 0;  // edges on more than two face sides
  index_t isolated_vertices = 0;  // vertices on no face
  index_t degenerate_sides = 0;   // face sides from a vertex to itself (repeated vertex)
  index_t non_finite_vertices = 0;  // vertices with a NaN or infinite coordinate
  std::string problem;  // the first problem check_mesh finds (what subdivide refuses); "" if none
  std::map<index_t, index_t> face_orders;  // order -> number of faces
  std::map<index_t, index_t> valences;     // edges at a vertex -> vertices

  long long euler_characteristic() const {
    return static_cast<long long>(vertices) - edges + faces;
  }
};

MeshInfo mesh_info(linalg::cpu::Executor& exec, const PolyMesh& mesh);

// Human-readable multi-line report; problems (non-finite coordinates, non-manifold edges and
// vertices, ...) on lines of their own that start with "problem".
std::string format_info(const MeshInfo& info, const std::string& name);

}  // namespace spmesh::meshops
