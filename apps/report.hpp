// One line of a command's stage timings and peak memory, as the commands print it.
#pragma once

#include "apps/pipeline.hpp"

#include <fmt/format.h>

#include <string>

namespace spmesh::apps {

inline std::string summary(const Stages& s, const std::string& device) {
  std::string line = fmt::format("upload {:.2f} ms, ", s.upload);
  if (s.build > 0) line += fmt::format("build {:.2f} ms, ", s.build);
  if (s.build_and_eval > 0) line += fmt::format("build and eval {:.2f} ms, ", s.build_and_eval);
  if (s.compose > 0) line += fmt::format("compose R {:.2f} ms, ", s.compose);
  if (s.eval > 0) line += fmt::format("eval {:.2f} ms, ", s.eval);
  line += fmt::format("download {:.2f} ms", s.download);
  if (device == "cuda") line += fmt::format(", peak GPU memory {:.1f} MiB", s.peak_bytes / 1048576.0);
  return line;
}

}  // namespace spmesh::apps
