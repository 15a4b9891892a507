// FileLayout: any byte range of a laid-out file, cut anywhere (inside a section, inside a record),
// equals the same range of the whole written in order; filled in parallel and streamed over
// several windows it is the same bytes.
#include "meshops/layout.hpp"

#include "meshops/tuning.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace spmesh;
using namespace spmesh::meshops;

namespace {

// Record i of the test layouts: 1 to 7 bytes, each naming i and its place in the record.
std::size_t record_size(index_t i) { return std::size_t(i % 7) + 1; }
char record_byte(index_t i, std::size_t k) { return static_cast<char>(i * 31 + index_t(k) * 7); }

// A header, a block of bytes and `records` records, with the same bytes written one after the
// other, independently of FileLayout.
struct Sample {
  std::string header = "a header of some length\n", block;
  std::vector<std::size_t> place;  // of each record, and the end
  FileLayout layout;
  std::string whole;

  explicit Sample(index_t records, std::size_t block_bytes) : block(block_bytes, ' ') {
    for (std::size_t k = 0; k < block.size(); ++k) block[k] = static_cast<char>(k * 13 + 5);
    place.push_back(0);
    for (index_t i = 0; i < records; ++i) place.push_back(place.back() + record_size(i));
    layout.add_bytes(header.data(), header.size());
    layout.add_bytes(block.data(), block.size());
    layout.add_records(
        records, [this](index_t i) { return place[std::size_t(i)]; },
        [](char* out, index_t i) {
          for (std::size_t k = 0; k < record_size(i); ++k) out[k] = record_byte(i, k);
        });
    whole = header + block;
    for (index_t i = 0; i < records; ++i)
      for (std::size_t k = 0; k < record_size(i); ++k) whole += record_byte(i, k);
  }
  Sample(const Sample&) = delete;
};

}  // namespace

TEST_CASE("layout: any range, cut inside a section or a record, is that range of the whole") {
  const Sample sample(1000, 300);
  REQUIRE(sample.layout.size() == sample.whole.size());
  std::mt19937 random(7);
  std::uniform_int_distribution<std::size_t> at(0, sample.whole.size());
  for (int trial = 0; trial < 2000; ++trial) {
    std::size_t begin = at(random), end = at(random);
    if (begin > end) std::swap(begin, end);
    std::string out(end - begin, '\0');
    sample.layout.fill(out.data(), begin, end);
    CAPTURE(begin);
    CAPTURE(end);
    REQUIRE(out == sample.whole.substr(begin, end - begin));
  }
  // Every single byte, the first and last included.
  for (std::size_t b = 0; b < sample.whole.size(); ++b) {
    char c = 0;
    sample.layout.fill(&c, b, b + 1);
    REQUIRE(c == sample.whole[b]);
  }
}

TEST_CASE("layout: filled in parallel slices and streamed over several windows, the bytes are the "
          "same") {
  // More than one window (and many slices), with a record cut at each window's end.
  const index_t records = index_t((tuning::layout_window_bytes + (3 << 20)) / 4);
  const Sample sample(records, 12345);
  REQUIRE(sample.layout.size() > tuning::layout_window_bytes);
  std::string parallel(sample.layout.size(), '\0');
  fill_in_parallel(sample.layout, parallel.data(), 0, parallel.size());
  CHECK(parallel == sample.whole);
  std::ostringstream streamed;
  write_layout(streamed, sample.layout);
  CHECK(streamed.str() == sample.whole);
}

TEST_CASE("layout: empty sections are skipped and an empty layout writes nothing") {
  FileLayout layout;
  layout.add_bytes("", 0);
  layout.add_records(0, [](index_t) { return std::size_t(0); }, [](char*, index_t) {});
  CHECK(layout.size() == 0);
  std::ostringstream out;
  write_layout(out, layout);
  CHECK(out.str().empty());
  layout.add_bytes("xy", 2);
  std::string two(2, '\0');
  layout.fill(two.data(), 0, 2);
  CHECK(two == "xy");
}
