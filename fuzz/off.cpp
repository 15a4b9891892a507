// libFuzzer target: the OFF reader (meshops::parse_off) on arbitrary bytes.
#include "fuzz/target.hpp"
#include "meshops/off.hpp"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return spmesh::fuzz::run(
      [&] { spmesh::meshops::parse_off(std::string(spmesh::fuzz::bytes(data, size)), "fuzz.off"); });
}
