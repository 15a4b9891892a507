// Loop's regular patch: on a triangle whose corners are inner vertices of 6 edges under the
// smooth rule, the limit surface is the quartic three-direction box spline of the 12 points
// around it (Loop 1987; Stam 1998, "Evaluation of Loop subdivision surfaces"), a quartic
// polynomial in the triangle's parameters: corner 0 at (0, 0), corner 1 at (1, 0), corner 2 at
// (0, 1) (OpenSubdiv's Bfr parameterization of a triangle). Each point's quartic is kept as its 15
// Bernstein coefficients times 24, derived from Loop's own rules by scripts/derive_loop_basis.py
// (two rounds of the regular rules and the limit mask fix it, a third checks it).
//
// Where a corner is a boundary vertex of 4 edges under the crease rule, the points beyond the
// boundary are reflections (a + b - c across a boundary edge a-b of the triangle a-b-c inside):
// the box spline of the reflected net is then the boundary's limit surface exactly (the boundary
// rules are the regular ones on it; the script's lattice check and test_schemes' comparison with
// limit masks say so). So are the points across an infinitely sharp crease through vertices of 6
// edges (two opposite sharp): each side of it is a boundary to the rules.
#pragma once

#include "linalg/intrinsics.hpp"
#include "schemes/half_edges/level.hpp"

#include <cstdint>

namespace spmesh::schemes::loop {

// The 12 control points, in this order: corners 0, 1, 2, then per side a (corner a to a + 1):
// [3 + 3a] the point opposite it across the side, [4 + 3a] the point across the edge from corner
// a to that one, [5 + 3a] the point across the edge from that one to corner a + 1.
inline constexpr int box_spline_points = 12;

// The 12 points' weights at (u, v) and their u and v derivatives: the quartic Bernstein sum and,
// for the derivatives, 4 times the differences of the cubic Bernstein polynomials (d/du of
// w^k u^i v^j's polynomial: 4 (B3(i-1, j) - B3(i, j)); d/dv: 4 (B3(i, j-1) - B3(i, j))).
SPMESH_HD inline void box_spline_basis(double u, double v, double weight[box_spline_points],
                                       double du[box_spline_points], double dv[box_spline_points]) {
  // Per point, the Bernstein coefficients times 24 of its quartic, terms w^(4-i-j) u^i v^j in the
  // order (i, j) = (0,0), (1,0), .. (4,0), (0,1), .. (3,1), (0,2), .. (2,2), (0,3), (1,3), (0,4)
  // (a local table: device code reads no namespace-scope array).
  constexpr signed char coefficients[box_spline_points][15] = {
      {12, 12, 8, 4, 2, 12, 10, 6, 3, 8, 6, 4, 4, 3, 2},  // corner 0
      {2, 4, 8, 12, 12, 3, 6, 10, 12, 4, 6, 8, 3, 4, 2},  // corner 1
      {2, 3, 4, 3, 2, 4, 6, 6, 4, 8, 10, 8, 12, 12, 12},  // corner 2
      {2, 3, 4, 3, 2, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0},      // across side 0
      {2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {0, 0, 0, 1, 2, 0, 0, 1, 3, 0, 1, 4, 1, 3, 2},  // across side 1
      {0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0},
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2},
      {2, 1, 0, 0, 0, 3, 1, 0, 0, 4, 1, 0, 3, 1, 2},  // across side 2
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2},
      {2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0},
  };
  const double w = 1 - u - v;
  // Cubic Bernstein polynomials, [i][j] for u^i v^j w^(3-i-j) with the multinomial.
  double cubic[4][4] = {};
  double pu[5] = {1, u, u * u, u * u * u, u * u * u * u}, pv[5] = {1, v, v * v, v * v * v, v * v * v * v},
         pw[5] = {1, w, w * w, w * w * w, w * w * w * w};
  constexpr double trinomial3[4][4] = {{1, 3, 3, 1}, {3, 6, 3, 0}, {3, 3, 0, 0}, {1, 0, 0, 0}};
  constexpr double trinomial4[5][5] = {{1, 4, 6, 4, 1}, {4, 12, 12, 4, 0}, {6, 12, 6, 0, 0}, {4, 4, 0, 0, 0},
                                       {1, 0, 0, 0, 0}};
  for (int i = 0; i <= 3; ++i)
    for (int j = 0; i + j <= 3; ++j) cubic[i][j] = trinomial3[i][j] * pu[i] * pv[j] * pw[3 - i - j];
  double quartic[15], along_u[15], along_v[15];
  int term = 0;
  for (int j = 0; j <= 4; ++j)
    for (int i = 0; i + j <= 4; ++i, ++term) {
      quartic[term] = trinomial4[i][j] * pu[i] * pv[j] * pw[4 - i - j];
      const double here = i + j <= 3 ? cubic[i][j] : 0;
      along_u[term] = 4 * ((i > 0 ? cubic[i - 1][j] : 0) - here);
      along_v[term] = 4 * ((j > 0 ? cubic[i][j - 1] : 0) - here);
    }
  for (int p = 0; p < box_spline_points; ++p) {
    double sum = 0, sum_u = 0, sum_v = 0;
    for (int t = 0; t < 15; ++t) {
      const double c = coefficients[p][t];
      sum += c * quartic[t], sum_u += c * along_u[t], sum_v += c * along_v[t];
    }
    weight[p] = sum / 24, du[p] = sum_u / 24, dv[p] = sum_v / 24;
  }
}

// A triangle's 12 control points as box_spline_basis orders them: `vertex[p]` a vertex of the
// level, or -1 for a point beyond the boundary, which is `reflected[p]` = (a, b, c): the point
// a + b - c of three points of the level. Points are gathered through the twins of the
// triangle's sides and of the two other sides of each triangle across them.
struct BoxSplineNet {
  index_t vertex[box_spline_points];
  signed char reflected[box_spline_points][3];
  bool complete = false;  // false: a reflection needs a point that is missing too (a corner)

  // The weights g(vertex, weight, u derivative's, v derivative's) of the net's vertices at (u,
  // v), derivatives times `scale`: each reflected point's weights folded onto its three.
  template <class G>
  SPMESH_HD void weights(double u, double v, double scale, G&& g) const {
    double w[3][box_spline_points];
    box_spline_basis(u, v, w[0], w[1], w[2]);
    for (int p = box_spline_points - 1; p >= 0; --p) {
      if (vertex[p] >= 0) continue;
      for (int m = 0; m < 3; ++m) {
        w[m][reflected[p][0]] += w[m][p], w[m][reflected[p][1]] += w[m][p], w[m][reflected[p][2]] -= w[m][p];
        w[m][p] = 0;
      }
    }
    for (int p = 0; p < box_spline_points; ++p)
      if (vertex[p] >= 0) g(vertex[p], w[0][p], scale * w[1][p], scale * w[2][p]);
  }
};

// Triangle f's net (BoxSplineNet). Across side a, from the twin t of half-edge 3f + a (running
// corner a + 1 to corner a): the opposite point is t's triangle's third corner, the two others
// lie across that triangle's other sides (next(t) from corner a, prev(t) into corner a + 1). A
// side without a twin reflects its three: corner a + 2 through the side, and the points across
// the two neighbouring sides' near edges through corner a and corner a + 1. A half-edge marked in
// `sharp_sides` (null: none; an infinitely sharp inner edge) counts as one without a twin: each
// side of such a crease refines as a boundary, reading nothing across it.
SPMESH_HD inline BoxSplineNet box_spline_net(const TriangleView& t, index_t f,
                                             const std::uint8_t* sharp_sides = nullptr) {
  auto twin = [&](index_t h) -> index_t {
    return sharp_sides && linalg::ldg(sharp_sides + h) ? -1 : linalg::ldg(t.twin + h);
  };
  BoxSplineNet net;
  for (index_t& vertex : net.vertex) vertex = -1;
  int unknown = 0;  // reflections that read a point that is not a vertex (yet)
  auto set = [&](int p, index_t vertex) { net.vertex[p] = vertex; };
  auto reflect = [&](int p, int a, int b, int c) {
    net.reflected[p][0] = static_cast<signed char>(a), net.reflected[p][1] = static_cast<signed char>(b),
    net.reflected[p][2] = static_cast<signed char>(c);
    unknown += net.vertex[a] >= 0 && net.vertex[b] >= 0 && net.vertex[c] >= 0 ? 0 : 1;
  };
  for (int a = 0; a < 3; ++a) set(a, linalg::ldg(t.corners + 3 * f + a));
  // The sides with twins first: a side without one reads its neighbours' points.
  for (int a = 0; a < 3; ++a) {
    const index_t across = twin(3 * f + a);
    if (across < 0) continue;
    const int b = (a + 1) % 3, opposite = 3 + 3 * a;
    set(opposite, linalg::ldg(t.corners + t.prev(across)));
    const index_t near_a = twin(t.next(across)), near_b = twin(t.prev(across));
    if (near_a >= 0) set(opposite + 1, linalg::ldg(t.corners + t.prev(near_a)));
    else reflect(opposite + 1, a, opposite, b);
    if (near_b >= 0) set(opposite + 2, linalg::ldg(t.corners + t.prev(near_b)));
    else reflect(opposite + 2, opposite, b, a);
  }
  for (int a = 0; a < 3; ++a) {
    if (twin(3 * f + a) >= 0) continue;
    const int b = (a + 1) % 3, c = (a + 2) % 3, opposite = 3 + 3 * a;
    const int before = 3 + 3 * c, after = 3 + 3 * b;  // the sides before corner a and after corner b
    reflect(opposite, a, b, c);
    reflect(opposite + 1, a, before + 2, before);
    reflect(opposite + 2, b, after + 1, after);
  }
  net.complete = unknown == 0;
  return net;
}

}  // namespace spmesh::schemes::loop
