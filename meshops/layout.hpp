// A file's bytes described before they exist: a sequence of sections of known sizes, each able
// to make any range of its bytes. A writer can then make the file with every thread, a window at
// a time, while the window before is written (write_layout; OutputFiles::write reserves the
// file's size first). Binary PLY is laid out so (ply_write.cpp); text formats, whose sizes are
// known only once formatted, stream instead (emit.hpp).
#pragma once

#include "linalg/base.hpp"

#include <cstddef>
#include <functional>
#include <ostream>
#include <vector>

namespace spmesh::meshops {

// Writes bytes [begin, end) of a section to out[0, end - begin). Called for disjoint ranges from
// several threads at once, so it only reads what it was built over.
using FillBytes = std::function<void(char* out, std::size_t begin, std::size_t end)>;

class FileLayout {
public:
  // A section of `size` bytes that `fill` makes.
  void add(std::size_t size, FillBytes fill);
  // A section that is `size` bytes at `data`, copied as they are (they must outlive the layout).
  void add_bytes(const void* data, std::size_t size);
  // A section of `count` records, record i taking bytes [place(i), place(i + 1)) of it (place(0)
  // is 0, place is increasing); encode(out, i) writes record i whole at out.
  // A range that cuts a record gets the cut part through a copy.
  void add_records(index_t count, std::function<std::size_t(index_t)> place,
                   std::function<void(char*, index_t)> encode);

  std::size_t size() const { return size_; }
  // Bytes [begin, end) of the whole layout to out[0, end - begin); thread-safe as FillBytes is.
  void fill(char* out, std::size_t begin, std::size_t end) const;

private:
  struct Section {
    std::size_t at, size;
    FillBytes fill;
  };
  std::vector<Section> sections_;
  std::size_t size_ = 0;
};

// Fills out[0, end - begin) with bytes [begin, end) of `layout`, in slices across every thread.
void fill_in_parallel(const FileLayout& layout, char* out, std::size_t begin, std::size_t end);

// Writes the whole layout to `out`: windows of tuning::layout_window_bytes filled with every
// thread, each written while the next is filled (two windows held).
void write_layout(std::ostream& out, const FileLayout& layout);

}  // namespace spmesh::meshops
