// Every scheme's build on the GPU, compiled once (schemes.hpp declares it extern).
#include "schemes/schemes.hpp"

namespace spmesh::schemes {
SPMESH_SCHEMES(SPMESH_SCHEME_TOPOLOGY, , linalg::cuda::Executor)
}  // namespace spmesh::schemes
