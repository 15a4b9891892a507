// Every scheme's build on the CPU, compiled once (schemes.hpp declares it extern).
#include "schemes/schemes.hpp"

namespace spmesh::schemes {
SPMESH_SCHEMES(SPMESH_SCHEME_TOPOLOGY, , linalg::cpu::Executor)
}  // namespace spmesh::schemes
