// Writing a large file fast: items formatted in parallel, block by block, and written in order
// by a second thread while the next blocks are formatted.
#pragma once

#include "linalg/base.hpp"
#include "meshops/tuning.hpp"

#include <omp.h>

#include <algorithm>
#include <future>
#include <ostream>
#include <string>
#include <vector>

namespace spmesh::meshops {

// Writes texts in order to `out` on another thread; wait() before touching them again. The
// stream is used by that thread alone until then.
class BackgroundWriter {
public:
  explicit BackgroundWriter(std::ostream& out) : out_(out) {}
  ~BackgroundWriter() { wait(); }
  BackgroundWriter(const BackgroundWriter&) = delete;
  BackgroundWriter& operator=(const BackgroundWriter&) = delete;

  void write(const std::vector<std::string>& texts, std::size_t count) {
    wait();
    writing_ = std::async(std::launch::async, [this, &texts, count] {
      for (std::size_t b = 0; b < count && out_; ++b)
        out_.write(texts[b].data(), static_cast<std::streamsize>(texts[b].size()));
    });
  }
  void wait() {
    if (writing_.valid()) writing_.get();
  }

private:
  std::ostream& out_;
  std::future<void> writing_;
};

// Writes items [0, n) to `out` in order: `format(text, begin, end)` appends items [begin, end)
// to `text`, at most `item_bytes` bytes an item. Batches of a few blocks per thread, each batch
// about tuning::emit_batch_bytes, are formatted in parallel (OpenMP) while the batch before is written.
template <class Format>
void emit_in_parallel(std::ostream& out, index_t n, std::size_t item_bytes, Format format) {
  if (n <= 0) return;
  const std::size_t batch_size = static_cast<std::size_t>(4 * omp_get_max_threads());
  const index_t block = static_cast<index_t>(
      std::max<std::size_t>(1, tuning::emit_batch_bytes / (batch_size * std::max<std::size_t>(1, item_bytes))));
  const index_t blocks = (n + block - 1) / block;
  std::vector<std::string> texts[2] = {std::vector<std::string>(batch_size),
                                       std::vector<std::string>(batch_size)};
  BackgroundWriter writer(out);  // after texts: it finishes before they go
  const index_t batch = static_cast<index_t>(batch_size);
  int current = 0;
  for (index_t first = 0; first < blocks; first += batch, current ^= 1) {
    const index_t count = std::min(batch, blocks - first);
    auto& batch_texts = texts[current];  // the other set may still be being written
#pragma omp parallel for schedule(dynamic) if (count > 1)
    for (index_t b = 0; b < count; ++b) {
      std::string& text = batch_texts[static_cast<std::size_t>(b)];
      text.clear();
      const index_t begin = (first + b) * block;
      format(text, begin, std::min(n, begin + block));
    }
    writer.write(batch_texts, static_cast<std::size_t>(count));
  }
  writer.wait();
}

}  // namespace spmesh::meshops
