// Half-edge levels (paper section 4.1), shared by every surface scheme: the level (per
// half-edge its twin and edge, per vertex an outgoing half-edge, the crease matrix C kept
// sparse), how half-edges sit in faces, and the view kernels read with its ring walk. A child
// level follows from its parent by fixed local rules with no sort and no search (each scheme's
// build); the first level comes from any polygon mesh (first_level.hpp).
#pragma once

#include "linalg/array.hpp"
#include "linalg/intrinsics.hpp"
#include "schemes/creasing.hpp"

#include <cstdint>

namespace spmesh::schemes {

// The sparse crease matrix C of a half-edge level. `edges` (increasing ids, each with the
// half-edge that runs along it and its sharpness) holds every sharp edge, boundary edges among
// them, infinitely sharp. `special` (increasing, each with its vertex sharpness) holds every
// sharp vertex and every vertex at an end of a sharp edge, the only ones whose mask may not be
// the smooth one. The first level holds exactly those. A child level holds both children of
// every parent entry and the special vertex points and sharp edge points: supersets, in order,
// known without a search or a count, whose extra entries have sharpness 0 and take the smooth
// rules. So a child level is built with no host wait; the entries grow by 2 per level while the
// mesh grows by 4.
template <class S>
struct HalfEdgeSharpness {
  linalg::Array<index_t, S> edges, halves;
  linalg::Array<float, S> edge_values;
  linalg::Array<index_t, S> special;
  linalg::Array<float, S> special_values;
};

// The weight w of the point of sharp edge j of C.edges (the edge rule, read where it is used,
// so it takes no kernel of its own): a sharp edge whose two children stay sharp is a crease
// (w = 1), else w = s, its sharpness.
struct EdgeCrease {
  const float *child_at, *sharpness;
  SPMESH_HD double operator[](index_t j) const {
    return creasing::is_sharp(child_at[2 * j]) && creasing::is_sharp(child_at[2 * j + 1])
               ? 1.0
               : static_cast<double>(sharpness[j]);
  }
};

// The crease rules of a half-edge level (crease_rules.hpp's, on the sparse C): a VertexMask per
// special vertex (C.special; every other vertex takes the smooth mask) and each sharp edge's
// children's sharpness, from which edge_crease() gives the weight of its point.
template <class S>
struct HalfEdgeRules {
  linalg::Array<float, S> special_sharpness;  // vertex sharpness, boundary corners pinned
  linalg::Array<double, S> self, ring, crease;
  linalg::Array<index_t, S> crease_u, crease_w;
  linalg::Array<float, S> child_at;  // 2 per sharp edge: its children's sharpness (from, to end)
  // Per special vertex: 1 if its mask is the smooth one and it is not on the boundary, so that
  // eval's smooth vertex point stands (most of a child level's special vertices: their creases
  // decayed, or they are points of smooth edges kept in C).
  linalg::Array<std::uint8_t, S> smooth;
};

// A level on half-edges: each face corner is the half-edge from its vertex to the next corner's.
// Edge numbering is local: edge e's children are 2 e (at the start of its half-edge along) and
// 2 e + 1, then come the edges inside the parent's faces. Each scheme derives its levels from
// this (with their mesh matrix and child counts).
template <class S>
struct HalfEdgeLevel {
  index_t vertices = 0, faces = 0, edges = 0;
  linalg::Array<index_t, S> twin;       // per half-edge: the opposite half-edge, -1 on the boundary
  linalg::Array<index_t, S>
      edge_code;  // per half-edge: 2 e + 1 if it runs against edge e, else 2 e
  linalg::Array<index_t, S> vertex_edge;  // per vertex: an outgoing half-edge, the one without a
                                          // twin on the boundary; -1 for an unused vertex
  linalg::Array<index_t, S> unused;  // vertices in no face (kept where they are)
  HalfEdgeSharpness<S> C;
  HalfEdgeRules<S> rules;

  EdgeCrease edge_crease() const { return {rules.child_at.data(), C.edge_values.data()}; }
};

// How half-edges sit in faces of any size: through offsets and a face per half-edge (the first
// level's, and Catmull-Clark's polygon base level). Each scheme adds its fixed-order faces
// (found by arithmetic) with the same members.
struct PolygonFaces {
  const index_t *offsets, *face_of;
  SPMESH_HD index_t face(index_t h) const { return linalg::ldg(face_of + h); }
  SPMESH_HD index_t begin(index_t f) const { return linalg::ldg(offsets + f); }
  SPMESH_HD index_t size(index_t f) const {
    return linalg::ldg(offsets + f + 1) - linalg::ldg(offsets + f);
  }
  SPMESH_HD index_t next(index_t h) const {
    const index_t f = face(h);
    return h + 1 == linalg::ldg(offsets + f + 1) ? begin(f) : h + 1;
  }
  SPMESH_HD index_t prev(index_t h) const {
    const index_t f = face(h);
    return h == begin(f) ? linalg::ldg(offsets + f + 1) - 1 : h - 1;
  }
  // The slot of corner h's vertex point in its Catmull-Clark child quad: quads keep the parent
  // corner's slot (OpenSubdiv's orientation), other polygons start at slot 0.
  SPMESH_HD index_t slot(index_t h) const {
    const index_t f = face(h);
    return size(f) == 4 ? h - begin(f) : 0;
  }
};

// What kernels read of a level's topology.
template <class Faces>
struct HalfEdgeView : Faces {
  const index_t *corners, *twin, *edge_code, *vertex_edge;  // corners: the vertex of each corner
  index_t vertices, faces, edges;

  // visit(h, neighbour, face) for every edge at vertex v: h runs along the edge, neighbour is
  // its other end, face is the face of h on the vertex's side (-1 for the last edge of a
  // boundary vertex, whose face lies on the other side). Rotates from vertex_edge[v] face by face.
  template <class Visit>
  SPMESH_HD void for_each_edge(index_t v, Visit&& visit) const {
    for_each_edge_from(vertex_edge[v], visit);
  }
  // The same from v's vertex_edge `first` (-1: no edge).
  template <class Visit>
  SPMESH_HD void for_each_edge_from(index_t first, Visit&& visit) const {
    if (first < 0) return;
    index_t h = first;
    while (true) {
      visit(h, linalg::ldg(corners + this->next(h)), this->face(h));
      const index_t p = this->prev(h), t = linalg::ldg(twin + p);
      if (t < 0) {
        visit(p, linalg::ldg(corners + p), index_t(-1));
        return;
      }
      if (t == first) return;
      h = t;
    }
  }
  // The neighbours of boundary vertex v along the boundary: after v (the end of its outgoing
  // half-edge without a twin), and before v (where its walk ends); -1 for an inner vertex.
  SPMESH_HD index_t boundary_after(index_t v) const {
    const index_t h = vertex_edge[v];
    return h >= 0 && linalg::ldg(twin + h) < 0 ? linalg::ldg(corners + this->next(h)) : -1;
  }
  SPMESH_HD index_t boundary_before(index_t v) const {
    index_t before = -1;
    for_each_edge(v, [&](index_t, index_t other, index_t face) {
      if (face < 0) before = other;
    });
    return before;
  }
};

// How half-edges sit in triangles (Loop's and sqrt(3)'s levels): h = 3 f + a runs from corner a
// of face f to corner a + 1.
struct TriangleFaces {
  static constexpr int corners_per_face = 3;
  SPMESH_HD index_t face(index_t h) const { return h / 3; }
  SPMESH_HD index_t begin(index_t f) const { return 3 * f; }
  SPMESH_HD index_t size(index_t) const { return 3; }
  SPMESH_HD index_t next(index_t h) const { return h % 3 == 2 ? h - 2 : h + 1; }
  SPMESH_HD index_t prev(index_t h) const { return h % 3 == 0 ? h + 2 : h - 1; }
};
using TriangleView = HalfEdgeView<TriangleFaces>;

}  // namespace spmesh::schemes
