// What a Catmull-Clark build hands to eval: per level the topology matrices of paper section
// 3.2 (M, E, F's faces per edge), the crease matrix of section 3.3, and the weights the crease
// rules give each edge and vertex point. No vertex data.
#pragma once

#include "linalg/formats.hpp"
#include "linalg/mesh_matrix.hpp"
#include "schemes/catmull_clark/masks.hpp"
#include "schemes/catmull_clark/patches.hpp"
#include "schemes/catmull_clark/quads.hpp"
#include "schemes/crease_rules.hpp"
#include "schemes/plan.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace spmesh::schemes {
struct CatmullClark;  // the scheme's traits: scheme.hpp
}  // namespace spmesh::schemes

namespace spmesh::schemes::catmull_clark {

// One level of refinement, from a parent mesh of `vertices`, `faces` and `edges` to its child.
// Child vertex order (OpenSubdiv's): vertex points [0, V), face points [V, V + F), edge
// points [V + F, V + F + E). Child face order: the children of face 0 in corner order, then of
// face 1, ...; so child face p is the corner at position p of M.
template <class S>
struct Level {
  index_t vertices = 0, faces = 0, edges = 0;
  linalg::MeshMatrix<S> M;              // the parent mesh (polygons at level 0, then quads)
  linalg::Csr<index_t, S> M_rows;       // M by rows: the faces around each vertex (Eq. 17)
  linalg::Csr<index_t, S> E;            // Eq. 8: vertex adjacency, values = faces per edge
  linalg::Array<double, S> inv_order;   // 1 / c_f per face (Eq. 5, 6)

  // Edges in the order of E's upper triangle; their faces F(i, j) and F(j, i) (Eq. 12; -1:
  // none, on a boundary).
  linalg::Array<index_t, S> edge_from, edge_to, edge_face0, edge_face1;
  // The crease rules of this level (crease_rules.hpp): edge points are
  // (1 + w)/4 (p_i + p_j) + (1 - w)/4 (f_0 + f_1), w = rules.edge_crease (0 smooth, Eq. 2; 1
  // crease; between: a semi-sharp edge of sharpness w < 1 blended as OpenSubdiv does); vertex
  // points are a p_i + b (sum of 1-ring neighbours + sum of adjacent face points) + d (p_u +
  // p_w) (Eq. 14 with the crease masks; smooth: a = (n-2)/n, b = 1/n^2). rules also holds this
  // level's crease matrix C as sharpness per edge and per vertex.
  CreaseRules<S> rules;

  index_t child_vertices() const { return vertices + faces + edges; }
};


// A plan's levels: the general path's (Level), or half-edge levels: a polygon base level
// (PolygonLevel), then quad levels (QuadLevel).
template <class S>
using AnyLevel = std::variant<Level<S>, PolygonLevel<S>, QuadLevel<S>>;

// What a Catmull-Clark plan holds besides its levels: the patches eval takes its last levels by
// (patches.hpp; build chooses them, choose_patches).
template <class S>
struct PlanPatches {
  Patches<S> patches;
};

template <class S>
using Plan = schemes::Plan<CatmullClark, S>;

}  // namespace spmesh::schemes::catmull_clark
