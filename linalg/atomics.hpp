// Integer atomics for one-source kernels (run by cpu::Executor's threads or as CUDA kernels):
// compare-and-swap of a 64-bit key or an index, add, min and max of an index. Integers only,
// whose result does not depend on the order the operations land in (design.md, "Determinism":
// no floating-point atomics).
#pragma once

#include "linalg/base.hpp"

#include <atomic>
#include <cstdint>

namespace spmesh::linalg {

// Stores `desired` at p if it holds `expected`; returns what p held before.
SPMESH_HD inline std::uint64_t atomic_cas(std::uint64_t* p, std::uint64_t expected,
                                          std::uint64_t desired) {
#if defined(__CUDA_ARCH__)
  static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t));
  return atomicCAS(reinterpret_cast<unsigned long long*>(p), expected, desired);
#else
  std::atomic_ref<std::uint64_t>(*p).compare_exchange_strong(expected, desired);
  return expected;
#endif
}

SPMESH_HD inline index_t atomic_cas(index_t* p, index_t expected, index_t desired) {
#if defined(__CUDA_ARCH__)
  return atomicCAS(p, expected, desired);
#else
  std::atomic_ref<index_t>(*p).compare_exchange_strong(expected, desired);
  return expected;
#endif
}

// *p += v; returns the value before.
SPMESH_HD inline index_t atomic_add(index_t* p, index_t v) {
#if defined(__CUDA_ARCH__)
  return atomicAdd(p, v);
#else
  return std::atomic_ref<index_t>(*p).fetch_add(v);
#endif
}

// *p = min(*p, v) and *p = max(*p, v).
SPMESH_HD inline void atomic_min(index_t* p, index_t v) {
#if defined(__CUDA_ARCH__)
  atomicMin(p, v);
#else
  std::atomic_ref<index_t> a(*p);
  index_t seen = a.load(std::memory_order_relaxed);
  while (v < seen && !a.compare_exchange_weak(seen, v, std::memory_order_relaxed)) {
  }
#endif
}
SPMESH_HD inline void atomic_max(index_t* p, index_t v) {
#if defined(__CUDA_ARCH__)
  atomicMax(p, v);
#else
  std::atomic_ref<index_t> a(*p);
  index_t seen = a.load(std::memory_order_relaxed);
  while (v > seen && !a.compare_exchange_weak(seen, v, std::memory_order_relaxed)) {
  }
#endif
}

}  // namespace spmesh::linalg
