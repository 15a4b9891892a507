// Transfer<Exec> for the CPU executor (pipeline.hpp): host objects are copied, since the
// pipeline keeps its inputs; nothing is counted as executor memory.
#pragma once

#include "apps/pipeline.hpp"
#include "linalg/cpu/executor.hpp"

namespace spmesh::apps {

template <>
struct Transfer<linalg::cpu::Executor> {
  template <class X>
  static X up(const X& x) { return copy(x); }
  template <class X>
  static X down(const X& x) { return copy(x); }
  static std::size_t peak_bytes() { return 0; }

private:
  template <class X>
  static X copy(const X& x) {
    if constexpr (requires { x.clone(); }) return x.clone();
    else return X{x.rows, x.cols, x.row_indices.clone(), x.col_indices.clone(), x.values.clone()};
  }
};

}  // namespace spmesh::apps
