// Catmull-Clark on half-edge levels (half_edges/level.hpp; paper section 4.1): every level after
// the first is all quads, so its mesh matrix is the reduced one (four vertex indices per face,
// no offsets, no values); a polygon base mesh keeps its offsets. A child level's topology
// follows from its parent's by fixed local rules (quad_build.hpp).
#pragma once

#include "linalg/mesh_matrix.hpp"
#include "schemes/half_edges/level.hpp"

#include <cstdint>

namespace spmesh::schemes::catmull_clark {

// Half-edge h = 4 f + a runs from corner a of quad f to corner a + 1.
SPMESH_HD inline index_t next_half(index_t h) { return (h & ~index_t(3)) | ((h + 1) & 3); }
SPMESH_HD inline index_t prev_half(index_t h) { return (h & ~index_t(3)) | ((h + 3) & 3); }

// (x0, x1, x2, x3) placed from slot a on: slot (a + k) % 4 gets x_k.
SPMESH_HD inline linalg::Index4 rotated(index_t a, index_t x0, index_t x1, index_t x2, index_t x3) {
  linalg::Index4 r;
#pragma unroll
  for (index_t s = 0; s < 4; ++s) {
    const index_t k = (s - a) & 3;
    r.v[s] = k == 0 ? x0 : k == 1 ? x1 : k == 2 ? x2 : x3;
  }
  return r;
}

// A Catmull-Clark level on half-edges. Child vertex order is the general Level's: vertex
// points [0, V), face points [V, V + F), edge points [V + F, V + F + E); child face h is the
// quad at corner h (its corners: the vertex point, the edge point of h, the face point, the
// edge point of the previous half-edge). Edge e's children are 2 e and 2 e + 1, then corner
// h's inner edge is 2 E + h.
template <class S>
struct CatmarkLevel : HalfEdgeLevel<S> {
  index_t child_vertices() const { return this->vertices + this->faces + this->edges; }
};

// A quad level (every level after the first): half-edge h = 4 f + a, found by arithmetic.
template <class S>
struct QuadLevel : CatmarkLevel<S> {
  linalg::ReducedMeshMatrix<S> M;  // order 4
  linalg::Array<std::uint8_t, S> starts;  // VertexStarts (half_edges/first_level.hpp)

  index_t child_faces() const { return 4 * this->faces; }
};

// A polygon level (the base mesh when it is not all quads): faces found through M's offsets
// and a face per half-edge.
template <class S>
struct PolygonLevel : CatmarkLevel<S> {
  linalg::MeshMatrix<S> M;
  linalg::Array<index_t, S> face_of;  // per half-edge

  index_t child_faces() const { return M.nnz(); }
};

// How half-edges sit in faces: faces of four corners, h = 4 f + a...
struct QuadFaces {
  static constexpr int corners_per_face = 4;
  SPMESH_HD index_t face(index_t h) const { return h >> 2; }
  SPMESH_HD index_t begin(index_t f) const { return 4 * f; }
  SPMESH_HD index_t size(index_t) const { return 4; }
  SPMESH_HD index_t next(index_t h) const { return next_half(h); }
  SPMESH_HD index_t prev(index_t h) const { return prev_half(h); }
  // The slot of corner h's vertex point in its child quad: quads keep the parent corner's slot
  // (OpenSubdiv's orientation), other polygons start at slot 0.
  SPMESH_HD index_t slot(index_t h) const { return h & 3; }
};
using QuadView = HalfEdgeView<QuadFaces>;
using PolygonView = HalfEdgeView<PolygonFaces>;

template <class S>
QuadView view(const QuadLevel<S>& L) {
  return {{}, L.M.indices.data(), L.twin.data(), L.edge_code.data(), L.vertex_edge.data(),
          L.vertices, L.faces, L.edges};
}
template <class S>
PolygonView view(const PolygonLevel<S>& L) {
  return {{L.M.offsets.data(), L.face_of.data()}, L.M.indices.data(), L.twin.data(),
          L.edge_code.data(), L.vertex_edge.data(), L.vertices, L.faces, L.edges};
}

}  // namespace spmesh::schemes::catmull_clark
