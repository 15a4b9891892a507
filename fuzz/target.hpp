// What every fuzz target does with one input: run the reader and accept spmesh::Error (the
// readers' answer to bad input, with a message) as a correct outcome. Anything else, another
// exception (std::terminate), a crash, a hang or a sanitizer report, is a finding.
#pragma once

#include "linalg/base.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace spmesh::fuzz {

inline std::string_view bytes(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

template <class Read>
int run(Read&& read) {
  try {
    read();
  } catch (const spmesh::Error&) {
  }
  return 0;
}

}  // namespace spmesh::fuzz
