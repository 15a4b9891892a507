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
// cells. Their transposes follow from the same numbering (refined_transposes), so a refined level
// needs no sort either.
#pragma once

#include "linalg/intrinsics.hpp"
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

// The quad around a cell's edge (refined_operators' second kind of face): its number, and the
// cell's faces it turns from (`on`, taking the edge's far end on) and to (`off`), seen from the
// edge's lower corner.
struct EdgeQuad {
  index_t number, on, off;
};

// What the numbering of a refined level reads of its parent: the parent's operators, their
// transposes and its cells, and the numbers refined_operators gives the child edges and faces.
struct ParentLevel {
  index_t V, E, F, C;
  index_t sides, cell_sides, corners;  // nnz(d2) (the corner quads), nnz(d3), the cells' corners
  linalg::TernaryView d1, d2, d3, t1, t2, t3;
  CellsView cells;

  // The child level's counts: V' = V + E + F + C, E' = 2E + nnz(d2) + nnz(d3), F' = nnz(d2) + the
  // cells' edges (3 a corner, each met twice).
  index_t child_vertices() const { return V + E + F + C; }
  index_t child_edges() const { return 2 * E + sides + cell_sides; }
  index_t child_faces() const { return sides + 3 * corners / 2; }

  // The child edges: a half of edge e at its end v, from edge e's point to face f's, from face
  // f's point to cell c's.
  SPMESH_HD index_t half(index_t v, index_t e) const { return position_in_row(t1, v, e); }
  SPMESH_HD index_t edge_face(index_t e, index_t f) const { return 2 * E + position_in_row(t2, e, f); }
  SPMESH_HD index_t face_cell(index_t f, index_t c) const { return 2 * E + sides + position_in_row(t3, f, c); }
  // The vertex side p of its face starts at, in the face's orientation.
  SPMESH_HD index_t side_start(index_t p) const {
    return linalg::column_of(d1.columns[2 * d2.index(p) + (d2.value(0, p) > 0 ? 0 : 1)]);
  }
  // The position of edge e among face f's sides, and the side after position p in f's cycle.
  SPMESH_HD index_t side_of(index_t f, index_t e) const {
    index_t p = d2.begin(f);
    while (d2.index(p) != e) ++p;
    return p;
  }
  SPMESH_HD index_t next_side(index_t f, index_t p) const { return p + 1 < d2.end(f) ? p + 1 : d2.begin(f); }
  // Where cell c's vertex v is in its vertex list.
  SPMESH_HD int corner_of(index_t c, index_t v) const {
    int l = 0;
    while (cells.vertex(c, l) != v) ++l;
    return l;
  }
  // The first of cell c's edge quads (3 n / 2 of them, n its corners).
  SPMESH_HD index_t edge_quads_of(index_t c) const { return sides + 3 * cells.begin(c) / 2; }
  // The quad around edge e (between vertices u and w) of cell c.
  SPMESH_HD EdgeQuad edge_quad(index_t c, index_t u, index_t w) const {
    int l = corner_of(c, u), x = corner_of(c, w);
    if (x < l) {
      const int lower = x;
      x = l, l = lower;
    }
    const CellShape shape = cells.shape(c);
    const CornerFrame frame = corner_frame(shape, l);
    const int on = x == frame.a ? frame.ab : x == frame.b ? frame.bc : frame.ca;
    const int off = x == frame.a ? frame.ca : x == frame.b ? frame.ab : frame.bc;
    return {edge_quads_of(c) + shape.edge_between(l, x), d3.index(d3.begin(c) + on), d3.index(d3.begin(c) + off)};
  }
};

template <class S>
ParentLevel parent_level(const CellMesh<S>& mesh, const BoundaryOperators<S>& ops, const Transposes<S>& transposed) {
  return {ops.vertices(),       ops.edges(),          ops.faces(),          ops.cells(),
          ops.d2.nnz(),          ops.d3.nnz(),         mesh.indices.size(),  ops.d1.view(),
          ops.d2.view(),         ops.d3.view(),        transposed.t1.view(), transposed.t2.view(),
          transposed.t3.view(),  mesh.view()};
}

// Sorts row[0, n) by column (the signs kept): a refined transpose's short rows.
SPMESH_HD inline void sort_row(index_t* row, index_t n) {
  for (index_t i = 1; i < n; ++i)
    for (index_t j = i; j > 0 && linalg::column_of(row[j]) < linalg::column_of(row[j - 1]); --j) {
      const index_t held = row[j];
      row[j] = row[j - 1], row[j - 1] = held;
    }
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
  detail::for_each_entry(exec, C, [=] SPMESH_HD(index_t c) { return cell_at[c + 1] - cell_at[c]; },
                         [=] SPMESH_HD(index_t c, index_t corner) {
    const index_t begin = cell_at[c], faces = d3v.begin(c), l = corner;
    const CornerFrame f = corner_frame(view.shape(c), int(l));
    const index_t v = cell_vertex[begin + l];
    const index_t ab = d3v.index(faces + f.ab), bc = d3v.index(faces + f.bc), ca = d3v.index(faces + f.ca);
    const CornerSides at_ab = corner_sides(d1v, d2v, ab, v, cell_vertex[begin + f.a]);  // e_a, e_b
    const index_t e_c = face_edge(d1v, d2v, ca, v, cell_vertex[begin + f.c]);
    // Whole 16-byte stores: a GPU thread's child fills its sectors at once.
    index_t* h = child + 8 * (begin + l);
    linalg::store4(h, {{v, V + at_ab.toward, V + E + ab, V + at_ab.other}});
    linalg::store4(h + 4, {{V + e_c, V + E + ca, V + E + F + c, V + E + bc}});
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
  const detail::ParentLevel parent = detail::parent_level(mesh, ops, transposed);
  const index_t V = parent.V, E = parent.E, F = parent.F, C = parent.C, sides = parent.sides, corners = parent.corners;
  const index_t edges = parent.child_edges(), faces = parent.child_faces();
  const auto d1v = parent.d1, d2v = parent.d2, d3v = parent.d3, t1v = parent.t1, t2v = parent.t2, t3v = parent.t3;
  const index_t *cell_at = mesh.offsets.data(), *cell_vertex = mesh.indices.data();
  const CellsView view = mesh.view();

  BoundaryOperators<S> out;
  out.d1 = {edges, parent.child_vertices(), Array<index_t, S>(edges + 1), Array<index_t, S>(2 * std::size_t(edges))};
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


  // d2, the corner quads: at side k's start v, (v, the point of side k, the face point, the point
  // of side k - 1), each child edge + where it runs from its lower vertex.
  detail::for_each_entry(exec, F, [=] SPMESH_HD(index_t f) { return d2v.end(f) - d2v.begin(f); },
                         [=] SPMESH_HD(index_t f, index_t k) {
    const index_t begin = d2v.begin(f), n = d2v.end(f) - begin;
    const index_t v = parent.side_start(begin + k), e = d2v.index(begin + k);
    const index_t before = d2v.index(begin + (k + n - 1) % n);
    linalg::store4(d2_col + 4 * (begin + k),
                   {{signed_column(parent.half(v, e), 1), signed_column(parent.edge_face(e, f), 1),
                     signed_column(parent.edge_face(before, f), -1), signed_column(parent.half(v, before), -1)}});
  });
  // d2, the quads around the cells' edges, and d3. At corner l of cell c, with neighbours a, b, c
  // and faces ab, bc, ca (corner_frame), the child (l, e_a, f_ab, e_b, e_c, f_ca, P, f_bc) has
  // the hexahedron's faces (cells.hpp): ab's corner quad, the quad around edge (l, c), ca's corner
  // quad, the quads around (l, a) and (l, b), bc's corner quad. Around edge (l, x) the quad turns
  // e_x -> the face taking x on -> P -> the face coming to x, seen from corner l.
  // Lanes at every size: a corner's walks here are long enough that sharing a cell's corners
  // gains at large levels too (tuning.hpp).
  auto corners_of = [=] SPMESH_HD(index_t c) { return cell_at[c + 1] - cell_at[c]; };
  detail::for_each_entry<detail::entry_lanes<Exec>>(exec, C, corners_of, [=] SPMESH_HD(index_t c, index_t corner) {
    const index_t begin = cell_at[c], face_at = d3v.begin(c);
    const index_t around = parent.edge_quads_of(c);
    const CellShape shape = view.shape(c);
    auto face = [=](int local) { return d3v.index(face_at + local); };
    auto corner_quad = [=](int local, index_t v) {
      const index_t f = face(local);
      index_t k = d2v.begin(f);
      while (parent.side_start(k) != v) ++k;
      return signed_column(k, d3v.value(0, face_at + local));
    };
    const int l = int(corner);
    const CornerFrame frame = corner_frame(shape, l);
    const index_t v = cell_vertex[begin + l];
    // The quads around this corner's edges whose other end is higher: made here (an edge to
    // `to`, between faces `on` and `off`).
    auto edge_quad_from = [&](int to, int on, int off) {
      if (to < l) return;
      const index_t f_on = face(on), f_off = face(off);
      const index_t e = face_edge(d1v, d2v, f_on, v, cell_vertex[begin + to]);
      linalg::store4(d2_col + 4 * (around + shape.edge_between(l, to)),
                     {{signed_column(parent.edge_face(e, f_on), 1), signed_column(parent.face_cell(f_on, c), 1),
                       signed_column(parent.face_cell(f_off, c), -1), signed_column(parent.edge_face(e, f_off), -1)}});
    };
    edge_quad_from(frame.a, frame.ab, frame.ca);
    edge_quad_from(frame.b, frame.bc, frame.ab);
    edge_quad_from(frame.c, frame.ca, frame.bc);
    auto edge_quad = [=](int x) { return signed_column(around + shape.edge_between(l, x), l < x ? 1 : -1); };
    // Found first, then stored together: a GPU thread's row fills its sectors at once.
    const index_t faces_of_child[6] = {corner_quad(frame.ab, v), edge_quad(frame.c), corner_quad(frame.ca, v),
                                       edge_quad(frame.a),       edge_quad(frame.b), corner_quad(frame.bc, v)};
    index_t* child = d3_col + 6 * (begin + l);
    for (int i = 0; i < 6; ++i) child[i] = faces_of_child[i];
  });
  return out;
}

// The transposes of refined_operators(exec, mesh, ops, transposed) by index arithmetic: what
// transposes() of them gives (each row ascending, the signs kept), without sorting their
// entries. A row is written in order where the parent's rows give the order, and sorted in place
// where it is a face's sides or a cell's faces (a few entries).
template <class Exec, class S = typename Exec::space>
Transposes<S> refined_transposes(Exec& exec, const CellMesh<S>& mesh, const BoundaryOperators<S>& ops,
                                 const Transposes<S>& transposed) {
  using linalg::Array;
  using linalg::signed_column;
  const detail::ParentLevel parent = detail::parent_level(mesh, ops, transposed);
  const index_t V = parent.V, E = parent.E, F = parent.F, C = parent.C, sides = parent.sides, corners = parent.corners;
  const index_t cell_sides = parent.cell_sides;
  const index_t vertices = parent.child_vertices(), edges = parent.child_edges(), faces = parent.child_faces();
  const auto d1v = parent.d1, d2v = parent.d2, d3v = parent.d3, t1v = parent.t1, t2v = parent.t2, t3v = parent.t3;
  auto length = [] SPMESH_HD(const linalg::TernaryView& A, index_t row) { return A.end(row) - A.begin(row); };

  Transposes<S> out;
  out.t1 = {vertices, edges, Array<index_t, S>(vertices + 1), Array<index_t, S>(2 * std::size_t(edges))};
  out.t2 = {edges, faces, Array<index_t, S>(edges + 1), Array<index_t, S>(4 * std::size_t(faces))};
  out.t3 = {faces, corners, Array<index_t, S>(faces + 1), Array<index_t, S>(6 * std::size_t(corners))};

  // t1, the edges at each refined vertex (refine.hpp's order [V, E, F, C]): a vertex's halves
  // (it is their lower end); an edge point's two halves (higher) and its edges to its faces'
  // points (lower); a face point's edges from its sides' points (higher) and to its cells'
  // points (lower); a cell point's edges from its faces' points (higher).
  // Each block's offsets follow from the parent's rows that give its lengths: no scan.
  index_t *t1_at = out.t1.offsets.data(), *t1_col = out.t1.columns.data();
  exec.for_each(vertices + 1, [=] SPMESH_HD(index_t i) {
    if (i < V) t1_at[i] = t1v.begin(i);
    else if (i < V + E) t1_at[i] = 2 * E + 2 * (i - V) + t2v.begin(i - V);
    else if (i < V + E + F) t1_at[i] = 4 * E + sides + d2v.begin(i - V - E) + t3v.begin(i - V - E);
    else if (i < vertices) t1_at[i] = 4 * E + 2 * sides + cell_sides + d3v.begin(i - V - E - F);
    else t1_at[i] = 2 * edges;
  });
  exec.for_each(vertices, [=] SPMESH_HD(index_t i) {
    index_t* row = t1_col + t1_at[i];
    if (i < V) {
      for (index_t p = t1v.begin(i); p < t1v.end(i); ++p) *row++ = signed_column(p, -1);
    } else if (i < V + E) {
      const index_t e = i - V;
      *row++ = signed_column(parent.half(linalg::column_of(d1v.columns[2 * e]), e), 1);
      *row++ = signed_column(parent.half(d1v.columns[2 * e + 1], e), 1);
      for (index_t q = t2v.begin(e); q < t2v.end(e); ++q) *row++ = signed_column(2 * E + q, -1);
    } else if (i < V + E + F) {
      const index_t f = i - V - E;
      for (index_t p = d2v.begin(f); p < d2v.end(f); ++p) row[p - d2v.begin(f)] = parent.edge_face(d2v.index(p), f);
      detail::sort_row(row, length(d2v, f));
      row += length(d2v, f);
      for (index_t r = t3v.begin(f); r < t3v.end(f); ++r) *row++ = signed_column(2 * E + sides + r, -1);
    } else {
      const index_t c = i - V - E - F;
      for (index_t p = d3v.begin(c); p < d3v.end(c); ++p) row[p - d3v.begin(c)] = parent.face_cell(d3v.index(p), c);
      detail::sort_row(row, length(d3v, c));
    }
  });

  // t2, the faces at each refined edge. A half (v, e) lies in the corner quad at v of each face
  // at e: + where e's side starts at v there, - where it ends there (the quad after). An edge
  // point's edge into face f lies in f's corner quads at the ends of e's side (+ in the first,
  // - in the next) and in the quad around e in each cell at f; a face point's edge into cell c,
  // in the quads around f's sides in c. Around a cell's edge a quad takes its `on` face's edges
  // with + and its `off` face's with -.
  index_t *t2_at = out.t2.offsets.data(), *t2_col = out.t2.columns.data();
  exec.for_each(V, [=] SPMESH_HD(index_t v) {
    for (index_t p = t1v.begin(v); p < t1v.end(v); ++p) t2_at[p] = length(t2v, t1v.index(p));
  });
  exec.for_each(E, [=] SPMESH_HD(index_t e) {
    for (index_t q = t2v.begin(e); q < t2v.end(e); ++q) t2_at[2 * E + q] = 2 + length(t3v, t2v.index(q));
  });
  exec.for_each(F, [=] SPMESH_HD(index_t f) {
    for (index_t r = t3v.begin(f); r < t3v.end(f); ++r) t2_at[2 * E + sides + r] = length(d2v, f);
  });
  detail::lengths_to_offsets(exec, t2_at, edges, 4 * faces);
  detail::for_each_entry(exec, V, [=] SPMESH_HD(index_t v) { return length(t1v, v); },
                         [=] SPMESH_HD(index_t v, index_t j) {
    const index_t p = t1v.begin(v) + j, e = t1v.index(p);
    index_t* row = t2_col + t2_at[p];
    for (index_t q = t2v.begin(e); q < t2v.end(e); ++q) {
      const index_t f = t2v.index(q), k = parent.side_of(f, e);
      *row++ = parent.side_start(k) == v ? signed_column(k, 1) : signed_column(parent.next_side(f, k), -1);
    }
  });
  detail::for_each_entry(exec, E, [=] SPMESH_HD(index_t e) { return length(t2v, e); },
                         [=] SPMESH_HD(index_t e, index_t j) {
    const index_t u = linalg::column_of(d1v.columns[2 * e]), w = d1v.columns[2 * e + 1];
    const index_t q = t2v.begin(e) + j, f = t2v.index(q), k = parent.side_of(f, e), next = parent.next_side(f, k);
    index_t* row = t2_col + t2_at[2 * E + q];
    row[0] = next > k ? signed_column(k, 1) : signed_column(next, -1);
    row[1] = next > k ? signed_column(next, -1) : signed_column(k, 1);
    row += 2;
    for (index_t r = t3v.begin(f); r < t3v.end(f); ++r) {
      const detail::EdgeQuad quad = parent.edge_quad(t3v.index(r), u, w);
      *row++ = signed_column(quad.number, quad.on == f ? 1 : -1);
    }
  });
  // A face point's edge into cell c: an entry per side of the face, then the row sorted.
  detail::for_each_entry(exec, F, [=] SPMESH_HD(index_t f) { return length(t3v, f) * length(d2v, f); },
                         [=] SPMESH_HD(index_t f, index_t j) {
    const index_t r = t3v.begin(f) + j / length(d2v, f), p = d2v.begin(f) + j % length(d2v, f);
    const index_t e = d2v.index(p), u = linalg::column_of(d1v.columns[2 * e]), w = d1v.columns[2 * e + 1];
    const detail::EdgeQuad quad = parent.edge_quad(t3v.index(r), u, w);
    t2_col[t2_at[2 * E + sides + r] + p - d2v.begin(f)] = signed_column(quad.number, quad.on == f ? 1 : -1);
  });
  detail::for_each_entry(exec, F, [=] SPMESH_HD(index_t f) { return length(t3v, f); },
                         [=] SPMESH_HD(index_t f, index_t j) {
    detail::sort_row(t2_col + t2_at[2 * E + sides + t3v.begin(f) + j], length(d2v, f));
  });

  // t3, the children at each refined face: a corner quad of face f at v is in the child at v of
  // each cell at f, with the sign f has in that cell; the quad around a cell's edge between its
  // corners l < x is in the children at l (+) and x (-).
  index_t *t3_at = out.t3.offsets.data(), *t3_col = out.t3.columns.data();
  exec.for_each(F, [=] SPMESH_HD(index_t f) {
    for (index_t k = d2v.begin(f); k < d2v.end(f); ++k) t3_at[k] = length(t3v, f);
  });
  exec.for_each(faces - sides, [=] SPMESH_HD(index_t q) { t3_at[sides + q] = 2; });
  detail::lengths_to_offsets(exec, t3_at, faces, 6 * corners);
  exec.for_each(F, [=] SPMESH_HD(index_t f) {
    for (index_t k = d2v.begin(f); k < d2v.end(f); ++k) {
      const index_t v = parent.side_start(k);
      index_t* row = t3_col + t3_at[k];
      for (index_t r = t3v.begin(f); r < t3v.end(f); ++r) {
        const index_t c = t3v.index(r);
        *row++ = signed_column(parent.cells.begin(c) + parent.corner_of(c, v), t3v.value(0, r));
      }
    }
  });
  detail::for_each_entry(exec, C, [=] SPMESH_HD(index_t c) { return parent.cells.corners(c); },
                         [=] SPMESH_HD(index_t c, index_t corner) {
    const CellShape shape = parent.cells.shape(c);
    const index_t begin = parent.cells.begin(c), around = parent.edge_quads_of(c);
    const int l = int(corner);
    const CornerFrame frame = corner_frame(shape, l);
    auto quad_to = [&](int x) {
      if (x < l) return;
      index_t* row = t3_col + t3_at[around + shape.edge_between(l, x)];
      row[0] = signed_column(begin + l, 1), row[1] = signed_column(begin + x, -1);
    };
    quad_to(frame.a);
    quad_to(frame.b);
    quad_to(frame.c);
  });
  return out;
}

}  // namespace spmesh::solids
