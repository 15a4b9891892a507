// The weights of one level of Catmull-Clark solid refinement (refine.hpp states the rules),
// written once and read by both of its forms: eval's products (refine_points, each weight the
// factor of a term in a sum over an operator's row) and the level matrix S_l (refinement.hpp,
// each weight a matrix entry).
//
// Each weight is what one *visit* of a term contributes, in the walk the products make: a cell
// point is reached from a vertex through (edge, face, cell) 6 times, a face centroid from an edge
// end twice, so the weights below carry those counts.
#pragma once

#include "linalg/lanes.hpp"
#include "schemes/catmull_clark/masks.hpp"
#include "solids/cells.hpp"
#include "solids/sharpness.hpp"
#include "solids/topology.hpp"

namespace spmesh::solids {

// The rule at vertices on one extraordinary edge line (docs/rules.md, "Catmull-Clark solids").
enum class VertexRule { tensor_product, joy_maccracken };

struct RefineOptions {
  VertexRule vertex_rule = VertexRule::tensor_product;
  // How semi-sharp creases on the boundary surface decay (sharpness.hpp).
  schemes::CreaseMethod crease = schemes::CreaseMethod::uniform;
};

// What the weights read of a level, beyond its topology: the boundary flags, what meets each
// vertex (its edges, boundary edges, faces and cells) and the two edges of each vertex on one
// extraordinary edge line (-1 elsewhere).
template <class S = linalg::Host>
struct LevelWeights {
  BoundaryFlags<S> flags;
  linalg::Array<index_t, S> edges_at, boundary_edges_at, faces_at, cells_at, line_edges;
};

namespace detail {

// What meets each vertex, counted through its edges in one pass, exactly in integers: each face
// at v is met through its two edges at v, each cell 6 times (three edges at a corner, two of the
// cell's faces on each). The edges are shared among the item's lanes (share_entries), their
// counts summed.
template <int G>
struct VertexCounts {
  index_t V;
  linalg::TernaryView t1, t2, t3;
  const char* edge_on;
  index_t *edges, *boundary_edges, *faces, *cells;

  SPMESH_HD void operator()(index_t v, int lane) const {
    index_t on = 0, face_sides = 0, cell_sides = 0;
    for (index_t p = v < V ? t1.begin(v) + lane : 0; v < V && p < t1.end(v); p += G) {
      const index_t e = t1.index(p);
      on += edge_on[e];
      face_sides += t2.end(e) - t2.begin(e);
      for (index_t q = t2.begin(e); q < t2.end(e); ++q) cell_sides += t3.end(t2.index(q)) - t3.begin(t2.index(q));
    }
    on = linalg::lane_sum<G>(on), face_sides = linalg::lane_sum<G>(face_sides);
    cell_sides = linalg::lane_sum<G>(cell_sides);
    if (v < V && lane == 0)
      edges[v] = t1.end(v) - t1.begin(v), boundary_edges[v] = on, faces[v] = face_sides / 2, cells[v] = cell_sides / 6;
  }
};

}  // namespace detail

template <class Exec, class S = typename Exec::space>
LevelWeights<S> level_weights(Exec& exec, const BoundaryOperators<S>& ops, const Transposes<S>& transposed,
                              const RefineOptions& options) {
  using linalg::Array;
  const index_t V = ops.vertices();
  LevelWeights<S> out{boundary_flags(exec, ops, transposed), Array<index_t, S>(V), Array<index_t, S>(V),
                      Array<index_t, S>(V), Array<index_t, S>(V), Array<index_t, S>(2 * V)};
  const auto d2v = ops.d2.view(), t1v = transposed.t1.view(), t2v = transposed.t2.view(), t3v = transposed.t3.view();
  const char* eb = out.flags.edges.data();
  const char* vb = out.flags.vertices.data();
  auto count_at_vertices = [&]<int G>() {
    exec.template for_each_grouped<G>(V, detail::VertexCounts<G>{V, t1v, t2v, t3v, eb, out.edges_at.data(),
                                                                 out.boundary_edges_at.data(), out.faces_at.data(),
                                                                 out.cells_at.data()});
  };
  if (detail::share_entries<Exec>(V)) count_at_vertices.template operator()<detail::entry_lanes<Exec>>();
  else count_at_vertices.template operator()<1>();
  // One extraordinary edge line: inside, exactly two edges of one valence n != 4 faces, n + 2
  // edges in all, the two in no common face. Every corner of a tetrahedron, prism or hexahedron
  // has three edges, so two edges at a vertex share a cell exactly when they share a face.
  index_t* line = out.line_edges.data();
  const bool tensor_product = options.vertex_rule == VertexRule::tensor_product;
  exec.for_each(V, [=] SPMESH_HD(index_t v) {
    line[2 * v] = line[2 * v + 1] = -1;
    if (!tensor_product || vb[v]) return;
    index_t found[2] = {-1, -1}, valence[2] = {0, 0};
    int count = 0;
    for (index_t p = t1v.begin(v); p < t1v.end(v); ++p) {
      const index_t e = t1v.index(p), around = t2v.end(e) - t2v.begin(e);
      if (around == 4) continue;
      if (count < 2) found[count] = e, valence[count] = around;
      ++count;
    }
    if (count != 2 || valence[0] != valence[1] || t1v.end(v) - t1v.begin(v) != valence[0] + 2) return;
    for (index_t p = t2v.begin(found[0]); p < t2v.end(found[0]); ++p)
      for (index_t q = d2v.begin(t2v.index(p)); q < d2v.end(t2v.index(p)); ++q)
        if (d2v.index(q) == found[1]) return;
    line[2 * v] = found[0], line[2 * v + 1] = found[1];
  });
  return out;
}

// The rules' weights in W (the vertex data's type for eval, double for S_l), one function a term.
// Notation of refine.hpp: C cell points, A old face centroids, M edge midpoints, V the vertex.
template <class W>
struct RuleWeights {
  linalg::TernaryView d2, t2;
  const index_t* cell_at;
  const char *face_on, *edge_on, *vertex_on;  // on the boundary
  const index_t *edges_at, *boundary_edges_at, *faces_at, *cells_at, *line;
  // The crease rules (sharpness.hpp), null when smooth.
  const double *edge_crease = nullptr, *self = nullptr, *ring = nullptr, *crease = nullptr, *smooth = nullptr;
  const index_t *crease_u = nullptr, *crease_w = nullptr;

  SPMESH_HD W faces_around(index_t e) const { return W(t2.end(e) - t2.begin(e)); }

  // Averages of the old points: a cell point is each corner of the cell's vertex list once; a
  // face centroid the average of its edges' midpoints (|d2| M: each corner is in two of them).
  SPMESH_HD W cell_corner(index_t c) const { return W(1) / W(cell_at[c + 1] - cell_at[c]); }
  SPMESH_HD W centroid_edge(index_t f) const { return W(1) / W(d2.end(f) - d2.begin(f)); }

  // Face point: (C0 + C1) / 4 + A / 2 inside, A on the boundary.
  SPMESH_HD W face_cell(index_t f) const { return face_on[f] ? W(0) : W(0.25); }
  SPMESH_HD W face_centroid(index_t f) const { return face_on[f] ? W(1) : W(0.5); }

  // Edge point. Inside, over its n faces: C / n + 2 A / n + (n - 3) M / n, each cell around the
  // edge met twice through its faces; an inside crease of weight w blends that with M by w. On
  // the boundary, with crease weight w (Catmull-Clark's, masks.hpp): (1 + w)/2 M + (1 - w)/4 (f_0
  // + f_1), f_0 and f_1 its boundary faces' points.
  SPMESH_HD W crease_weight_of(index_t e) const { return edge_crease ? W(edge_crease[e]) : W(0); }
  SPMESH_HD schemes::EdgeMask edge_mask(index_t e) const {
    return schemes::catmull_clark::EdgeWeights{}(edge_crease ? edge_crease[e] : 0.0);
  }
  SPMESH_HD W edge_cell(index_t e) const {  // each (face, cell) around the edge
    const W n = faces_around(e);
    return edge_on[e] ? W(0) : (1 - crease_weight_of(e)) / (2 * n * n);
  }
  SPMESH_HD W edge_face(index_t e, index_t f) const {
    const W n = faces_around(e);
    return edge_on[e] ? (face_on[f] ? W(edge_mask(e).other) : W(0)) : (1 - crease_weight_of(e)) * 2 / (n * n);
  }
  SPMESH_HD W edge_midpoint(index_t e) const {
    const W n = faces_around(e), c = crease_weight_of(e);
    return edge_on[e] ? W(2 * edge_mask(e).end) : (1 - c) * (n - 3) / n + c;
  }

  // Vertex point. Inside: (C + 3 A + 3 M + V) / 8, each cell at V met 6 times through (edge,
  // face, cell), each face twice through (edge, face). On one extraordinary edge line, (E_0 +
  // E_1) / 4 + (Q + 2 R + (n - 3) V) / (2 n) over the n faces that hold neither line edge (half
  // the sum over V's edges less the sums around the line edges) and the n other edges. An inside
  // crease keeps `smooth` of these and adds its own mask (self V + crease (u + w)). On the
  // boundary, over its n boundary edges, the mask self V + ring (R + Q) + crease (its crease
  // ends): each boundary face's point met twice through them. A vertex in no cell stays.
  SPMESH_HD bool on_line(index_t v) const { return line[2 * v] >= 0; }
  SPMESH_HD bool line_edge(index_t v, index_t e) const { return e == line[2 * v] || e == line[2 * v + 1]; }
  SPMESH_HD W smooth_part(index_t v) const { return smooth ? W(smooth[v]) : W(1); }  // inside vertices
  SPMESH_HD W ring_of(index_t v) const {
    const W n = W(boundary_edges_at[v]);
    return ring ? W(ring[v]) : W(1) / (n * n);
  }
  SPMESH_HD W vertex_cell(index_t v) const {  // each (edge, face, cell) at v
    return vertex_on[v] || on_line(v) ? W(0) : smooth_part(v) / (6 * 8 * W(cells_at[v]));
  }
  // Whether the (edge, face) pair at a vertex counts: on a boundary edge only its boundary faces.
  SPMESH_HD bool vertex_face_counts(index_t e, index_t f) const { return !edge_on[e] || face_on[f]; }
  SPMESH_HD W vertex_face(index_t v, index_t e) const {  // each counted (edge, face) at v
    if (vertex_on[v]) return edge_on[e] ? ring_of(v) / 2 : W(0);
    if (!on_line(v)) return smooth_part(v) * 3 / (8 * 2 * W(faces_at[v]));
    const W n = W(edges_at[v] - 2);
    return smooth_part(v) * (line_edge(v, e) ? W(-1) : W(1)) / (4 * n * n);
  }
  SPMESH_HD W vertex_edge(index_t v, index_t e) const {  // each edge's midpoint at v
    if (vertex_on[v]) return edge_on[e] ? 2 * ring_of(v) : W(0);
    if (!on_line(v)) return smooth_part(v) * 3 / (8 * W(edges_at[v]));
    const W n = W(edges_at[v] - 2);
    return line_edge(v, e) ? W(0) : smooth_part(v) / (n * n);
  }
  SPMESH_HD W vertex_self(index_t v) const {
    if (edges_at[v] == 0) return W(1);
    // The midpoints gave the ring's weight to v once per boundary edge: taken off here.
    const W nb = W(boundary_edges_at[v]);
    if (vertex_on[v]) return (self ? W(self[v]) : (nb - 2) / nb) - nb * ring_of(v);
    const W n = W(edges_at[v] - 2), crease_self = self ? W(self[v]) : W(0);
    return smooth_part(v) * (on_line(v) ? (n - 3) / (2 * n) : W(1) / W(8)) + crease_self;
  }
  // The weight of each line edge's edge point at a vertex on one extraordinary edge line.
  SPMESH_HD W line_edge_point(index_t v) const { return smooth_part(v) / 4; }
  // A vertex on a crease: its two crease ends (-1 without) and their weight each.
  SPMESH_HD index_t crease_end(index_t v, int i) const {
    if (!crease || crease_u[v] < 0 || crease_w[v] < 0) return -1;
    return i == 0 ? crease_u[v] : crease_w[v];
  }
  SPMESH_HD W crease_weight(index_t v) const { return W(crease[v]); }
};

template <class W, class S>
RuleWeights<W> rule_weights(const CellMesh<S>& mesh, const BoundaryOperators<S>& ops, const Transposes<S>& transposed,
                            const LevelWeights<S>& level, const SharpRules<S>* sharp) {
  RuleWeights<W> w{ops.d2.view(),
                   transposed.t2.view(),
                   mesh.offsets.data(),
                   level.flags.faces.data(),
                   level.flags.edges.data(),
                   level.flags.vertices.data(),
                   level.edges_at.data(),
                   level.boundary_edges_at.data(),
                   level.faces_at.data(),
                   level.cells_at.data(),
                   level.line_edges.data()};
  if (sharp) {
    w.edge_crease = sharp->edge_crease.data(), w.self = sharp->self.data(), w.ring = sharp->ring.data();
    w.crease = sharp->crease.data(), w.crease_u = sharp->crease_u.data(), w.crease_w = sharp->crease_w.data();
    w.smooth = sharp->smooth.data();
  }
  return w;
}

}  // namespace spmesh::solids
