// Every scheme's build, and its eval, build_and_eval and refinement matrix for float and double
// vertex data, on the GPU, compiled once (schemes.hpp declares them extern). One .cu file, not
// one per part: two .cu files of one program that instantiate the same operation can crash it
// (docs/linalg.md), and the parts share their topology's operations.
#include "schemes/schemes.hpp"

namespace spmesh::schemes {
SPMESH_SCHEMES(SPMESH_SCHEME_TOPOLOGY, , linalg::cuda::Executor)
SPMESH_SCHEMES(SPMESH_SCHEME_DATA, , linalg::cuda::Executor, float)
SPMESH_SCHEMES(SPMESH_SCHEME_DATA, , linalg::cuda::Executor, double)
}  // namespace spmesh::schemes
