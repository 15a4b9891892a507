// sqrt(3) build on half-edge levels (triangles.hpp, half_edges/): the first level from the
// base triangles, then each child level from its parent by local rules, one thread per child
// face, with no sort and no search. docs/half_edges.md, "sqrt(3)", has the cases.
#pragma once

#include "schemes/half_edges/first_level.hpp"
#include "schemes/half_edges/inherit.hpp"
#include "schemes/sqrt3/plan.hpp"
#include "schemes/sqrt3/triangles.hpp"
#include "schemes/triangles.hpp"

#include <cstdint>
#include <utility>

namespace spmesh::schemes::sqrt3 {

// The first level on half-edges (first_half_edge_level's twins and outgoing half-edges) of a
// triangle mesh with smooth sharpness C. Throws not_triangles' InputError for a mesh that is not
// all triangles.
template <class Exec, class S = typename Exec::space>
TriangleLevel<S> triangle_level(Exec& exec, linalg::MeshMatrix<S> M, const Sharpness<S>& C) {
  HalfEdgeLevel<S> first;
  auto faces = first_half_edge_level(exec, first, M, C, 3);
  if (faces.other_faces > 0)
    throw not_triangles(exec, M, faces.first_other, faces.other_faces, "sqrt3");
  TriangleLevel<S> L;
  L.vertices = M.vertices, L.faces = M.faces;
  L.boundary_edges = first.C.edges.size();  // with no creases, the sharp edges are the boundary
  L.edges = first.edges;
  L.twin = std::move(first.twin), L.vertex_edge = std::move(first.vertex_edge);
  L.unused = std::move(first.unused);
  L.starts = std::move(faces.starts);
  L.M = linalg::ReducedMeshMatrix<S>(M.vertices, 3, std::move(M.indices));
  return L;
}

// Where L's new points go: on a level that splits the boundary, each face with a boundary edge
// (exactly one, after a level that does not) cuts it and gets two points, F + B in all; else
// one per face.
template <class Exec, class S = typename Exec::space>
void place_new_points(Exec& exec, TriangleLevel<S>& L) {
  const index_t F = L.faces, V = L.vertices;
  if (!L.splits_boundary) {
    L.new_points = F;
    return;
  }
  L.first_point = linalg::Array<index_t, S>(F);
  L.split_corner = linalg::Array<std::int8_t, S>(F);
  const index_t* twin = L.twin.data();
  index_t* first = L.first_point.data();
  std::int8_t* split = L.split_corner.data();
  exec.for_each(F, [=] SPMESH_HD(index_t f) {
    int b = -1;
    for (int c = 2; c >= 0; --c)
      if (twin[3 * f + c] < 0) b = c;
    split[f] = static_cast<std::int8_t>(b);
    first[f] = b < 0 ? 1 : 2;
  });
  // Every face with a boundary edge has exactly one, so the total is known: no wait.
  exec.exclusive_scan(first, first, F, static_cast<index_t*>(nullptr));
  L.new_points = checked_index(std::int64_t(F) + L.boundary_edges, "sqrt3 new points");
  exec.for_each(F, [=] SPMESH_HD(index_t f) { first[f] += V; });
}

namespace detail {

// One thread per child face h (child_triangle: the child at parent half-edge h = 3 f + c, (v_c,
// A_c, S_c), or the middle (p_l, p_r, v_(b+2)) where f cuts edge b). Its half-edge s is 3 h + s,
// so every twin is found from the parent's twins and the neighbours' cuts (docs/half_edges.md).
// Writes are 12 bytes per array and thread, side by side, not a thread per parent face writing
// 36 bytes at a stride of 36 (bench/RESULTS.md, Tuning choices:
// sqrt3::detail::RefineHalfEdgeTriangles). `twin` null stops at the faces (the last level).
struct RefineHalfEdgeTriangles {
  TriangleView t;
  NewPointRows points;
  const std::uint8_t* starts;  // the parent's
  index_t* triangles;
  index_t *twin, *vertex_edge;
  std::uint8_t* child_starts;

  // The child half-edge of q's face running from its new point beside q to q's end vertex (the
  // spoke that meets q's twin's child at slot 0), or -1 where that is a boundary edge: q's
  // face cuts the edge before q, so the spoke is the edge's first third.
  SPMESH_HD index_t spoke_to_end(index_t q) const {
    const index_t g = q / 3, c = q - 3 * g;
    const int b = points.split_of(g);
    if (b < 0) return 3 * t.next(q) + 2;
    return c == (b + 1) % 3 ? 3 * (3 * g + b) + 1 : -1;
  }

  SPMESH_HD void operator()(index_t h) const {
    const index_t f = h / 3, c = h - 3 * f, next = t.next(h), prev = t.prev(h);
    const int b = points.split_of(f);
    const index_t x = points.first_of(f);
    const Triangle child = child_triangle(t, points, h);
    index_t* tri = triangles + 3 * std::int64_t(h);
    tri[0] = child.v[0], tri[1] = child.v[1], tri[2] = child.v[2];
    if (!twin) return;
    index_t* out = twin + 3 * std::int64_t(h);
    if (c == b) {  // the middle: (p_l, p_r, v_(b+2))
      // The middle third, the spoke p_r v_(b+2) across edge b + 1, the spoke v_(b+2) p_l.
      out[0] = -1, out[1] = 3 * linalg::ldg(t.twin + next), out[2] = 3 * prev + 2;
      vertex_edge[x] = 3 * h, child_starts[h] = 1;  // p_l -> p_r, on the boundary
      return;
    }
    const index_t v = child.v[0], g = linalg::ldg(t.twin + h);
    // Slot 0, v_c -> A_c: a boundary edge, or the spoke of the face across.
    out[0] = g < 0 ? -1 : spoke_to_end(g);
    // Slot 1, A_c -> S_c: the flipped edge, or the spoke to v_(c+1) of a boundary edge left
    // whole.
    out[1] = g < 0 ? 3 * next + 2 : 3 * g + 1;
    // Slot 2, S_c -> v_c: on a face that cuts, the last third of the cut edge (c = b + 1) or the
    // middle's spoke (c = b + 2); else the spoke of the face across edge c - 1, or on a boundary
    // edge left whole, slot 1 of its child.
    if (b >= 0) {
      out[2] = next == 3 * f + b ? 3 * next + 2 : -1;
    } else {
      const index_t gp = linalg::ldg(t.twin + prev);
      out[2] = gp >= 0 ? 3 * gp : 3 * prev + 1;
    }
    // v_c's outgoing half-edge: slot 0, where v_c's parent one is h (except when h is cut: then
    // the face before takes it), or where slot 0 is the first third of a cut edge. The new
    // points': the centroid's slot 2 of child 0; p_r's slot 2 of child b + 1 (p_r -> v_(b+1),
    // on the boundary; p_l's is the middle's).
    std::uint8_t bits = 0;
    if (((starts[f] >> c) & 1) != 0 || (g >= 0 && out[0] < 0)) vertex_edge[v] = 3 * h, bits |= 1;
    if ((b < 0 && c == 0) || (b >= 0 && prev == 3 * f + b))
      vertex_edge[x + (b < 0 ? 0 : 1)] = 3 * h + 2, bits |= 4;
    child_starts[h] = bits;
  }
};

}  // namespace detail

// The child of L (after place_new_points): its triangles and, with `topology`, the rest of its
// level (twins, outgoing half-edges, starts, unused vertices).
template <class Exec, class S = typename Exec::space>
TriangleLevel<S> refine_triangles(Exec& exec, const TriangleLevel<S>& L, bool topology) {
  using linalg::Array;
  const index_t faces = checked_index(3 * std::int64_t(L.faces), "sqrt3 child faces");
  const index_t halves = checked_index(3 * std::int64_t(faces), "sqrt3 child face corners");
  const index_t V1 = checked_index(std::int64_t(L.vertices) + L.new_points, "sqrt3 child vertices");
  Array<index_t, S> triangles(halves);
  TriangleLevel<S> child;
  child.vertices = V1, child.faces = faces;
  child.boundary_edges = L.splits_boundary ? 3 * L.boundary_edges : L.boundary_edges;
  child.edges = checked_index(std::int64_t(L.edges) + 3 * std::int64_t(L.faces) +
                                  (L.splits_boundary ? L.boundary_edges : 0),
                              "sqrt3 child edges");
  if (topology) {
    child.twin = Array<index_t, S>(halves), child.vertex_edge = Array<index_t, S>(V1);
    child.starts = Array<std::uint8_t, S>(faces);
  }
  exec.for_each(3 * L.faces, detail::RefineHalfEdgeTriangles{
                             view(L), new_point_rows(L), L.starts.data(), triangles.data(),
                             child.twin.data(), child.vertex_edge.data(), child.starts.data()});
  if (topology) inherit_unused(exec, L, child);
  child.M = linalg::ReducedMeshMatrix<S>(V1, 3, std::move(triangles));
  return child;
}

}  // namespace spmesh::schemes::sqrt3
