// Locality (paper section 4.5): a vertex order that keeps neighbours close in memory, and a
// mesh renumbered by it. Reverse Cuthill-McKee on the vertex graph (the graph Laplacian's
// pattern), faces then sorted by their lowest new vertex, as the paper applies it to M.
#pragma once

#include "meshops/mesh.hpp"

#include <vector>

namespace spmesh::meshops {

// order[new] = old: reverse Cuthill-McKee of the vertex graph (two vertices are adjacent when
// they follow each other in a face). Each connected component starts at a pseudo-peripheral
// vertex (George and Liu) and is visited breadth first, neighbours by increasing degree, ties
// by vertex number, so the order is deterministic. Vertices in no face come last.
std::vector<index_t> rcm_order(const linalg::MeshMatrix<>& M);

// The mesh with vertex order[i] renumbered i: positions permuted, face vertices renamed (each
// face keeps its cycle and its first corner), faces stably sorted by their lowest new vertex,
// and the vertex numbers of `crease` and `corner` tags renamed. Throws InputError if order is
// not a permutation of the vertices.
PolyMesh reorder(const PolyMesh& mesh, const std::vector<index_t>& order);

// The largest |i - j| over the mesh's edges (the bandwidth of the vertex graph's matrix).
index_t bandwidth(const linalg::MeshMatrix<>& M);

}  // namespace spmesh::meshops
