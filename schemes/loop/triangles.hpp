// Loop on half-edge levels (half_edges/level.hpp; paper section 4.1): every level is all triangles,
// so its mesh matrix is the reduced one (three vertex indices per face, no offsets, no
// values). A child level's topology follows from its parent's by fixed local rules
// (triangle_build.hpp).
#pragma once

#include "linalg/mesh_matrix.hpp"
#include "schemes/half_edges/level.hpp"

#include <cstdint>

namespace spmesh::schemes::loop {

// A Loop level on half-edges. Child vertex order is the general Level's: vertex points
// [0, V), edge points [V, V + E). Child face 4 f + a (a < 3) is the triangle at corner a of
// face f: the vertex point at slot a, the edge point of half-edge a at slot a + 1, that of
// half-edge a - 1 at slot a + 2; child face 4 f + 3 is the middle one, with the edge point of
// half-edge s + 1 at slot s (OpenSubdiv's order, as the general path's). Edge e's children are
// 2 e and 2 e + 1; then 2 E + 3 f + s is the inner edge along the middle triangle's
// half-edge s.
template <class S>
struct TriangleLevel : HalfEdgeLevel<S> {
  linalg::ReducedMeshMatrix<S> M;         // order 3
  linalg::Array<std::uint8_t, S> starts;  // VertexStarts (half_edges/first_level.hpp)

  index_t child_vertices() const { return this->vertices + this->edges; }
  index_t child_faces() const { return 4 * this->faces; }
};

template <class S>
TriangleView view(const TriangleLevel<S>& L) {
  return {{}, L.M.indices.data(), L.twin.data(), L.edge_code.data(), L.vertex_edge.data(),
          L.vertices, L.faces, L.edges};
}

// The child half-edges along the two halves of parent half-edge h = 3 f + a (inherit's
// `halves`): the first, from h's start, at slot a of the child at corner a; the second, into
// h's end, at slot a of the child at corner a + 1.
struct TriangleHalves {
  SPMESH_HD index_t first(index_t h) const {
    const index_t f = h / 3, a = h - 3 * f;
    return 3 * (4 * f + a) + a;
  }
  SPMESH_HD index_t second(index_t h) const {
    const index_t f = h / 3, a = h - 3 * f;
    return 3 * (4 * f + (a + 1) % 3) + a;
  }
};

}  // namespace spmesh::schemes::loop
