// The next level's cells and boundary operators by index arithmetic (no identification pass):
// every refined vertex, edge, face and cell is named by what it came from (vertices [V, E, F, C],
// refine.hpp's points in that order; a child hexahedron at each corner of each cell in order).
//
// Edges, E' = 2E + nnz(d2) + nnz(d3), in (lower, higher) vertex order as boundary_operators
// numbers them: vertex v's halves (v, e) in t1's row of v, then each edge point's edges to its
// faces' points in t2's row, then each face point's edges to its cells' points in t3's row.
// Faces, F' = nnz(d2) + (the cells' edges): first a quad at each corner of each face (at the
// start of each side of d2's rows, in the face's orientation), then a quad around each edge of
// each cell (edge point, face point, cell point, face point; CellShape::edge_between numbers a cell's edges),
// oriented as the child at its lower corner sees it from outside. Each face is so oriented as
// the lowest-numbered child holding it sees it, as boundary_operators orients faces; only the
// faces' numbering (and where each cycle starts) differ from boundary_operators of the refined
// cells.
#pragma once

#include "solids/topology.hpp"

namespace spmesh::solids {

namespace detail {

// The position p in row `row` of a matrix whose rows ascend, with column `column` there.
SPMESH_HD inline index_t position_in_row(const linalg::TernaryView& A, index_t row, index_t column) {
  index_t lo = A.begin(row), hi = A.end(row);
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    if (A.index(mid) < column) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

}  // namespace detail

// The refined cells of one level, all hexahedra, one at each corner of each cell in order: at
// corner v of cell c, (v, e_a, f_ab, e_b, e_c, f_ca, P_c, f_bc) over the refined vertices
// [V, E, F, C] (corner_frame names a, b, c and the faces ab, bc, ca).
template <class Exec, class S = typename Exec::space>
CellMesh<S> refined_cells(Exec& exec, const CellMesh<S>& mesh, const BoundaryOperators<S>& ops) {
  using linalg::Array;
  const index_t V = ops.vertices(), E = ops.edges(), F = ops.faces(), C = ops.cells();
  const auto d1v = ops.d1.view(), d2v = ops.d2.view(), d3v = ops.d3.view();
  const index_t *cell_at = mesh.offsets.data(), *cell_vertex = mesh.indices.data();
  const CellsView view = mesh.view();
  const index_t children = mesh.indices.size();
  CellMesh<S> out{V + E + F + C, Array<index_t, S>(children + 1), Array<index_t, S>(8 * std::int64_t(children))};
  index_t *child_at = out.offsets.data(), *child = out.indices.data();
  exec.for_each(children + 1, [=] SPMESH_HD(index_t i) { child_at[i] = 8 * i; });
  exec.for_each(C, [=] SPMESH_HD(index_t c) {
    const index_t begin = cell_at[c], corners = cell_at[c + 1] - begin, faces = d3v.begin(c);
    const CellShape shape = view.shape(c);
    for (int l = 0; l < corners; ++l) {
      const CornerFrame f = corner_frame(shape, l);
      const index_t v = cell_vertex[begin + l];
      index_t* h = child + 8 * (begin + l);
      const index_t ab = d3v.index(faces + f.ab), bc = d3v.index(faces + f.bc), ca = d3v.index(faces + f.ca);
      h[0] = v;
      h[1] = V + face_edge(d1v, d2v, ab, v, cell_vertex[begin + f.a]);
      h[2] = V + E + ab;
      h[3] = V + face_edge(d1v, d2v, ab, v, cell_vertex[begin + f.b]);
      h[4] = V + face_edge(d1v, d2v, ca, v, cell_vertex[begin + f.c]);
      h[5] = V + E + ca;
      h[6] = V + E + F + c;
      h[7] = V + E + bc;
    }
  });
  return out;
}

// The operators of refined_cells(exec, mesh, ops), from the parent's operators and their
// transposes.
template <class Exec, class S = typename Exec::space>
BoundaryOperators<S> refined_operators(Exec& exec, const CellMesh<S>& mesh, const BoundaryOperators<S>& ops,
                                       const Transposes<S>& transposed) {
  using linalg::Array;
  using linalg::signed_column;
  const index_t V = ops.vertices(), E = ops.edges(), F = ops.faces(), C = ops.cells();
  const index_t sides = ops.d2.nnz(), cell_sides = ops.d3.nnz(), corners = mesh.indices.size();
  const index_t edges = 2 * E + sides + cell_sides, faces = sides + 3 * corners / 2;
  const auto d1v = ops.d1.view(), d2v = ops.d2.view(), d3v = ops.d3.view(), t1v = transposed.t1.view(),
             t2v = transposed.t2.view(), t3v = transposed.t3.view();
  const index_t *cell_at = mesh.offsets.data(), *cell_vertex = mesh.indices.data();
  const CellsView view = mesh.view();

  BoundaryOperators<S> out;
  out.d1 = {edges, V + E + F + C, Array<index_t, S>(edges + 1), Array<index_t, S>(2 * std::size_t(edges))};
  out.d2 = {faces, edges, Array<index_t, S>(faces + 1), Array<index_t, S>(4 * std::size_t(faces))};
  out.d3 = {corners, faces, Array<index_t, S>(corners + 1), Array<index_t, S>(6 * std::size_t(corners))};
  index_t *d1_at = out.d1.offsets.data(), *d1_col = out.d1.columns.data(), *d2_at = out.d2.offsets.data(),
          *d2_col = out.d2.columns.data(), *d3_at = out.d3.offsets.data(), *d3_col = out.d3.columns.data();
  exec.for_each(edges + 1, [=] SPMESH_HD(index_t e) { d1_at[e] = 2 * e; });
  exec.for_each(faces + 1, [=] SPMESH_HD(index_t f) { d2_at[f] = 4 * f; });
  exec.for_each(corners + 1, [=] SPMESH_HD(index_t c) { d3_at[c] = 6 * c; });

  // d1: an edge from its lower vertex (-1) to its higher (+1).
  auto edge = [=] SPMESH_HD(index_t child, index_t low, index_t high) {
    d1_col[2 * child] = signed_column(low, -1), d1_col[2 * child + 1] = high;
  };
  exec.for_each(V, [=] SPMESH_HD(index_t v) {
    for (index_t p = t1v.begin(v); p < t1v.end(v); ++p) edge(p, v, V + t1v.index(p));
  });
  exec.for_each(E, [=] SPMESH_HD(index_t e) {
    for (index_t p = t2v.begin(e); p < t2v.end(e); ++p) edge(2 * E + p, V + e, V + E + t2v.index(p));
  });
  exec.for_each(F, [=] SPMESH_HD(index_t f) {
    for (index_t p = t3v.begin(f); p < t3v.end(f); ++p) edge(2 * E + sides + p, V + E + f, V + E + F + t3v.index(p));
  });

  // The child edges of the four kinds: a half of edge e at its end v, from edge e's point to face
  // f's, from face f's point to cell c's.
  auto half = [=] SPMESH_HD(index_t v, index_t e) { return detail::position_in_row(t1v, v, e); };
  auto edge_face = [=] SPMESH_HD(index_t e, index_t f) { return 2 * E + detail::position_in_row(t2v, e, f); };
  auto face_cell = [=] SPMESH_HD(index_t f, index_t c) {
    return 2 * E + sides + detail::position_in_row(t3v, f, c);
  };
  // The vertex side k of face f starts at, in the face's orientation.
  auto side_start = [=] SPMESH_HD(index_t p) {
    const index_t e = d2v.index(p);
    return linalg::column_of(d1v.columns[2 * e + (d2v.value(0, p) > 0 ? 0 : 1)]);
  };

  // d2, the corner quads: at side k's start v, (v, the point of side k, the face point, the point
  // of side k - 1), each child edge + where it runs from its lower vertex.
  exec.for_each(F, [=] SPMESH_HD(index_t f) {
    const index_t begin = d2v.begin(f), n = d2v.end(f) - begin;
    for (index_t k = 0; k < n; ++k) {
      const index_t v = side_start(begin + k), e = d2v.index(begin + k), before = d2v.index(begin + (k + n - 1) % n);
      index_t* quad = d2_col + 4 * (begin + k);
      quad[0] = signed_column(half(v, e), 1);
      quad[1] = signed_column(edge_face(e, f), 1);
      quad[2] = signed_column(edge_face(before, f), -1);
      quad[3] = signed_column(half(v, before), -1);
    }
  });
  // d2, the quads around the cells' edges, and d3. At corner l of cell c, with neighbours a, b, c
  // and faces ab, bc, ca (corner_frame), the child (l, e_a, f_ab, e_b, e_c, f_ca, P, f_bc) has
  // the hexahedron's faces (cells.hpp): ab's corner quad, the quad around edge (l, c), ca's corner
  // quad, the quads around (l, a) and (l, b), bc's corner quad. Around edge (l, x) the quad turns
  // e_x -> the face taking x on -> P -> the face coming to x, seen from corner l.
  exec.for_each(C, [=] SPMESH_HD(index_t c) {
    const index_t begin = cell_at[c], n = cell_at[c + 1] - begin, face_at = d3v.begin(c);
    const index_t around = sides + 3 * begin / 2;  // this cell's edge quads
    const CellShape shape = view.shape(c);
    auto face = [=](int local) { return d3v.index(face_at + local); };
    auto corner_quad = [=](int local, index_t v) {
      const index_t f = face(local);
      index_t k = d2v.begin(f);
      while (side_start(k) != v) ++k;
      return signed_column(k, d3v.value(0, face_at + local));
    };
    for (int l = 0; l < n; ++l) {
      const CornerFrame frame = corner_frame(shape, l);
      const index_t v = cell_vertex[begin + l];
      // The quads around this corner's edges whose other end is higher: made here (an edge to
      // `to`, between faces `on` and `off`).
      auto edge_quad_from = [&](int to, int on, int off) {
        if (to < l) return;
        const index_t f_on = face(on), f_off = face(off);
        const index_t e = face_edge(d1v, d2v, f_on, v, cell_vertex[begin + to]);
        index_t* quad = d2_col + 4 * (around + shape.edge_between(l, to));
        quad[0] = signed_column(edge_face(e, f_on), 1);
        quad[1] = signed_column(face_cell(f_on, c), 1);
        quad[2] = signed_column(face_cell(f_off, c), -1);
        quad[3] = signed_column(edge_face(e, f_off), -1);
      };
      edge_quad_from(frame.a, frame.ab, frame.ca);
      edge_quad_from(frame.b, frame.bc, frame.ab);
      edge_quad_from(frame.c, frame.ca, frame.bc);
      auto edge_quad = [=](int x) {
        return signed_column(around + shape.edge_between(l, x), l < x ? 1 : -1);
      };
      index_t* child = d3_col + 6 * (begin + l);
      child[0] = corner_quad(frame.ab, v);
      child[1] = edge_quad(frame.c);
      child[2] = corner_quad(frame.ca, v);
      child[3] = edge_quad(frame.a);
      child[4] = edge_quad(frame.b);
      child[5] = corner_quad(frame.bc, v);
    }
  });
  return out;
}

}  // namespace spmesh::solids
