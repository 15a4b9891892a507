// What a Loop build hands to eval (paper appendix B). On the general path, per level the
// triangle mesh matrix M, the edge matrix E with its enumeration, the vertices opposite each
// edge (G, Eq. 35, 36) and the crease rules; on half-edges (triangles.hpp), the level's
// half-edges and its sparse crease rules. No vertex data.
#pragma once

#include "linalg/formats.hpp"
#include "linalg/mesh_matrix.hpp"
#include "schemes/crease_rules.hpp"
#include "schemes/loop/triangles.hpp"
#include "schemes/plan.hpp"

#include <cmath>
#include <variant>
#include <vector>

namespace spmesh::schemes::loop {

// One level, from a triangle mesh of `vertices`, `faces` and `edges` to its child. Child vertex
// order (OpenSubdiv's): vertex points [0, V), edge points [V, V + E). Child face order: the
// four children of face 0 (at its corners 0, 1, 2, then the middle one), of face 1, ...
template <class S>
struct Level {
  index_t vertices = 0, faces = 0, edges = 0;
  linalg::MeshMatrix<S> M;    // the parent triangles
  linalg::Csr<index_t, S> E;  // vertex adjacency, values = faces per edge
  // Edges in the order of E's upper triangle; the vertices opposite them in the triangles on
  // either side, G(i, j) and G(j, i) (Eq. 35, 36; -1: none, on a boundary).
  linalg::Array<index_t, S> edge_from, edge_to, edge_opposite0, edge_opposite1;
  // Edge points: (w/2 + 3(1-w)/8) (p_i + p_j) + (1-w)/8 (o_0 + o_1), w = rules.edge_crease;
  // vertex points: a p_i + b (sum of 1-ring neighbours) + d (p_u + p_w) (Eq. 33, 37 with the
  // crease masks; smooth: b = (5/8 - beta^2)/n, beta = 3/8 + cos(2 pi/n)/4, a = 1 - n b).
  CreaseRules<S> rules;

  index_t child_vertices() const { return vertices + edges; }
};

// A plan's levels: the general path's (Level) or half-edge levels (TriangleLevel).
template <class S>
using AnyLevel = std::variant<Level<S>, TriangleLevel<S>>;

namespace detail {
// The edge point rule of Loop with the crease blend: a crease is (p_i + p_j)/2.
struct EdgeWeights {
  SPMESH_HD EdgeMask operator()(double w) const { return {w / 2 + (1 - w) * 3 / 8, (1 - w) / 8}; }
};

// Loop's smooth vertex mask as OpenSubdiv computes it: valence 6 exactly 5/8 and 1/16, others
// from beta in double (rules.md "Loop").
struct SmoothMask {
  SPMESH_HD VertexMask operator()(index_t n) const {
    VertexMask m;
    if (n == 6) {
      m.self = 0.625, m.ring = 0.0625;
    } else {
      const double beta = 0.375 + 0.25 * cos(2.0 * 3.14159265358979323846 / n);
      m.ring = (0.625 - beta * beta) / n;
      m.self = 1.0 - n * m.ring;
    }
    return m;
  }
};
}  // namespace detail

}  // namespace spmesh::schemes::loop
