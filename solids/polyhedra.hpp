// Polyhedra given by their faces (cells.hpp): checked to subdivide into hexahedra, and made from
// the face lists that files hold (VTK's type 42).
#pragma once

#include "linalg/formats.hpp"
#include "solids/cells.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace spmesh::solids {

// Why polyhedron `shape` is no cell that subdivides into hexahedra, or "" when it is one: each
// face has 3 or more distinct corners in range, every corner is in a face, every edge is walked
// once each way by two faces (a closed surface, its faces turned alike), every corner joins
// three faces (else its child is no hexahedron: a pyramid's apex joins four), and the surface is
// one piece with Euler characteristic 2 (a ball's). Corners are named by `vertices` (the cell's
// vertex ids).
std::string polyhedron_problem(const CellShape& shape, std::span<const index_t> vertices);

// The first cell of `mesh` that is a polyhedron, or -1.
index_t first_polyhedron(const CellMesh<>& mesh);

// Whether the mesh's face arrays are empty, or span its cells' face streams in order.
bool face_arrays_consistent(const CellMesh<>& mesh);

// Throws InputError naming the first polyhedron of `mesh` that polyhedron_problem refuses, or
// malformed face arrays; returns the most corners a face of the mesh has (max_face_corners at
// least).
int check_polyhedra(const CellMesh<>& mesh);

// A polyhedron from its faces as vertex ids (a file's face list): its corners in the order of
// `order` where that lists the faces' vertices (.vtu's connectivity), else in the order they
// first appear; its faces as cycles of them (CellMesh's face stream), turned alike and then
// outward (positive volume in `positions`). Returns the problem polyhedron_problem names, or
// that of an id out of range, through `problem` and an empty polyhedron.
struct PolyhedronFaces {
  std::vector<index_t> corners;  // vertex ids
  std::vector<index_t> stream;   // [n_0, corners of face 0, n_1, ...], cell-local
};
PolyhedronFaces polyhedron_from_faces(const std::vector<std::vector<std::int64_t>>& faces,
                                      std::span<const std::int64_t> order, const linalg::Dense<double>& positions,
                                      std::string& problem);

}  // namespace spmesh::solids
