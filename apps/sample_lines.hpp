// The text output of `spmesh limit --at`, for a surface's samples and a solid's: a line a sample,
// each block's three numbers in turn (the position, then the derivatives), float to 9 significant
// digits and double to 17 (each value read back exactly).
#pragma once

#include "apps/progress.hpp"
#include "linalg/formats.hpp"
#include "meshops/output.hpp"

#include <fmt/format.h>

#include <initializer_list>
#include <ostream>
#include <string>
#include <type_traits>

namespace spmesh::apps {

// InputError unless `path` is a text file (.txt) or a device (/dev/stdout).
inline void check_sample_output(const std::string& path) {
  if (!path.ends_with(".txt") && !path.starts_with("/dev/"))
    throw InputError(path + ": spmesh limit --at writes text, a line a sample; give a path ending in .txt");
}

// The blocks' rows, a line a sample, written to `path` among `outputs` and committed.
template <class T>
void write_sample_lines(meshops::OutputFiles& outputs, const std::string& path,
                        std::initializer_list<const linalg::Dense<T>*> blocks) {
  Progress progress("writing " + path);
  const index_t rows = blocks.size() ? (*blocks.begin())->rows : 0;
  outputs.write(path, [&](std::ostream& os) {
    const char* number = std::is_same_v<T, float> ? "{:.9g}" : "{:.17g}";
    std::string line;
    for (index_t s = 0; s < rows; ++s) {
      line.clear();
      for (const auto* block : blocks)
        for (index_t c = 0; c < block->cols; ++c) {
          if (!line.empty()) line += ' ';
          line += fmt::format(fmt::runtime(number), (*block)(s, c));
        }
      os << line << '\n';
    }
  });
  outputs.commit();
}

}  // namespace spmesh::apps
