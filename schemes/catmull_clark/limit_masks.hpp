// Catmull-Clark's limit masks at a vertex (half_edges/limits.hpp sums them), the weights
// OpenSubdiv's Sdc gives, so that limit points and tangents are its Far::PrimvarRefiner::Limit's:
//   smooth   position (Halstead et al. 1993): the vertex n / (n + 5), each edge's far end
//            4 / (n (n + 5)), each face's far corner 1 / (n (n + 5)) (4/9, 1/9, 1/36 at n = 4);
//            first tangent: edge i 4 cos(i 2pi/n), face i (cos(i 2pi/n) + cos((i+1) 2pi/n)) /
//            (4 lambda - 1), lambda = 5/16 + (cos(2pi/n) + cos(pi/n) sqrt(2 (9 + cos(2pi/n)))) / 16
//            the subdominant eigenvalue; the second tangent is the first turned by one edge
//            (valence 2 takes the corner masks);
//   crease   position: 2/3 the vertex, 1/6 each end of the crease (the cubic B-spline along
//            it); tangent along it: (end 0 - end 1) / 2; across (into the k - 1 edges between
//            the ends, counterclockwise): the B-spline's where k = 2, Biermann et al. 2000's
//            (theta = pi / k) where k > 2, 3 (ends) - 6 (vertex) where k = 1;
//   corner   position: the vertex; tangents: edge 0's and edge 1's far ends minus the vertex.
// The tangents are not normalised (their sizes follow OpenSubdiv's conventions).
#pragma once

#include "schemes/half_edges/limits.hpp"

#include <cmath>

namespace spmesh::schemes::catmull_clark {

struct LimitMask {
  static constexpr bool face_weights = true;
  // OpenSubdiv lists the faces of the inner edge of a face's corner j as (the child at corner j,
  // the child at corner j + 1): for the last corner the later child first (ring_starts).
  static constexpr bool last_inner_edge_turned = true;
  LimitRing ring;
  int n = 0;                      // smooth: the valence (faces)
  double theta = 0, face_scale = 0;  // smooth: 2pi / n and 1 / (4 lambda - 1); crease: pi / k
  double common = 0, radius = 0;     // crease, k > 2: 1 / (k (3 + cos theta)), (cos theta + 1) / sin theta

  SPMESH_HD explicit LimitMask(const LimitRing& r) : ring(r), n(r.faces) {
    if (ring.rule == LimitRule::smooth && n == 2) ring.rule = LimitRule::corner;
    constexpr double pi = 3.14159265358979323846;
    if (ring.rule == LimitRule::smooth) {
      theta = 2 * pi / n;
      const double lambda = 5.0 / 16 + (cos(theta) + cos(theta / 2) * sqrt(2 * (9 + cos(theta)))) / 16;
      face_scale = n == 4 ? 1.0 : 1 / (4 * lambda - 1);  // lambda = 1/2 at n = 4
    } else if (ring.rule == LimitRule::crease && inner() > 1) {
      const double k = inner() + 1;
      theta = pi / k, common = 1 / (k * (3 + cos(theta))), radius = (cos(theta) + 1) / sin(theta);
    }
  }

  // A crease's edges between its ends.
  SPMESH_HD int inner() const { return ring.crease[1] - ring.crease[0] - 1; }
  // cos(i theta) of the smooth masks, exact at the regular valence.
  SPMESH_HD double cosine(int i) const {
    if (n == 4) return (i & 1) ? 0.0 : (i & 2) ? -1.0 : 1.0;
    return cos(i * theta);
  }
  SPMESH_HD double smooth_edge(int i) const { return 4 * cosine(i % n); }
  SPMESH_HD double smooth_face(int i) const { return face_scale * (cosine(i % n) + cosine((i + 1) % n)); }

  SPMESH_HD LimitWeights vertex() const {
    switch (ring.rule) {
      case LimitRule::corner: return {1, -1, -1};
      case LimitRule::crease: {
        const double across = inner() == 1 ? -4.0 / 6 : inner() > 1 ? 4 * radius * (cos(theta) - 1) * common : -6.0;
        return {2.0 / 3, 0, across};
      }
      default: return {n == 4 ? 4.0 / 9 : 1 - 5.0 / (n + 5.0), 0, 0};
    }
  }
  SPMESH_HD LimitWeights edge(int i) const {
    switch (ring.rule) {
      case LimitRule::corner: return {0, i == 0 ? 1.0 : 0.0, i == 1 ? 1.0 : 0.0};
      case LimitRule::crease: {
        const int e0 = ring.crease[0], e1 = ring.crease[1];
        const bool end = i == e0 || i == e1;
        LimitWeights w{end ? 1.0 / 6 : 0.0, i == e0 ? 0.5 : i == e1 ? -0.5 : 0.0, 0};
        if (i < e0 || i > e1) return w;
        if (inner() == 1) w.second = end ? -1.0 / 6 : 4.0 / 6;
        else if (inner() > 1) w.second = end ? -radius * (1 + 2 * cos(theta)) * common : 4 * sin((i - e0) * theta) * common;
        else w.second = 3;
        return w;
      }
      default: return {n == 4 ? 1.0 / 9 : 4.0 / (n * (n + 5.0)), smooth_edge(i), smooth_edge(i + n - 1)};
    }
  }
  SPMESH_HD LimitWeights face(int i) const {
    switch (ring.rule) {
      case LimitRule::corner: return {};
      case LimitRule::crease: {
        const int e0 = ring.crease[0];
        if (i < e0 || i >= ring.crease[1] || inner() < 1) return {};
        if (inner() == 1) return {0, 0, 1.0 / 6};
        return {0, 0, (sin((i - e0) * theta) + sin((i - e0 + 1) * theta)) * common};
      }
      default: return {n == 4 ? 1.0 / 36 : 1.0 / (n * (n + 5.0)), smooth_face(i), smooth_face(i + n - 1)};
    }
  }
};

}  // namespace spmesh::schemes::catmull_clark
