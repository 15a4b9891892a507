// Loop's limit masks at a vertex (half_edges/limits.hpp sums them), the weights OpenSubdiv's Sdc
// gives, so that limit points and tangents are its Far::PrimvarRefiner::Limit's:
//   smooth   position (Loop 1987): each edge's far end 1 / (n + 3 / (8 gamma)), gamma =
//            (5/8 - beta^2) / n, beta = 3/8 + cos(2pi/n) / 4, the vertex the rest (1/12 and 1/2
//            at n = 6); tangents: edge i cos(i 2pi/n) and sin(i 2pi/n);
//   crease   position: 2/3 the vertex, 1/6 each end (the cubic B-spline along the crease);
//            along: 3/2 (end 0 - end 1); across the k - 1 edges between the ends: by k, the
//            regular sqrt(3) weights (k = 3), -3 sin(theta) at the ends and -6 (cos theta - 1)
//            sin(i theta) between (k > 3, theta = pi / k), 3 (middle - vertex) (k = 2), 3 (ends) -
//            6 (vertex) (k = 1);
//   corner   position: the vertex; tangents: 3 (edge 0's and edge 1's far ends - the vertex).
// The scale factors (3/2, 3) are OpenSubdiv's, which keep boundary and corner tangents the size
// of the smooth ones beside them. No face weights.
#pragma once

#include "schemes/half_edges/limits.hpp"

#include <cmath>

namespace spmesh::schemes::loop {

struct LimitMask {
  static constexpr bool face_weights = false;
  // OpenSubdiv lists an inner edge's faces as (corner child, middle child): the lower first.
  static constexpr bool last_inner_edge_turned = false;
  LimitRing ring;
  int n = 0;          // smooth: the valence
  double theta = 0;   // smooth: 2pi / n; crease, k > 3: pi / k

  SPMESH_HD explicit LimitMask(const LimitRing& r) : ring(r), n(r.faces) {
    constexpr double pi = 3.14159265358979323846;
    if (ring.rule == LimitRule::smooth) theta = 2 * pi / n;
    else if (ring.rule == LimitRule::crease && inner() > 2) theta = pi / (inner() + 1);
  }

  SPMESH_HD int inner() const { return ring.crease[1] - ring.crease[0] - 1; }

  SPMESH_HD LimitWeights vertex() const {
    constexpr double root3 = 1.73205080756887729352;
    switch (ring.rule) {
      case LimitRule::corner: return {1, -3, -3};
      case LimitRule::crease: return {2.0 / 3, 0, inner() == 2 ? -root3 : inner() > 2 ? 0.0 : inner() == 1 ? -3.0 : -6.0};
      default: {
        if (n == 6) return {0.5, 0, 0};
        const double beta = 0.375 + 0.25 * cos(theta), gamma = (0.625 - beta * beta) / n;
        return {1 - n / (n + 3 / (8 * gamma)), 0, 0};
      }
    }
  }
  SPMESH_HD LimitWeights edge(int i) const {
    constexpr double root3 = 1.73205080756887729352;
    switch (ring.rule) {
      case LimitRule::corner: return {0, i == 0 ? 3.0 : 0.0, i == 1 ? 3.0 : 0.0};
      case LimitRule::crease: {
        const int e0 = ring.crease[0], e1 = ring.crease[1];
        const bool end = i == e0 || i == e1;
        LimitWeights w{end ? 1.0 / 6 : 0.0, i == e0 ? 1.5 : i == e1 ? -1.5 : 0.0, 0};
        if (i < e0 || i > e1) return w;
        if (inner() == 2) w.second = end ? -root3 / 2 : root3;
        else if (inner() > 2) w.second = end ? -3 * sin(theta) : -6 * (cos(theta) - 1) * sin((i - e0) * theta);
        else if (inner() == 1) w.second = end ? 0.0 : 3.0;
        else w.second = 3;
        return w;
      }
      default: {
        if (n == 6) {  // cos and sin of i pi/3, exact
          const double c = i == 0 ? 1.0 : i == 3 ? -1.0 : i == 1 || i == 5 ? 0.5 : -0.5;
          const double s = i == 0 || i == 3 ? 0.0 : i < 3 ? root3 / 2 : -root3 / 2;
          return {1.0 / 12, c, s};
        }
        const double beta = 0.375 + 0.25 * cos(theta), gamma = (0.625 - beta * beta) / n;
        return {1 / (n + 3 / (8 * gamma)), cos(i * theta), sin(i * theta)};
      }
    }
  }
  SPMESH_HD LimitWeights face(int) const { return {}; }
};

}  // namespace spmesh::schemes::loop
