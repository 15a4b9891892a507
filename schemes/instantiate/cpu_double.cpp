// Every scheme's eval, build_and_eval and refinement matrix on the CPU for double vertex data,
// compiled once (schemes.hpp declares them extern).
#include "schemes/schemes.hpp"

namespace spmesh::schemes {
SPMESH_SCHEMES(SPMESH_SCHEME_DATA, , linalg::cpu::Executor, double)
}  // namespace spmesh::schemes
