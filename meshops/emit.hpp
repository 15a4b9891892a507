// Writing a large file fast: items formatted in parallel, block by block, and written in order.
#pragma once

#include "linalg/base.hpp"

#include <omp.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

namespace spmesh::meshops {

// Writes items [0, n) to `out` in order: `format(text, begin, end)` appends items [begin, end)
// to `text`. Blocks of `block` items are formatted in parallel (OpenMP), a batch of a few per
// thread at a time, so at most about 4 * threads * block items' text is held at once.
template <class Format>
void emit_in_parallel(std::ostream& out, index_t n, index_t block, Format format) {
  if (n <= 0) return;
  const index_t blocks = (n + block - 1) / block;
  std::vector<std::string> texts(static_cast<std::size_t>(4 * omp_get_max_threads()));
  const index_t batch = static_cast<index_t>(texts.size());
  for (index_t first = 0; first < blocks; first += batch) {
    const index_t count = std::min(batch, blocks - first);
#pragma omp parallel for schedule(dynamic) if (count > 1)
    for (index_t b = 0; b < count; ++b) {
      std::string& text = texts[static_cast<std::size_t>(b)];
      text.clear();
      const index_t begin = (first + b) * block;
      format(text, begin, std::min(n, begin + block));
    }
    for (index_t b = 0; b < count && out; ++b)
      out.write(texts[static_cast<std::size_t>(b)].data(),
                static_cast<std::streamsize>(texts[static_cast<std::size_t>(b)].size()));
  }
}

}  // namespace spmesh::meshops
