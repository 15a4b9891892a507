// libFuzzer target: the PLY reader (meshops::parse_ply), ascii and binary, on arbitrary bytes.
#include "fuzz/target.hpp"
#include "meshops/ply.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return spmesh::fuzz::run(
      [&] { spmesh::meshops::parse_ply(spmesh::fuzz::bytes(data, size), "fuzz.ply"); });
}
