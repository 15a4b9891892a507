// libFuzzer target: the VTK XML reader (solids::parse_vtu) on arbitrary bytes, and the boundary
// operators of whatever it reads (their checks of the cells are the next reader of its output).
#include "fuzz/target.hpp"
#include "linalg/cpu/executor.hpp"
#include "solids/topology.hpp"
#include "solids/volume_io.hpp"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return spmesh::fuzz::run([&] {
    const auto mesh = spmesh::solids::parse_vtu(spmesh::fuzz::bytes(data, size), "fuzz.vtu");
    spmesh::linalg::cpu::Executor exec(1);
    spmesh::solids::boundary_operators(exec, mesh.cells);
  });
}
