// Scratch space of one item of an executor's for_each_with_scratch<Bytes>: Bytes bytes that the
// item alone uses while it runs, such as a small sorted set (detail/rows.hpp). On the GPU the
// items of a thread block share the block's shared memory, each array interleaved over the
// block's threads (element m of thread t next to element m of thread t + 1: no bank conflicts);
// on the CPU it is an array on the item's stack. A kernel that keeps such a set in local memory
// instead thrashes the caches once tens of thousands of threads each hold a few hundred bytes
// (composing Catmull-Clark's refinement matrix of ArmorGuy level 6: bench/RESULTS.md).
#pragma once

#include "linalg/base.hpp"

#include <cstddef>

namespace spmesh::linalg {

// count elements of U, element m at p[m * stride].
template <class U>
struct Strided {
  U* p;
  index_t stride;
  SPMESH_HD U& operator[](index_t m) const { return p[m * stride]; }
};

// An item's share of `items` items' scratch laid out side by side from `base`. take<U>(count)
// hands out the item's next array; every item takes the same arrays in the same order.
class ItemScratch {
public:
  SPMESH_HD ItemScratch(std::byte* base, index_t item, index_t items)
      : next_(base), item_(item), items_(items) {}

  template <class U>
  SPMESH_HD Strided<U> take(index_t count) {
    U* first = reinterpret_cast<U*>(next_);
    next_ += sizeof(U) * static_cast<std::size_t>(count) * items_;
    return {first + item_, items_};
  }

private:
  std::byte* next_;
  index_t item_, items_;
};

}  // namespace spmesh::linalg
