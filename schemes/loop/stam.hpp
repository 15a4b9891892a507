// Stam's exact evaluation of Loop's limit surface near an extraordinary vertex (Stam 1998,
// "Evaluation of Loop subdivision surfaces"; stam_tables.hpp says what is kept per valence).
//
// A triangle with one smooth inner corner of n != 6 edges and two regular corners is, on the
// limit surface, a nest of box-spline patches shrinking towards that corner. Its K = n + 6
// control points (stam_ring) subdivide into the K of its child at the corner (A) and into the 12
// box-spline points of each of its three other children (G_r: r = 1 the child at the next
// corner, 2 at the one after, 3 the middle one, turned half a turn). With the corner turned to
// (0, 0), a sample at (s, t) lies m levels down, where 2^(m-1) (s + t) first reaches 1/2, in child
// r of that level. A and G_r are read off spmesh's own Loop refinement of a fan (stam.cpp).
#pragma once

#include "linalg/mesh_matrix.hpp"
#include "schemes/half_edges/level.hpp"
#include "schemes/loop/box_spline.hpp"
#include "schemes/stam_tables.hpp"
#include "schemes/tuning.hpp"

#include <cmath>
#include <cstdint>

namespace spmesh::schemes::loop {

// The valences Stam's evaluation takes: 3 to this (a sample's weights are kept per eigenvalue,
// so this bounds a thread's local memory).
inline constexpr int max_stam_valence = 32;
SPMESH_HD constexpr int stam_ring_size(int valence) { return valence + 6; }
inline constexpr int max_stam_ring = stam_ring_size(max_stam_valence);

// The K control points of triangle f around its corner a (an inner vertex of n edges whose other
// corners are regular), visit(j, vertex) in order j: [0] the corner; [1 + i] the far end of its
// i-th edge, edge 0 the one to corner a + 1, edge 1 to corner a + 2, on round the vertex; then the
// 5 beyond, with corner a turned to corner 0 in box_spline_net's order: side 0's third point,
// side 1's three, side 2's second. The same walk on a fan (stam.cpp) names A's rows and columns.
template <class Visit>
SPMESH_HD void stam_ring(const TriangleView& t, index_t f, int a, int n, Visit&& visit) {
  index_t h = 3 * f + a;
  visit(0, linalg::ldg(t.corners + h));
  for (int i = 0; i < n; ++i) {
    visit(1 + i, linalg::ldg(t.corners + t.next(h)));
    h = linalg::ldg(t.twin + t.prev(h));
  }
  // Across side s of f: the twin's third corner, and the points across its other two sides.
  auto across = [&](int side, int which) {
    const index_t twin = linalg::ldg(t.twin + 3 * f + (a + side) % 3);
    if (which == 0) return linalg::ldg(t.corners + t.prev(twin));
    const index_t beyond = linalg::ldg(t.twin + (which == 1 ? t.next(twin) : t.prev(twin)));
    return linalg::ldg(t.corners + t.prev(beyond));
  };
  visit(n + 1, across(0, 2));
  visit(n + 2, across(1, 0)), visit(n + 3, across(1, 1)), visit(n + 4, across(1, 2));
  visit(n + 5, across(2, 1));
}

// A triangle's (x, y) turned so that corner a is at (0, 0) and a + 1 at (1, 0): (s, t) the
// barycentric weights of corners a + 1 and a + 2; dx and dy the derivatives along x and y of
// those along s and t.
struct TriangleTurn {
  int a;
  double s, t;
  SPMESH_HD TriangleTurn(int a_, double x, double y)
      : a(a_), s(a_ == 0 ? x : a_ == 1 ? y : 1 - x - y), t(a_ == 0 ? y : a_ == 1 ? 1 - x - y : x) {}
  SPMESH_HD double dx(double ds, double dt) const { return a == 0 ? ds : a == 1 ? -dt : dt - ds; }
  SPMESH_HD double dy(double ds, double dt) const { return a == 0 ? dt : a == 1 ? ds - dt : -ds; }
};

// Which of a triangle's children holds (x, y), and where: child a < 3 at corner a keeps the
// parent's turn, the middle child 3 is turned half a turn (its derivatives change sign). A point
// on the middle child's sides is the middle child's: Stam's nest, which has reached the level where
// x + y >= 1/2, never takes child 0.
struct TriangleChild {
  int child;
  double x, y, sign;
};
SPMESH_HD inline TriangleChild triangle_child(double x, double y) {
  if (x >= 0.5) return {1, 2 * x - 1, 2 * y, 1};
  if (y >= 0.5) return {2, 2 * x, 2 * y - 1, 1};
  if (x + y < 0.5) return {0, 2 * x, 2 * y, 1};
  return {3, 1 - 2 * x, 1 - 2 * y, -1};
}

// Every valence's structure as kernels read it (stam_tables.hpp; P = 12 points a child).
struct StamView : StamTableView<box_spline_points, 1, 6> {
  // The limit at (x, y) of triangle f of a level whose corner a is an inner vertex of n edges (3
  // to max_stam_valence, the other corners regular): visit(vertex, weight, x derivative's, y
  // derivative's) on each of stam_ring's points, derivatives times `scale`. Within the tabled
  // levels from G_r A^(m-1) under the box spline; elsewhere (deeper, and the corner itself) from
  // the eigenstructure (`weights`).
  template <class Visit>
  SPMESH_HD void limit(const TriangleView& t, index_t f, int a, int n, double x, double y, double scale,
                       Visit&& visit) const {
    const TriangleTurn turn(a, x, y);
    const Child child(turn, tuning::stam_tabled_levels);
    if (child.m > tuning::stam_tabled_levels) {
      index_t ring[max_stam_ring];
      stam_ring(t, f, a, n, [&](int j, index_t vertex) { ring[j] = vertex; });
      weights(n, turn, scale, [&](int k, double w, double wx, double wy) { visit(ring[k], w, wx, wy); });
      return;
    }
    double b[box_spline_points], bs[box_spline_points], bt[box_spline_points];
    box_spline_basis(child.in.x, child.in.y, b, bs, bt);
    const double growth = child.in.sign * std::ldexp(scale, child.m);  // m levels down: 2^m on the derivatives
    const double* rules = power(n, child.m, child.in.child);
    stam_ring(t, f, a, n, [&](int k, index_t vertex) {
      const double* g = rules + box_spline_points * k;
      double w = 0, ws = 0, wt = 0;
      for (int p = 0; p < box_spline_points; ++p) w += b[p] * g[p], ws += bs[p] * g[p], wt += bt[p] * g[p];
      visit(vertex, w, growth * turn.dx(ws, wt), growth * turn.dy(ws, wt));
    });
  }

  // The same from Stam's nets (samples.hpp) of the triangle, its corner a, slot `slot`: the box
  // spline of child r m levels down, visit(row, weight, x derivative's, y derivative's) on its 12
  // rows. False, visiting none, when the sample lies deeper than the nets' `depth` levels (and
  // at the corner).
  template <class Visit>
  SPMESH_HD bool limit_from_net(int a, index_t slot, int depth, double x, double y, double scale,
                                Visit&& visit) const {
    const TriangleTurn turn(a, x, y);
    const Child child(turn, depth);
    if (child.m > depth) return false;
    double b[box_spline_points], bs[box_spline_points], bt[box_spline_points];
    box_spline_basis(child.in.x, child.in.y, b, bs, bt);
    const double growth = child.in.sign * std::ldexp(scale, child.m);
    const index_t first = stam_net_row<box_spline_points>(slot, depth, child.m, child.in.child);
    for (int p = 0; p < box_spline_points; ++p)
      visit(first + p, b[p], growth * turn.dx(bs[p], bt[p]), growth * turn.dy(bs[p], bt[p]));
    return true;
  }

  // The child holding a turned sample: m levels down (the first where s + t reaches 1/2 after
  // doubling m - 1 times; most + 1 if none up to `most`), and which child there (triangle_child).
  struct Child {
    int m = 1;
    TriangleChild in;
    SPMESH_HD Child(const TriangleTurn& turn, int most) {
      double s = turn.s, t = turn.t;
      while (s + t < 0.5 && m <= most) s *= 2, t *= 2, ++m;
      in = triangle_child(s, t);
    }
  };

  // `limit`'s weights from the eigenstructure, at any depth: visit(j, weight, x derivative's, y
  // derivative's) on stam_ring's point j, derivatives times `scale`. At the corner itself, where
  // the derivatives are 0 (n = 3) or unbounded (n > 6), they are the subdominant pair's terms
  // alone, as at (2^-m, 0) and (0, 2^-m) over (2 lambda)^m: the tangents' directions, scaled as the
  // regular vertex's derivatives.
  template <class Visit>
  SPMESH_HD void weights(int n, const TriangleTurn& turn, double scale, Visit&& visit) const {
    const int K = stam_ring_size(n);
    const double* lambda = eigenvalues(n);
    double c[3][max_stam_ring];  // per eigenvector: the position's and the s and t derivatives' terms
    if (turn.s == 0 && turn.t == 0) {
      // Child 1 at its corner (0, 0) along s, child 2 at its (0, 0) along t; lambda = 1's
      // eigenvector (ones) alone for the limit point.
      double along[2][2];
      for (int side = 0; side < 2; ++side) {
        child_terms(n, 1 + side, 0, 0, c);
        along[side][0] = 2 * c[1 + side][1], along[side][1] = 2 * c[1 + side][2];
      }
      for (int i = 0; i < K; ++i) c[0][i] = 0, c[1][i] = 0, c[2][i] = 0;
      c[0][0] = 1;
      for (int i = 0; i < 2; ++i) c[1][1 + i] = along[0][i], c[2][1 + i] = along[1][i];
    } else {
      const Child child(turn, 1 << 30);
      child_terms(n, child.in.child, child.in.x, child.in.y, c);
      // m levels down: B^(m-1) on the terms, +-2^m more on the derivatives; the constant
      // eigenvector (ones) has none.
      c[1][0] = 0, c[2][0] = 0;
      times_power(lambda, chains(n), K, child.m - 1, child.m, child.in.sign, c);
    }
    project(n, c, [&](int k, double w, double ws, double wt) {
      visit(k, w, scale * turn.dx(ws, wt), scale * turn.dy(ws, wt));
    });
  }

  // terms[d][i] = b_d(x, y) G_r V's column i for child r: d = 0 the box spline's values, 1 and 2
  // its x and y derivatives.
  SPMESH_HD void child_terms(int n, int r, double x, double y, double (*terms)[max_stam_ring]) const {
    const int K = stam_ring_size(n);
    double b[box_spline_points], bx[box_spline_points], by[box_spline_points];
    box_spline_basis(x, y, b, bx, by);
    for (int e = 0; e < K; ++e) terms[0][e] = 0, terms[1][e] = 0, terms[2][e] = 0;
    const double* child = children(n) + std::int64_t(r - 1) * box_spline_points * K;
    for (int p = 0; p < box_spline_points; ++p) {
      const double* g = child + std::int64_t(p) * K;
      for (int e = 0; e < K; ++e) terms[0][e] += b[p] * g[e], terms[1][e] += bx[p] * g[e], terms[2][e] += by[p] * g[e];
    }
  }
};

// n sectors of a triangle lattice of side 3 around vertex 0 (stam.cpp): face 0 has vertex 0 at its
// corner 0 and spoke 0 at corner 1; the points A and G_r read have whole rings.
linalg::MeshMatrix<> fan_mesh(int valence);

// Valence n's structure, made on first use and kept (thread-safe). Error if its A is not
// diagonalisable in double to 1e-12.
const StamStructure& stam_structure(int valence);

template <class Exec, class S = typename Exec::space>
StamTables<S> stam_tables(Exec& exec, const linalg::Array<index_t, S>& present) {
  return schemes::stam_tables(exec, present, max_stam_valence, stam_structure);
}

}  // namespace spmesh::schemes::loop
