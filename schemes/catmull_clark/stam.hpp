// Stam's exact evaluation of Catmull-Clark's limit surface near an extraordinary vertex (Stam
// 1998, "Exact evaluation of Catmull-Clark subdivision surfaces at arbitrary parameter values").
//
// A quad with one smooth inner corner of n != 4 edges and three regular corners is, on the limit
// surface, a nest of bicubic patches shrinking towards that corner. Its K = 2n + 8 control points
// C (stam_ring) subdivide into the same K points of the child at the corner, C' = A C, and into
// the 16 control points of each of the three other children, G_r C (r = 1, 2, 3, child r at the
// quad's corner r counted from the extraordinary one). A sample m levels down in child r is
//   x(s, t) = b(s', t') G_r A^(m-1) C = sum_i lambda_i^(m-1) [b(s', t') G_r V]_i [V^-1 C]_i
// with A = V diag(lambda) V^-1 (Stam's Eq. 9 and 13; stam_tables.hpp): constant time at any depth. Within
// tuning::stam_tabled_levels of the corner the 16 x K matrices G_r A^(m-1) are kept as well, so
// that a sample there is b(s', t') times one of them: no K x K projection. A, G_r and the
// eigenstructure are not written down here: they are read off spmesh's own refinement of a fan of
// n sectors (stam.cpp), so they are the rules every other path applies, and decomposed once per
// valence in double (Eigen) and kept.
#pragma once

#include "linalg/atomics.hpp"
#include "schemes/catmull_clark/patch_build.hpp"
#include "schemes/catmull_clark/patch_eval.hpp"
#include "schemes/catmull_clark/quads.hpp"
#include "schemes/patches/basis.hpp"
#include "schemes/stam_tables.hpp"
#include "schemes/tuning.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace spmesh::schemes::catmull_clark {

// The valences Stam's evaluation takes: 3 to this (K = 2n + 8 points; a sample's weights are
// kept per eigenvalue, so this bounds a thread's local memory).
inline constexpr int max_stam_valence = 32;
SPMESH_HD constexpr int stam_ring_size(int valence) { return 2 * valence + 8; }
inline constexpr int max_stam_ring = stam_ring_size(max_stam_valence);

// The 16 control points of regular quad f in its 4 x 4 grid (g = 4 row + column: columns along u,
// rows along v).
SPMESH_HD inline void patch_grid(const QuadView& q, index_t f, index_t grid[16]) {
  for (int a = 0; a < 4; ++a) {
    const linalg::Index4 c = detail::corner_controls(q, f, a);
    const unsigned places = unsigned(detail::corner_places >> (16 * a));
    for (int j = 0; j < 4; ++j) grid[(places >> (4 * j)) & 15] = c.v[j];
  }
}

// The K control points of quad f around its corner a (an inner vertex of n edges whose other
// corners are regular), visit(j, vertex) in order j: [0] the corner; [1 + 2i] the other end of its
// i-th edge and [2 + 2i] the far corner of its i-th face, counted from f (edge 0 runs to corner
// a + 1) towards corner a + 3; then the 7 beyond the three other corners (their corner_controls:
// the two beyond the edge a + 1 -> a + 2 and corner a + 1's diagonal, the same of corner a + 2,
// corner a + 3's diagonal). The same walk on a fan (stam.cpp) names the rows and columns of A.
template <class Visit>
SPMESH_HD void stam_ring(const QuadView& q, index_t f, int a, int n, Visit&& visit) {
  index_t h = 4 * f + a;
  visit(0, linalg::ldg(q.corners + h));
  for (int i = 0; i < n; ++i) {
    visit(1 + 2 * i, linalg::ldg(q.corners + next_half(h)));
    visit(2 + 2 * i, linalg::ldg(q.corners + next_half(next_half(h))));
    h = linalg::ldg(q.twin + prev_half(h));
  }
  const linalg::Index4 c1 = detail::corner_controls(q, f, (a + 1) & 3), c2 = detail::corner_controls(q, f, (a + 2) & 3),
                       c3 = detail::corner_controls(q, f, (a + 3) & 3);
  const index_t beyond[7] = {c1.v[1], c1.v[2], c1.v[3], c2.v[1], c2.v[2], c2.v[3], c3.v[3]};
  for (int j = 0; j < 7; ++j) visit(2 * n + 1 + j, beyond[j]);
}

// n sectors of 3 x 3 quads around vertex 0, sector k between spokes k and k + 1: sector k's point
// (i, j), i steps along spoke k and j along spoke k + 1, is vertex 1 + 3k + i - 1 on a spoke (j =
// 0), else 1 + 3s + 9k + 3(i - 1) + j - 1, s the spokes (n closed, spoke n being spoke 0; n + 1
// open, vertex 0 then on the boundary, along spokes 0 and n); face 9k + 3i + j has it at its
// corner 0. Face 0 has vertex 0 at its corner 0 and spoke 0 at corner 1. The points whose rules A
// and G_r use (vertex 0 and face 0's other corners) have whole rings of faces; the outer boundary
// is two steps beyond.
linalg::MeshMatrix<> fan_mesh(int valence, bool closed = true);

// Valence n's structure (stam_tables.hpp; P = 16 points a child), made on first use and kept
// (thread-safe). Error if A is not diagonalisable in double to 1e-12 (it has been for every
// valence 3 to max_stam_valence).
const StamStructure& stam_structure(int valence);

// Every valence's structure as kernels read it (stam_tables.hpp; P = 16 points a child).
struct StamView : StamTableView<16, 2, 8> {
  // The limit at (x, y) of quad f of a level whose corner a is an inner vertex of n edges (3 to
  // max_stam_valence, the other corners regular): visit(vertex, weight, u derivative's, v
  // derivative's) on each of stam_ring's points, derivatives times `scale`. Within the tabled
  // levels, each point's weights are its column of G_r A^(m-1) under the bicubic basis, made as
  // the ring is walked; elsewhere (deeper, and the corner itself) those of `weights`.
  template <class Visit>
  SPMESH_HD void limit(const QuadView& q, index_t f, int a, int n, double x, double y, double scale,
                       Visit&& visit) const {
    const Turn turn(a, x, y);
    const Child child(turn, tuning::stam_tabled_levels);
    if (child.m > tuning::stam_tabled_levels) {
      index_t ring[max_stam_ring];
      stam_ring(q, f, a, n, [&](int j, index_t vertex) { ring[j] = vertex; });
      weights(n, a, x, y, scale, [&](int k, double w, double wu, double wv) { visit(ring[k], w, wu, wv); });
      return;
    }
    const Tabled tabled(turn, child, scale);
    const double* rules = power(n, child.m, child.r);
    stam_ring(q, f, a, n, [&](int k, index_t vertex) { tabled.weights(rules + 16 * k, vertex, visit); });
  }

  // limit's weights without the walk, for callers that hold stam_ring's points (a solid's layers):
  // visit(j, weight, u derivative's, v derivative's) on point j.
  template <class Visit>
  SPMESH_HD void ring_weights(int n, int a, double x, double y, double scale, Visit&& visit) const {
    const Turn turn(a, x, y);
    const Child child(turn, tuning::stam_tabled_levels);
    if (child.m > tuning::stam_tabled_levels) return weights(n, a, x, y, scale, visit);
    const Tabled tabled(turn, child, scale);
    const double* rules = power(n, child.m, child.r);
    for (int k = 0; k < stam_ring_size(n); ++k) tabled.weights(rules + 16 * k, k, visit);
  }

  // The same from Stam's nets (samples.hpp) of the quad, its corner a, slot `slot`: the bicubic
  // patch of child r m levels down, visit(row, weight, u derivative's, v derivative's) on its 16
  // rows. False, visiting none, when the sample lies deeper than the nets' `depth` levels (and
  // at the corner).
  template <class Visit>
  SPMESH_HD bool limit_from_net(int a, index_t slot, int depth, double x, double y, double scale,
                                Visit&& visit) const {
    const Turn turn(a, x, y);
    const Child child(turn, depth);
    if (child.m > depth) return false;
    double bs[4], dbs[4], bt[4], dbt[4];
    patches::basis_functions(patches::Basis::bspline, 3, nullptr, child.s, bs, dbs);
    patches::basis_functions(patches::Basis::bspline, 3, nullptr, child.t, bt, dbt);
    const double growth = std::ldexp(scale, child.m);
    const index_t first = stam_net_row<16>(slot, depth, child.m, child.r);
    for (int row = 0; row < 4; ++row)
      for (int col = 0; col < 4; ++col) {
        const double ws = bt[row] * dbs[col], wt = dbt[row] * bs[col];
        visit(first + 4 * row + col, bt[row] * bs[col], growth * turn.dx(ws, wt), growth * turn.dy(ws, wt));
      }
    return true;
  }

  // (s, t): a quad's (x, y) turned so that corner a is at (0, 0), a + 1 at (1, 0); dx and dy the
  // derivatives along x and y of those along s and t.
  struct Turn {
    int a;
    double s, t;
    SPMESH_HD Turn(int a_, double x, double y)
        : a(a_), s(a_ == 0 ? x : a_ == 1 ? y : a_ == 2 ? 1 - x : 1 - y),
          t(a_ == 0 ? y : a_ == 1 ? 1 - x : a_ == 2 ? 1 - y : x) {}
    SPMESH_HD double dx(double ds, double dt) const { return a == 0 ? ds : a == 1 ? -dt : a == 2 ? -ds : dt; }
    SPMESH_HD double dy(double ds, double dt) const { return a == 0 ? dt : a == 1 ? ds : a == 2 ? -dt : -ds; }
  };

  // The child holding a turned sample: m levels down (the first where s or t reaches 1/2 after
  // doubling m - 1 times; most + 1 if none up to `most`), child r (1 along s, 2 diagonal, 3 along
  // t), at (s, t) in it.
  struct Child {
    int m = 1, r = 1;
    double s, t;
    SPMESH_HD Child(const Turn& turn, int most) : s(turn.s), t(turn.t) {
      while (s < 0.5 && t < 0.5 && m <= most) s *= 2, t *= 2, ++m;
      const int i = s >= 0.5, j = t >= 0.5;
      r = j ? (i ? 2 : 3) : 1, s = 2 * s - i, t = 2 * t - j;
    }
  };

  // A sample within the tabled levels: a point's weights are its column g of G_r A^(m-1) (16
  // entries) under the bicubic basis of the child, the derivatives 2^m times `scale`.
  struct Tabled {
    Turn turn;
    double bs[4], dbs[4], bt[4], dbt[4], growth;
    SPMESH_HD Tabled(const Turn& turn_, const Child& child, double scale)
        : turn(turn_), growth(std::ldexp(scale, child.m)) {
      patches::basis_functions(patches::Basis::bspline, 3, nullptr, child.s, bs, dbs);
      patches::basis_functions(patches::Basis::bspline, 3, nullptr, child.t, bt, dbt);
    }
    template <class Id, class Visit>
    SPMESH_HD void weights(const double* g, Id id, Visit& visit) const {
      double w = 0, ws = 0, wt = 0;
      for (int row = 0; row < 4; ++row) {
        double along = 0, along_ds = 0;
        for (int col = 0; col < 4; ++col) along += bs[col] * g[4 * row + col], along_ds += dbs[col] * g[4 * row + col];
        w += bt[row] * along, ws += bt[row] * along_ds, wt += dbt[row] * along;
      }
      visit(id, w, growth * turn.dx(ws, wt), growth * turn.dy(ws, wt));
    }
  };

  // `limit`'s weights from the eigenstructure, at any depth: visit(j, weight, u derivative's, v
  // derivative's) on stam_ring's point j, derivatives times `scale`. At the corner itself, where
  // the derivatives are 0 (n = 3) or unbounded (n > 4), they are the subdominant eigenvalue's
  // terms alone as at (2^-m, 0) and (0, 2^-m) over (2 lambda)^m: the tangents' directions,
  // scaled as the regular vertex's derivatives.
  template <class Visit>
  SPMESH_HD void weights(int n, int a, double x, double y, double scale, Visit&& visit) const {
    const int K = stam_ring_size(n);
    const Turn turn(a, x, y);
    const double s = turn.s, t = turn.t;
    const double* lambda = eigenvalues(n);
    double c[3][max_stam_ring];  // per eigenvector: the position's and the s and t derivatives' terms
    if (s == 0 && t == 0) {
      // The subdominant terms (a pair, eigenvectors 1 and 2) of child 1 at its corner (0, 0) along
      // s, of child 3 along t; lambda = 1's eigenvector (ones) alone for the limit point.
      double along[2][2];
      for (int side = 0; side < 2; ++side) {
        child_terms(n, side == 0 ? 1 : 3, 0, 0, c);
        along[side][0] = 2 * c[1 + side][1], along[side][1] = 2 * c[1 + side][2];
      }
      for (int i = 0; i < K; ++i) c[0][i] = 0, c[1][i] = 0, c[2][i] = 0;
      c[0][0] = 1;
      for (int i = 0; i < 2; ++i) c[1][1 + i] = along[0][i], c[2][1 + i] = along[1][i];
    } else {
      const Child child(turn, 1 << 30);
      child_terms(n, child.r, child.s, child.t, c);
      // m levels down: B^(m-1) on the terms, 2^m more on the derivatives; the constant
      // eigenvector (ones) has none.
      c[1][0] = 0, c[2][0] = 0;
      times_power(lambda, chains(n), K, child.m - 1, child.m, 1.0, c);
    }
    project(n, c, [&](int k, double w, double ws, double wt) {
      visit(k, w, scale * turn.dx(ws, wt), scale * turn.dy(ws, wt));
    });
  }

  // terms[d][i] = b_d(s, t) G_r V's column i for child r: d = 0 the bicubic B-spline's values, 1
  // and 2 its s and t derivatives.
  SPMESH_HD void child_terms(int n, int r, double s, double t, double (*terms)[max_stam_ring]) const {
    const int K = stam_ring_size(n);
    double bs[4], dbs[4], bt[4], dbt[4];
    patches::basis_functions(patches::Basis::bspline, 3, nullptr, s, bs, dbs);
    patches::basis_functions(patches::Basis::bspline, 3, nullptr, t, bt, dbt);
    for (int e = 0; e < K; ++e) terms[0][e] = 0, terms[1][e] = 0, terms[2][e] = 0;
    const double* child = children(n) + std::int64_t(r - 1) * 16 * K;
    for (int row = 0; row < 4; ++row)
      for (int col = 0; col < 4; ++col) {
        const double b = bt[row] * bs[col], db_s = bt[row] * dbs[col], db_t = dbt[row] * bs[col];
        const double* g = child + std::int64_t(4 * row + col) * K;
        for (int e = 0; e < K; ++e) terms[0][e] += b * g[e], terms[1][e] += db_s * g[e], terms[2][e] += db_t * g[e];
      }
  }
};

// The structures of the valences flagged in `present` (StamValences over every level a sample
// may stop at: a semi-sharp vertex turns smooth some levels down), made (up to some 10 ms a
// valence, once a process) and uploaded, and their view.
template <class Exec, class S = typename Exec::space>
StamTables<S> stam_tables(Exec& exec, const linalg::Array<index_t, S>& present) {
  return schemes::stam_tables(exec, present, max_stam_valence, stam_structure);
}

}  // namespace spmesh::schemes::catmull_clark
