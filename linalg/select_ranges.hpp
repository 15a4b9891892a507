// Several selections in one pass: for each range (n, keep) of a chain, the positions p in
// [0, n) where keep(p) holds, found by one select_positions over the ranges laid end to end and
// read back with one wait. Made alone, each selection costs two launches, a wait and four
// allocations; small inputs are bound by those host calls.
#pragma once

#include "linalg/array.hpp"
#include "linalg/base.hpp"

namespace spmesh::linalg {

// A chain of ranges: range(n, keep, range(...)) ending in NoRange.
struct NoRange {
  static constexpr int count = 0;
  SPMESH_HD bool operator()(index_t) const { return false; }
  void sizes(index_t*) const {}
};
template <class Keep, class Next>
struct Range {
  static constexpr int count = 1 + Next::count;
  index_t n;
  Keep keep;
  Next next;
  SPMESH_HD bool operator()(index_t i) const { return i < n ? keep(i) : next(i - n); }
  void sizes(index_t* out) const { *out = n, next.sizes(out + 1); }
};
template <class Keep, class Next = NoRange>
Range<Keep, Next> range(index_t n, Keep keep, Next next = {}) {
  return {n, keep, next};
}

// What select_ranges returns: the positions chosen in the ranges laid end to end, increasing;
// per range, where it starts in that sequence, where its chosen positions start among them, and
// the first position it chose (-1 where it chose none).
template <class S>
struct Selected {
  static constexpr int capacity = 8;
  Array<index_t, S> positions;
  index_t start[capacity + 1] = {}, first[capacity + 1] = {}, head[capacity] = {};
  index_t count(int r) const { return first[r + 1] - first[r]; }
};

namespace detail {

// Per chosen position i in [0, total]: the ranges whose first chosen is i (those after the range
// of chosen i - 1, up to that of chosen i; the rest at total), into first[0, ranges], and the
// first position chosen in each range, into head[r] = first[ranges + 1 + r]. Thread 0 also
// copies the caller's value `also` into first[2 ranges + 1].
struct RangeFirsts {
  const index_t *positions, *total, *also;
  index_t* first;
  index_t start[Selected<Host>::capacity + 1];
  int ranges;
  SPMESH_HD int range_of(index_t p) const {
    int r = 0;
    while (r + 1 < ranges && p >= start[r + 1]) ++r;
    return r;
  }
  SPMESH_HD void operator()(index_t i) const {
    const index_t n = *total;
    if (i == 0 && also) first[2 * ranges + 1] = *also;
    if (i > n) return;
    const int before = i == 0 ? -1 : range_of(positions[i - 1]);
    const int at = i == n ? ranges : range_of(positions[i]);
    for (int r = before + 1; r <= at; ++r) first[r] = i;
    if (at < ranges && at > before) first[ranges + 1 + at] = positions[i] - start[at];
  }
};

}  // namespace detail

// The selections of a chain of ranges, with one wait; `also` (device memory, may be null) is
// read in the same wait, into *also_host.
template <class Exec, class Ranges, class S = typename Exec::space>
Selected<S> select_ranges(Exec& exec, const Ranges& ranges, const index_t* also = nullptr,
                          index_t* also_host = nullptr) {
  static_assert(Ranges::count <= Selected<S>::capacity);
  constexpr int R = Ranges::count;
  Selected<S> out;
  index_t sizes[R];
  ranges.sizes(sizes);
  for (int r = 0; r < R; ++r) out.start[r + 1] = out.start[r] + sizes[r];
  const index_t N = out.start[R];
  out.positions = Array<index_t, S>(N);
  Array<index_t, S> found(2 * R + 3);  // first[0, R], head[0, R), also, total
  detail::RangeFirsts firsts{
      out.positions.data(), found.data() + 2 * R + 2, also, found.data(), {}, R};
  for (int r = 0; r <= R; ++r) firsts.start[r] = out.start[r];
  exec.select_positions(N, out.positions.data(), found.data() + 2 * R + 2, ranges);
  exec.for_each(N + 1, firsts);
  index_t host[2 * R + 2];
  exec.read(found.data(), 2 * R + 2, host);
  for (int r = 0; r <= R; ++r) out.first[r] = host[r];
  for (int r = 0; r < R; ++r) out.head[r] = out.count(r) > 0 ? host[R + 1 + r] : -1;
  if (also_host) *also_host = host[2 * R + 1];
  return out;
}

}  // namespace spmesh::linalg
