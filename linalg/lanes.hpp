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

// reduce(...) of v over the G lanes of an item, in lane 0: the same tree as lane_sum, for any
// reduction of maps.hpp (Sum, Min, Max). Every lane of the warp must call it.
template <int G, class T, class Reduce>
SPMESH_HD T lane_reduce(T v, [[maybe_unused]] Reduce reduce) {
#if defined(__CUDA_ARCH__)
  for (int offset = G / 2; offset > 0; offset /= 2) v = reduce(v, __shfl_down_sync(0xffffffffu, v, offset, G));
#endif
  return v;
}

// The sum of v over the G lanes of an item, in every lane: a butterfly, so that every lane
// holds the same bits ((v0 + v1) + (v2 + v3) for G = 4). Every lane of the warp must call it.
template <int G, class T>
SPMESH_HD T lane_all_sum(T v) {
#if defined(__CUDA_ARCH__)
  for (int offset = 1; offset < G; offset *= 2) v += __shfl_xor_sync(0xffffffffu, v, offset, G);
#endif
  return v;
}

// v as lane `from` of the same item holds it. Every lane of the warp must call it.
template <int G, class T>
SPMESH_HD T lane_get(T v, [[maybe_unused]] int from) {
#if defined(__CUDA_ARCH__)
  return __shfl_sync(0xffffffffu, v, from, G);
#else
  return v;
#endif
}

}  // namespace spmesh::linalg
