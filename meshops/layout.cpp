// FileLayout (layout.hpp): sections found by their offsets, records by binary search, windows
// filled with every thread.
#include "meshops/layout.hpp"

#include "meshops/emit.hpp"
#include "meshops/tuning.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace spmesh::meshops {

void FileLayout::add(std::size_t size, FillBytes fill) {
  if (size == 0) return;
  sections_.push_back({size_, size, std::move(fill)});
  size_ += size;
}

void FileLayout::add_bytes(const void* data, std::size_t size) {
  const char* bytes = static_cast<const char*>(data);
  add(size, [bytes](char* out, std::size_t begin, std::size_t end) {
    std::memcpy(out, bytes + begin, end - begin);
  });
}

void FileLayout::add_records(index_t count, std::function<std::size_t(index_t)> place,
                         std::function<void(char*, index_t)> encode) {
  const std::size_t size = place(count);
  add(size, [count, place = std::move(place), encode = std::move(encode)](
                char* out, std::size_t begin, std::size_t end) {
    // The first record that ends after `begin`.
    index_t low = 0, high = count;
    while (low < high) {
      const index_t mid = low + (high - low) / 2;
      if (place(mid + 1) <= begin) low = mid + 1;
      else high = mid;
    }
    std::string cut;
    for (index_t i = low; i < count; ++i) {
      const std::size_t from = place(i), to = place(i + 1);
      if (from >= end) break;
      if (from >= begin && to <= end) {
        encode(out + (from - begin), i);
      } else {  // a record cut by the range's ends
        cut.resize(to - from);
        encode(cut.data(), i);
        const std::size_t first = std::max(from, begin), last = std::min(to, end);
        std::memcpy(out + (first - begin), cut.data() + (first - from), last - first);
      }
    }
  });
}

void FileLayout::fill(char* out, std::size_t begin, std::size_t end) const {
  // The first section that ends after `begin`, then each one the range reaches.
  auto s = std::partition_point(sections_.begin(), sections_.end(),
                                [&](const Section& x) { return x.at + x.size <= begin; });
  for (; s != sections_.end() && s->at < end; ++s) {
    const std::size_t first = std::max(begin, s->at), last = std::min(end, s->at + s->size);
    s->fill(out + (first - begin), first - s->at, last - s->at);
  }
}

void fill_in_parallel(const FileLayout& layout, char* out, std::size_t begin, std::size_t end) {
  const std::size_t slice = tuning::layout_slice_bytes;
  const auto slices = static_cast<std::int64_t>((end - begin + slice - 1) / slice);
#pragma omp parallel for schedule(dynamic) if (slices > 1)
  for (std::int64_t k = 0; k < slices; ++k) {
    const std::size_t from = begin + std::size_t(k) * slice, to = std::min(end, from + slice);
    layout.fill(out + (from - begin), from, to);
  }
}

void write_layout(std::ostream& out, const FileLayout& layout) {
  std::vector<std::string> windows[2] = {std::vector<std::string>(1), std::vector<std::string>(1)};
  BackgroundWriter writer(out);  // after windows: it finishes before they go
  int current = 0;
  for (std::size_t at = 0; at < layout.size(); at += tuning::layout_window_bytes, current ^= 1) {
    const std::size_t end = std::min(layout.size(), at + tuning::layout_window_bytes);
    std::string& window = windows[current][0];
    window.resize(end - at);
    fill_in_parallel(layout, window.data(), at, end);
    writer.write(windows[current], 1);
  }
  writer.wait();
}

}  // namespace spmesh::meshops
