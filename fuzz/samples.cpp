// libFuzzer target: the samples reader of `spmesh limit --at` (meshops::parse_samples) on
// arbitrary bytes, read as a surface's samples (`face u v`) and as a solid's (`cell u v w`).
#include "fuzz/target.hpp"
#include "meshops/samples.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = spmesh::fuzz::bytes(data, size);
  spmesh::fuzz::run([&] { spmesh::meshops::parse_samples(text, "fuzz.txt", 8); });
  return spmesh::fuzz::run([&] { spmesh::meshops::parse_samples(text, "fuzz.txt", 8, true); });
}
