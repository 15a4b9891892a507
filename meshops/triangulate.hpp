// Polygon meshes made triangle meshes for the triangle-only schemes (Loop, sqrt(3)).
#pragma once

#include "meshops/mesh.hpp"

namespace spmesh::meshops {

// fan: face (v0, v1, ..., v_(c-1)) -> (v0, v_i, v_(i+1)) for i = 1 .. c-2.
// shortest_diagonal: a quad is cut along its shorter diagonal (ties: v0-v2); larger polygons
// are fanned from v0, as with `fan`.
// Both keep the face's orientation, the vertices and their positions, and the tags (a crease
// names polygon edges, which stay edges).
enum class Triangulation { fan, shortest_diagonal };

PolyMesh triangulate(const PolyMesh& mesh, Triangulation how = Triangulation::fan);

// True when every face has three vertices.
bool is_triangle_mesh(const PolyMesh& mesh);

}  // namespace spmesh::meshops
