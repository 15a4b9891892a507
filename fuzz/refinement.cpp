// libFuzzer target: the refinement file's reader (schemes::parse_refinement) on arbitrary
// bytes, read as float and as double weights (the two conversions take different paths).
#include "fuzz/target.hpp"
#include "schemes/refinement_file.hpp"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes = spmesh::fuzz::bytes(data, size);
  spmesh::fuzz::run([&] { spmesh::schemes::parse_refinement<float>(bytes, "fuzz.spr"); });
  return spmesh::fuzz::run([&] { spmesh::schemes::parse_refinement<double>(bytes, "fuzz.spr"); });
}
