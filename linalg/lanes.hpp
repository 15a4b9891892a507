// Cooperating lanes: an executor whose `lanes` is above 1 can run G threads per item
// (for_each_grouped<G>), which combine their partial results with lane_sum<G>. The CPU
// executor has one lane, where lane_sum is the identity. The combination order is fixed (a
// tree over the G lanes), so results are the same bits every run.
#pragma once

#include "linalg/base.hpp"

namespace spmesh::linalg {

// The sum of v over the G lanes of an item, in lane 0 (other lanes hold partial sums). Every
// lane of the warp must call it.
template <int G, class T>
SPMESH_HD T lane_sum(T v) {
#if defined(__CUDA_ARCH__)  // (host code runs one lane per item: nothing to combine)
  for (int offset = G / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset, G);
#endif
  return v;
}

}  // namespace spmesh::linalg
