// Two kernels' independent work in one launch: small inputs are bound by launches, not by the
// work, so two for_each bodies that need no barrier between them share one.
#pragma once

#include "linalg/base.hpp"

namespace spmesh::linalg {

// first(i) for i in [0, first_count), then second(i - first_count) for i past it; run it with
// exec.for_each(first_count + second's count, fuse(first, first_count, second)).
template <class First, class Second>
struct Fused {
  First first;
  index_t first_count;
  Second second;
  SPMESH_HD void operator()(index_t i) const {
    if (i < first_count) first(i);
    else second(i - first_count);
  }
};
template <class First, class Second>
Fused<First, Second> fuse(First first, index_t first_count, Second second) {
  return {first, first_count, second};
}

}  // namespace spmesh::linalg
