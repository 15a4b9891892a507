// What every example checks its results with: a claim that must hold, or the program exits 1
// naming it, so that ctest fails when the README's code stops doing what the README says.
#pragma once

#include "linalg/formats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace examples {

inline void expect(bool holds, const char* claim) {
  if (holds) return;
  std::fprintf(stderr, "FAILED: %s\n", claim);
  std::exit(1);
}

// The largest |a - b| over two blocks of the same shape (infinity if the shapes differ).
template <class T>
double max_difference(const spmesh::linalg::Dense<T>& a, const spmesh::linalg::Dense<T>& b) {
  if (a.rows != b.rows || a.cols != b.cols) return std::numeric_limits<double>::infinity();
  double d = 0;
  for (spmesh::index_t p = 0; p < a.data.size(); ++p)
    d = std::max(d, std::abs(double(a.data[p]) - double(b.data[p])));
  return d;
}

// Whether two blocks hold the same bits (not merely values within rounding).
template <class T>
bool same_bits(const spmesh::linalg::Dense<T>& a, const spmesh::linalg::Dense<T>& b) {
  return a.rows == b.rows && a.cols == b.cols &&
         std::memcmp(a.data.data(), b.data.data(), sizeof(T) * std::size_t(a.data.size())) == 0;
}

}  // namespace examples
