// libFuzzer target: the refinement file's reader (schemes::parse_refinement) on arbitrary
// bytes, read as float and as double weights (the two conversions take different paths); a
// Catmull-Clark solid's file (scheme ccsolid) through the solids' checks and rebuild instead.
#include "fuzz/target.hpp"
#include "schemes/refinement_file.hpp"
#include "solids/refinement_file.hpp"

#include <string>

namespace {

template <class T>
void parse(std::string_view bytes) {
  auto parts = spmesh::schemes::parse_refinement_parts<T>(bytes, "fuzz.spr");
  if (parts.r.scheme == spmesh::schemes::solid_scheme)
    spmesh::solids::rebuild_cells(parts.r, parts.refined);
  else
    spmesh::schemes::rebuild_refined(parts.r, parts.refined);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes = spmesh::fuzz::bytes(data, size);
  spmesh::fuzz::run([&] { parse<float>(bytes); });
  return spmesh::fuzz::run([&] { parse<double>(bytes); });
}
