// Reductions in a fixed order on any executor: each of tuning::dot_blocks blocks of consecutive
// rows reduced by the executor's lanes (lanes.hpp: a lane takes every G-th row of the block in
// order, then a fixed tree combines the lanes), then the blocks' results the same way. The same
// bits every run (no atomics); the CPU (one lane) and the GPU (32) differ by rounding only.
// Conjugate gradients' dot products and the mesh algorithms' totals (a mean edge length, the
// smallest heat) are these.
#pragma once

#include "linalg/array.hpp"
#include "linalg/executor.hpp"
#include "linalg/lanes.hpp"
#include "linalg/maps.hpp"
#include "linalg/tuning.hpp"

#include <cstdint>

namespace spmesh::linalg {

// out[c] = reduce over i in [0, n) of term(i, c), for the k columns c (reduce as in maps.hpp:
// reduce::Sum, Min, Max); `partial` holds tuning::dot_blocks x k doubles of the caller's; `out`
// (k doubles) stays in executor memory.
template <class Exec, class Term, class Reduce = reduce::Sum>
void column_reduce(Exec& exec, index_t n, index_t k, Term term, double* partial, double* out, Reduce reduce = {}) {
  constexpr int G = Exec::lanes;
  const index_t blocks = tuning::dot_blocks, chunk = (n + blocks - 1) / blocks, items = blocks * k;
  // (for_each_grouped also calls items past the end, which take part in the lanes' tree only.)
  exec.template for_each_grouped<G>(items, [=] SPMESH_HD(index_t item, int lane) {
    const index_t b = item / k, c = item % k;
    const index_t lo = item < items ? b * chunk : n, hi = lo + chunk < n ? lo + chunk : n;
    double result = reduce.template identity<double>();
    for (index_t i = lo + lane; i < hi; i += G) result = reduce(result, double(term(i, c)));
    result = lane_reduce<G>(result, reduce);
    if (lane == 0 && item < items) partial[item] = result;
  });
  exec.template for_each_grouped<G>(k, [=] SPMESH_HD(index_t c, int lane) {
    double result = reduce.template identity<double>();
    for (index_t b = lane; c < k && b < blocks; b += G) result = reduce(result, partial[std::int64_t(b) * k + c]);
    result = lane_reduce<G>(result, reduce);
    if (lane == 0 && c < k) out[c] = result;
  });
}

// The reduction over i in [0, n) of term(i) (by default the sum), read by the host (one wait).
template <class Exec, class Term, class Reduce = reduce::Sum>
double reduce_all(Exec& exec, index_t n, Term term, Reduce reduce = {}) {
  Array<double, typename Exec::space> partial(tuning::dot_blocks), result(1);
  column_reduce(exec, n, 1, [=] SPMESH_HD(index_t i, index_t) { return term(i); }, partial.data(), result.data(), reduce);
  double host = 0;
  exec.read(result.data(), 1, &host);
  return host;
}

}  // namespace spmesh::linalg
