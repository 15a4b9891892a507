// Device intrinsics for one-source kernels, with their plain C++ meaning on the host: loads
// through the GPU's read-only cache, 16-byte loads and stores of four indices, trailing zeros.
#pragma once

#include "linalg/base.hpp"

#include <bit>

namespace spmesh::linalg {

// A load through the GPU's read-only cache (the array must not change during the kernel), so
// that the compiler may reorder it past the kernel's stores.
template <class T>
SPMESH_HD inline T ldg(const T* p) {
#if defined(__CUDA_ARCH__)
  return __ldg(p);
#else
  return *p;
#endif
}

// The number of trailing zero bits of x > 0.
SPMESH_HD inline int trailing_zeros(unsigned x) {
#if defined(__CUDA_ARCH__)
  return __ffs(x) - 1;
#else
  return std::countr_zero(x);
#endif
}

// Four consecutive indices (a quad's vertices, twins or edge codes; a third of a triangle's
// four children), as one 16-byte access on the GPU (p must be 16-byte aligned).
struct Index4 {
  index_t v[4];
};
SPMESH_HD inline Index4 load4(const index_t* p) {
#if defined(__CUDA_ARCH__)
  const int4 x = __ldg(reinterpret_cast<const int4*>(p));
  return {{x.x, x.y, x.z, x.w}};
#else
  return {{p[0], p[1], p[2], p[3]}};
#endif
}
SPMESH_HD inline void store4(index_t* p, const Index4& x) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<int4*>(p) = make_int4(x.v[0], x.v[1], x.v[2], x.v[3]);
#else
  for (int s = 0; s < 4; ++s) p[s] = x.v[s];
#endif
}

}  // namespace spmesh::linalg
