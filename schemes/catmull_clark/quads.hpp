// Catmull-Clark on half-edge levels (paper section 4.1): every level after the first is all
// quads, so its mesh matrix is the reduced one (four vertex indices per face, no offsets, no
// values); a polygon base mesh keeps its offsets. The topology eval needs is kept per
// half-edge: its twin and its edge. A child level's
// topology follows from its parent's by fixed local rules (quad_build.hpp), with no sort and no
// search, and the crease matrix C is kept sparse: only sharp edges and vertices, and the
// special vertices whose mask is not the smooth one.
#pragma once

#include "linalg/formats.hpp"
#include "linalg/mesh_matrix.hpp"
#include "schemes/crease_rules.hpp"

#include <cstdint>

namespace spmesh::schemes::catmull_clark {

// Half-edge h = 4 f + a runs from corner a of quad f to corner a + 1.
SPMESH_HD inline index_t next_half(index_t h) { return (h & ~index_t(3)) | ((h + 1) & 3); }
SPMESH_HD inline index_t prev_half(index_t h) { return (h & ~index_t(3)) | ((h + 3) & 3); }

// A load through the GPU's read-only cache (the array must not change during the kernel), so
// that the compiler may reorder it past the kernel's stores.
template <class T>
SPMESH_HD inline T ldg(const T* p) {
#if defined(__CUDA_ARCH__)
  return __ldg(p);
#else
  return *p;
#endif
}

// The four values of a face (its vertices, twins or edge codes), as one 16-byte access on the
// GPU (per-face arrays start 16-byte aligned).
struct Index4 {
  index_t v[4];
};
SPMESH_HD inline Index4 load4(const index_t* p) {
#if defined(__CUDA_ARCH__)
  const int4 x = __ldg(reinterpret_cast<const int4*>(p));
  return {{x.x, x.y, x.z, x.w}};
#else
  return {{p[0], p[1], p[2], p[3]}};
#endif
}
SPMESH_HD inline void store4(index_t* p, const Index4& x) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<int4*>(p) = make_int4(x.v[0], x.v[1], x.v[2], x.v[3]);
#else
  for (int s = 0; s < 4; ++s) p[s] = x.v[s];
#endif
}
// (x0, x1, x2, x3) placed from slot a on: slot (a + k) % 4 gets x_k.
SPMESH_HD inline Index4 rotated(index_t a, index_t x0, index_t x1, index_t x2, index_t x3) {
  Index4 r;
#pragma unroll
  for (index_t s = 0; s < 4; ++s) {
    const index_t k = (s - a) & 3;
    r.v[s] = k == 0 ? x0 : k == 1 ? x1 : k == 2 ? x2 : x3;
  }
  return r;
}

// The sparse crease matrix C of a quad level: the sharp edges (ids increasing, each with the
// half-edge that runs along it) and the sharp vertices (increasing). Boundary edges are in it,
// infinitely sharp. `special` (increasing) holds every vertex at an end of a sharp edge or sharp
// itself, the only ones whose mask may not be the smooth one; on a child level it is the
// parent's special vertex points and sharp edge points, a superset known without a search.
template <class S>
struct QuadSharpness {
  linalg::Array<index_t, S> edges, halves;
  linalg::Array<float, S> edge_values;
  linalg::Array<index_t, S> vertices;
  linalg::Array<float, S> vertex_values;
  linalg::Array<index_t, S> special;
};

// The crease rules of a quad level (crease_rules.hpp's, on the sparse C): a VertexMask per
// special vertex (C.special; every other vertex takes the smooth mask) and the weight w of each
// sharp edge's point.
template <class S>
struct QuadRules {
  linalg::Array<double, S> edge_crease;
  linalg::Array<float, S> special_sharpness;  // vertex sharpness, boundary corners pinned
  linalg::Array<double, S> self, ring, crease;
  linalg::Array<index_t, S> crease_u, crease_w;
  linalg::Array<float, S> child_at;  // 2 per sharp edge: its children's sharpness (from, to end)
};

// A level on half-edges: each face corner is the half-edge from its vertex to the next corner's.
// Child vertex order is the general Level's: vertex points [0, V), face points [V, V + F),
// edge points [V + F, V + F + E); child face h is the quad at corner h (its corners: the
// vertex point, the edge point of h, the face point, the edge point of the previous
// half-edge). Edge numbering is local: edge e's children are 2 e (at the start of its
// half-edge along) and 2 e + 1, then corner h's inner edge is 2 E + h.
template <class S>
struct HalfEdgeLevel {
  index_t vertices = 0, faces = 0, edges = 0;
  linalg::Array<index_t, S> twin;       // per half-edge: the opposite half-edge, -1 on the boundary
  linalg::Array<index_t, S> edge_code;  // per half-edge: 2 e + 1 if it runs against edge e, else 2 e
  linalg::Array<index_t, S> vertex_edge;  // per vertex: an outgoing half-edge, the one without a
                                          // twin on the boundary; -1 for an unused vertex
  linalg::Array<index_t, S> unused;  // vertices in no face (kept where they are)
  QuadSharpness<S> C;
  QuadRules<S> rules;

  index_t child_vertices() const { return vertices + faces + edges; }
};

// A quad level (every level after the first): half-edge h = 4 f + a, found by arithmetic.
template <class S>
struct QuadLevel : HalfEdgeLevel<S> {
  linalg::ReducedMeshMatrix<S> M;  // order 4
  // Per face: bit a set if half-edge 4 f + a is its start vertex's vertex_edge, so that eval
  // can walk every vertex's ring in face order (neighbouring threads, neighbouring faces).
  linalg::Array<std::uint8_t, S> starts;
};

// A polygon level (the base mesh when it is not all quads): faces found through M's offsets
// and a face per half-edge.
template <class S>
struct PolygonLevel : HalfEdgeLevel<S> {
  linalg::MeshMatrix<S> M;
  linalg::Array<index_t, S> face_of;  // per half-edge
};

// How half-edges sit in faces: faces of four corners, h = 4 f + a...
struct QuadFaces {
  SPMESH_HD index_t face(index_t h) const { return h >> 2; }
  SPMESH_HD index_t begin(index_t f) const { return 4 * f; }
  SPMESH_HD index_t size(index_t) const { return 4; }
  SPMESH_HD index_t next(index_t h) const { return next_half(h); }
  SPMESH_HD index_t prev(index_t h) const { return prev_half(h); }
  // The slot of corner h's vertex point in its child quad: quads keep the parent corner's slot
  // (OpenSubdiv's orientation), other polygons start at slot 0.
  SPMESH_HD index_t slot(index_t h) const { return h & 3; }
};
// ... or any polygons, through offsets and a face per half-edge.
struct PolygonFaces {
  const index_t *offsets, *face_of;
  SPMESH_HD index_t face(index_t h) const { return ldg(face_of + h); }
  SPMESH_HD index_t begin(index_t f) const { return ldg(offsets + f); }
  SPMESH_HD index_t size(index_t f) const { return ldg(offsets + f + 1) - ldg(offsets + f); }
  SPMESH_HD index_t next(index_t h) const {
    const index_t f = face(h);
    return h + 1 == ldg(offsets + f + 1) ? begin(f) : h + 1;
  }
  SPMESH_HD index_t prev(index_t h) const {
    const index_t f = face(h);
    return h == begin(f) ? ldg(offsets + f + 1) - 1 : h - 1;
  }
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
      visit(h, ldg(corners + this->next(h)), this->face(h));
      const index_t p = this->prev(h), t = ldg(twin + p);
      if (t < 0) {
        visit(p, ldg(corners + p), index_t(-1));
        return;
      }
      if (t == first) return;
      h = t;
    }
  }
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

// The position of `key` in the increasing keys[0, n), or -1.
template <class K>
SPMESH_HD index_t find_sorted(const K* keys, index_t n, K key) {
  index_t lo = 0, hi = n;
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && keys[lo] == key ? lo : -1;
}

}  // namespace spmesh::schemes::catmull_clark
