// Basic vocabulary of every layer: index type, the host/device function marker, the error hierarchy.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#if defined(__CUDACC__)
#define SPMESH_HD __host__ __device__
#else
#define SPMESH_HD
#endif

namespace spmesh {

// Indices are 32-bit: rows, columns and non-zeros of one matrix stay below 2^31.
using index_t = std::int32_t;
inline constexpr index_t max_index = std::numeric_limits<index_t>::max();

// Every error the library throws derives from Error; the message names the input and the problem.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Two operands whose shapes do not fit together (e.g. x has 5 rows, A has 7 columns).
class DimensionError : public Error {
public:
  using Error::Error;
};

// Malformed input data: a parse error (file:line), an index out of range, a broken matrix.
class InputError : public Error {
public:
  using Error::Error;
};

// A size that does not fit in index_t or in memory.
class CapacityError : public Error {
public:
  using Error::Error;
};

// Narrows a 64-bit count to index_t, or throws naming what overflowed.
inline index_t checked_index(std::int64_t n, const char* what) {
  if (n < 0 || n > max_index)
    throw CapacityError(std::string(what) + ": " + std::to_string(n) +
                        " exceeds the 32-bit index limit (2147483647)");
  return static_cast<index_t>(n);
}

}  // namespace spmesh
