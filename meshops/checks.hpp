// Mesh validity checks run before any work: finite positions, simple faces with indices in
// range, a manifold, consistently oriented surface. Isolated vertices (on no face) are allowed.
#pragma once

#include "meshops/mesh.hpp"

#include <string>

namespace spmesh::meshops {

// Throws on the first problem, naming mesh.source and the face and (0-based) vertex ids:
// DimensionError unless positions are M.vertices x 3; InputError for a non-finite coordinate,
// a face with fewer than 3 vertices, an index out of range, a face that repeats a vertex, a
// non-manifold edge (on more than two faces), inconsistent orientation (two faces with the
// same directed edge i -> j) or a non-manifold vertex (its faces form more than one fan).
// O(nnz log) time, host only.
void check_mesh(const PolyMesh& mesh);

// The part of check_mesh that the writers need too: a positions block of position_rows x
// position_cols must be M.vertices x 3 (DimensionError); offsets start at 0 and end at nnz,
// faces have at least 3 vertices and indices are in range (InputError). `source` names the
// mesh in messages.
void check_mesh_matrix(const std::string& source, const linalg::MeshMatrix<>& M,
                       index_t position_rows, index_t position_cols);

// The first row of `positions` with a coordinate that is NaN or infinite, or -1 when all are
// finite (parallel; the lowest such row, whatever the thread count).
index_t first_non_finite(const linalg::Dense<double>& positions);
index_t first_non_finite(const linalg::Dense<float>& positions);

// InputError naming `source` and the first vertex (0-based) with a coordinate that is not
// finite, with its coordinates: what the writers check before writing anything.
void check_finite(const std::string& source, const linalg::Dense<double>& positions);
void check_finite(const std::string& source, const linalg::Dense<float>& positions);

}  // namespace spmesh::meshops
