// libFuzzer target: the OBJ reader (meshops::parse_obj) on arbitrary bytes.
#include "fuzz/target.hpp"
#include "meshops/obj.hpp"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return spmesh::fuzz::run(
      [&] { spmesh::meshops::parse_obj(std::string(spmesh::fuzz::bytes(data, size)), "fuzz.obj"); });
}
