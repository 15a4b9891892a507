// sqrt(3) build (Kobbelt 2000; paper appendix A): all topology work for L levels of a triangle
// mesh. Per level: the vertex adjacency E, the half-edge adjacency H = M M^T {Q_3}[position]
// (the oriented graph adjacency of Eq. 12, holding the face and corner of each directed edge),
// each vertex's weights, where the new points go, and the refined mesh matrix, in which every
// face's three children are joined to the new points across its edges: this is the edge flip,
// done on the triangle adjacency instead of on edges. No vertex data is touched. That is the
// general path; the front door's build takes the half-edge path (triangle_build.hpp) unless
// told otherwise.
#pragma once

#include "linalg/mmt.hpp"
#include "meshops/topology.hpp"
#include "schemes/sqrt3/plan.hpp"
#include "schemes/tags.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace spmesh::schemes::sqrt3 {

namespace detail {

// H's value for the directed edge i -> j: its position 3f + c in M (face f, corner c = slot_i).
struct HalfEdge {
  linalg::MeshView M;
  SPMESH_HD index_t operator()(const linalg::Collision& c) const {
    return M.begin(c.k) + c.slot_i;
  }
};

// Each vertex's weights from its row of E: Eq. 29, 30 inside; on the boundary fixed, or
// Kobbelt's (4, 19, 4) / 27 on a level that splits the boundary. An isolated vertex stays.
struct VertexRules {
  linalg::CompressedView<index_t> E;
  bool splits_boundary;
  double *self, *ring, *crease;
  index_t *u, *w;

  SPMESH_HD void operator()(index_t i) const {
    const index_t lo = E.begin(i), n = E.end(i) - lo;
    index_t bu = -1, bw = -1;  // the boundary neighbours
    for (index_t p = lo; p < lo + n; ++p) {
      if (E.values[p] != 1) continue;
      if (bu < 0) bu = E.indices[p];
      else if (bw < 0) bw = E.indices[p];
    }
    const VertexMask m = vertex_mask(n, bu, bw, splits_boundary);
    self[i] = m.self, ring[i] = m.ring, crease[i] = m.crease, u[i] = m.u, w[i] = m.w;
  }
};

// How many new points each face gets (1 or 2) and which edge it splits: on a level that splits
// the boundary, a face's boundary edge (there is at most one after a level that does not).
struct FacePoints {
  linalg::MeshView M;
  linalg::CompressedView<index_t> E;
  bool splits_boundary;
  index_t* count;
  std::int8_t* split_corner;

  SPMESH_HD void operator()(index_t f) const {
    const index_t* v = M.indices + M.begin(f);
    int corner = -1;
    for (int c = 0; c < 3 && splits_boundary && corner < 0; ++c)
      if (E.values[E.find(v[c], v[(c + 1) % 3])] == 1) corner = c;
    split_corner[f] = corner;
    count[f] = corner < 0 ? 1 : 2;
  }
};

// The three children of face f, one per corner c with edge v_c -> v_{c+1}: if the edge is
// inner, (v_c, x', x) with x and x' the new points next to it on either side (the flipped
// edge); a boundary edge left whole keeps (v_c, v_{c+1}, x); a split edge gives the middle
// triangle (p_l, p_r, v_{c+2}). x is the face's centroid, or on a face that splits its edge,
// the split point on the side of the corner.
struct RefineTriangles {
  linalg::MeshView M;
  linalg::CompressedView<index_t> H;
  NewPointRows points;
  index_t* child;  // 9 per face

  SPMESH_HD void operator()(index_t f) const {
    const index_t* v = M.indices + M.begin(f);
    const index_t b = points.split_of(f), first = points.first_of(f);
    index_t* out = child + 9 * std::int64_t(f);
    for (int c = 0; c < 3; ++c, out += 3) {
      const index_t next = v[(c + 1) % 3];
      if (c == b) {
        out[0] = first, out[1] = first + 1, out[2] = v[(c + 2) % 3];
        continue;
      }
      const index_t twin = H.find(next, v[c]);
      out[0] = v[c];
      out[1] = twin < 0 ? next : points.beside(H.values[twin]);
      out[2] = points.beside(3 * f + c);
    }
  }
};

}  // namespace detail

// One level: triangles M -> the level's operators and the child mesh; `splits_boundary`: the
// level cuts its boundary edges in three (Kobbelt's boundary rule).
template <class Exec, class S = typename Exec::space>
LevelResult<Level<S>> build_level(Exec& exec, linalg::MeshMatrix<S> M, bool splits_boundary) {
  using linalg::Array;
  Level<S> L;
  L.vertices = M.vertices, L.faces = M.faces, L.splits_boundary = splits_boundary;
  const index_t V = L.vertices, F = L.faces;
  L.E = meshops::edge_matrix(exec, M);
  {
    const index_t* faces_per_edge = L.E.values.data();
    L.edges = L.E.nnz() / 2;
    L.boundary_edges = exec.count_if(L.E.nnz(), [=] SPMESH_HD(index_t p) {
                         return faces_per_edge[p] == 1;
                       }) / 2;
  }

  L.vertex_self = Array<double, S>(V), L.vertex_ring = Array<double, S>(V);
  L.vertex_crease = Array<double, S>(V);
  L.boundary_u = Array<index_t, S>(V), L.boundary_w = Array<index_t, S>(V);
  exec.for_each(V, detail::VertexRules{L.E.view(), L.splits_boundary, L.vertex_self.data(),
                                       L.vertex_ring.data(), L.vertex_crease.data(),
                                       L.boundary_u.data(), L.boundary_w.data()});

  // 3F child triangles of 3 corners (this also bounds the at most 2F new points).
  checked_index(9 * std::int64_t(F), "sqrt3 child face corners");
  const index_t faces = 3 * F;
  L.first_point = Array<index_t, S>(F), L.split_corner = Array<std::int8_t, S>(F);
  exec.for_each(F, detail::FacePoints{M.view(), L.E.view(), L.splits_boundary,
                                      L.first_point.data(), L.split_corner.data()});
  const std::int64_t points = exec.exclusive_scan(L.first_point.data(), L.first_point.data(), F);
  const index_t V1 = checked_index(V + points, "sqrt3 child vertices");
  L.new_points = static_cast<index_t>(points);
  {
    index_t* first = L.first_point.data();
    exec.for_each(F, [=] SPMESH_HD(index_t f) { first[f] += V; });
  }

  // The refined mesh matrix: three triangles per triangle, joined across the parent's edges
  // through H.
  Array<index_t, S> offsets(faces + 1), indices(3 * faces);
  {
    index_t* o = offsets.data();
    exec.for_each(faces + 1, [=] SPMESH_HD(index_t f) { o[f] = 3 * f; });
    const auto H = linalg::mmt(exec, M, linalg::Circulant{1}, detail::HalfEdge{M.view()},
                               linalg::reduce::First{});
    exec.for_each(F, detail::RefineTriangles{M.view(), H.view(), new_point_rows(L),
                                             indices.data()});
  }
  L.M = std::move(M);
  return {std::move(L), linalg::MeshMatrix<S>(V1, std::move(offsets), std::move(indices)),
          Sharpness<S>{linalg::Coo<float, S>{V1, V1, {}, {}, {}}, {}}};
}

}  // namespace spmesh::schemes::sqrt3
