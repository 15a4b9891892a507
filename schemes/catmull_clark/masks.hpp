// Catmull-Clark's masks as the crease rules take them (crease_rules.hpp): its smooth vertex
// mask and its edge point's weights. Shared by the surface scheme and by the boundary surface
// of Catmull-Clark solids (solids/sharpness.hpp).
#pragma once

#include "schemes/crease_rules.hpp"

namespace spmesh::schemes::catmull_clark {

// Eq. 2 with the crease blend: e = (1 + w)/4 (p_i + p_j) + (1 - w)/4 (f_0 + f_1).
struct EdgeWeights {
  SPMESH_HD EdgeMask operator()(double w) const { return {(1 + w) / 4, (1 - w) / 4}; }
};

// Eq. 14's smooth mask: a = (n - 2)/n, b = 1/n^2 (on the ring and on the adjacent face points).
struct SmoothMask {
  SPMESH_HD VertexMask operator()(index_t n) const {
    VertexMask m;
    m.self = (n - 2.0) / n, m.ring = 1.0 / (double(n) * n);
    return m;
  }
};

namespace detail {
using catmull_clark::EdgeWeights;
using catmull_clark::SmoothMask;
}  // namespace detail

}  // namespace spmesh::schemes::catmull_clark
