// The message of the InputError a call throws, for tests that compare messages.
#pragma once

#include "linalg/base.hpp"

#include <string>

namespace spmesh::test {

// The message of the InputError that `call` throws ("" if none).
template <class Call>
std::string input_error(Call&& call) {
  try {
    call();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace spmesh::test
