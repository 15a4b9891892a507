// Catmull-Clark's limit near a smooth (unpinned) corner: a boundary vertex of one quad whose two
// boundary edges keep the smooth boundary rule, so that its vertex point is the cubic B-spline
// curve's round the corner, (P_s + 6 P_0 + P_t) / 8 over its two boundary neighbours
// (Boundary::edge_only leaves a surface's corners so: limit_at.hpp's samples there; a Catmull-Clark
// solid's cross-section at a smooth rim, a boundary edge of two faces, is the same configuration:
// solids/cell_nets.hpp).
//
// The quad with that corner at (s, t) = (0, 0), s along its edge to corner 1 and t to corner 3,
// its other corners regular (inside of 4 edges, or on the boundary of 3), has the 3 x 3 points C
// of the quads round it (ring point i + 3 j at grid place (i, j), i along s). They subdivide into
// the child at the corner's 3 x 3, C' = A C, and the 4 x 4 bicubic nets of the three other
// children, G_r C (r as in Stam's evaluation, stam.hpp: 1 along s, 2 diagonal, 3 along t; a child
// along the boundary with its layer beyond the boundary reflected, 2 P_0 - P_1, as at any smooth
// boundary). A is not diagonalisable (eigenvalues 1, 1/2, 1/4 twice, 1/8 twice, 1/16 twice and
// 1/64, with Jordan chains), so instead of Stam's eigenstructure its powers are tabled, as for a
// solid's irregular cells (solids/irregular_cells.hpp) and a boundary fan's (boundary_fan.hpp,
// whose table maker makes these as the fan of one quad): a sample whose larger parameter is 2^-(k+1)
// to 2^-k lies in child r of the quad k levels down, whose net is G_r A^k C. The rows kept are
// D_k = G_r A^k - 1 l^T, l^T the limit at the corner's weights (A's left eigenvector of 1), so that a
// derivative's weights, 2^(k+1) times D_k's, keep their precision (D_k shrinks as 2^-k). Nearer
// the corner than 2^-(smooth_corner_depth + 1) a sample is taken at that distance. A and G_r are
// read off spmesh's own refinement of a quadrant of quads (boundary_fan.cpp).
//
// At the corner the limit surface's two derivatives are both along the boundary curve's tangent
// (A's only eigenvalue 1/2 is the curve's): the parameterisation is singular there, its
// Jacobian's rank 1, as the limit of a smooth boundary turning a corner is.
#pragma once

#include "linalg/array.hpp"
#include "linalg/base.hpp"
#include "linalg/intrinsics.hpp"
#include "schemes/catmull_clark/stam.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace spmesh::schemes::catmull_clark {

inline constexpr int smooth_corner_ring = 9;
// The deepest level a sample is carried to toward the corner (the tables hold depths 0 to it).
inline constexpr int smooth_corner_depth = 48;
// The tables' values: l (the ring's limit weights at the corner), then per depth k and child r
// (1 to 3), per ring point its 16 entries of D_k (net entry x + 4 y, x along s).
inline constexpr std::int64_t smooth_corner_values =
    smooth_corner_ring + std::int64_t(smooth_corner_depth + 1) * 3 * smooth_corner_ring * 16;

// The tables, made on first use and kept (thread-safe).
const std::vector<double>& smooth_corner_tables();

// The same in the executor's memory.
template <class Exec, class S = typename Exec::space>
linalg::Array<double, S> smooth_corner_tables(Exec& exec) {
  const std::vector<double>& tables = smooth_corner_tables();
  linalg::Array<double, S> out(index_t(tables.size()));
  exec.write(out.data(), tables.data(), index_t(tables.size()));
  return out;
}

// The corner of quad f at which the smooth corner's evaluation holds it (-1: none): a corner a
// of vertex_kind::smooth_corner whose neighbours a + 1 and a + 3 are boundary vertices of 3 edges
// under the crease rule (vertex_kind::boundary) and whose opposite corner a + 2 is regular.
SPMESH_HD inline int smooth_corner_at(const QuadView& q, const index_t* kinds, index_t f) {
  index_t kind[4];
  for (int a = 0; a < 4; ++a) kind[a] = kinds[linalg::ldg(q.corners + 4 * f + a)];
  for (int a = 0; a < 4; ++a)
    if (kind[a] == vertex_kind::smooth_corner && kind[(a + 1) & 3] == vertex_kind::boundary &&
        kind[(a + 3) & 3] == vertex_kind::boundary && kind[(a + 2) & 3] == vertex_kind::regular)
      return a;
  return -1;
}

// The 3 x 3 points of the quads at the start of half-edge h: visit(i, j, vertex) at grid place
// (i, j), i along h, j along h's previous edge (reversed): h's quad, the ones beside it across its
// next two edges and the one diagonal to it (each vertex of those rings is then regular: 4 edges
// inside, 3 on the boundary).
template <class Visit>
SPMESH_HD void quadrant_points(const QuadView& q, index_t h00, Visit&& visit) {
  auto at = [&](index_t h) { return linalg::ldg(q.corners + h); };
  auto twin = [&](index_t h) { return linalg::ldg(q.twin + h); };
  const index_t h10 = next_half(twin(next_half(h00)));   // (1, 0) -> (2, 0), the quad along i
  const index_t h01 = twin(next_half(next_half(h00)));   // (0, 1) -> (1, 1), the quad along j
  const index_t h11 = twin(next_half(next_half(h10)));   // (1, 1) -> (2, 1), the diagonal quad
  visit(0, 0, at(h00)), visit(1, 0, at(next_half(h00))), visit(2, 0, at(next_half(h10)));
  visit(0, 1, at(prev_half(h00))), visit(1, 1, at(next_half(next_half(h00)))), visit(2, 1, at(next_half(next_half(h10))));
  visit(0, 2, at(prev_half(h01))), visit(1, 2, at(next_half(next_half(h01)))), visit(2, 2, at(next_half(next_half(h11))));
}

// The smooth_corner_ring points round quad f's smooth corner a (smooth_corner_at): visit(i + 3 j,
// vertex) at grid place (i, j), i along the edge to corner a + 1, j along the edge to corner a + 3.
template <class Visit>
SPMESH_HD void smooth_corner_points(const QuadView& q, index_t f, int a, Visit&& visit) {
  quadrant_points(q, 4 * f + a, [&](int i, int j, index_t vertex) { visit(i + 3 * j, vertex); });
}

// The tables as kernels read them.
struct SmoothCornerView {
  const double* values = nullptr;

  // The limit at (x, y) of a quad whose corner a is the smooth corner: visit(j, weight, x
  // derivative's, y derivative's) on smooth_corner_points's point j, derivatives times `scale`.
  template <class Visit>
  SPMESH_HD void weights(int a, double x, double y, double scale, Visit&& visit) const {
    StamView::Turn turn(a, x, y);
    const double nearest = std::ldexp(1.0, -(smooth_corner_depth + 1));
    if (turn.s < nearest && turn.t < nearest) turn.s = nearest, turn.t = nearest;
    // The child holding the sample, m = k + 1 levels down, and its bicubic basis: Stam's (stam.hpp).
    const StamView::Child child(turn, smooth_corner_depth);
    const StamView::Tabled tabled(turn, child, scale);
    const double* rows =
        values + smooth_corner_ring + std::int64_t(3 * (child.m - 1) + child.r - 1) * smooth_corner_ring * 16;
    auto plus_limit = [&](int q, double w, double wx, double wy) { visit(q, w + values[q], wx, wy); };
    for (int q = 0; q < smooth_corner_ring; ++q) tabled.weights(rows + 16 * q, q, plus_limit);
  }

  // The same on quad f of a level: visit(vertex, weight, x derivative's, y derivative's).
  template <class Visit>
  SPMESH_HD void limit(const QuadView& q, index_t f, int a, double x, double y, double scale, Visit&& visit) const {
    index_t ring[smooth_corner_ring];
    smooth_corner_points(q, f, a, [&](int j, index_t vertex) { ring[j] = vertex; });
    weights(a, x, y, scale, [&](int j, double w, double wx, double wy) { visit(ring[j], w, wx, wy); });
  }
};

}  // namespace spmesh::schemes::catmull_clark
