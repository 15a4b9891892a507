// run_suite<float>, compiled on its own so the two precisions build in parallel.
#include "bench/suite_impl.hpp"

namespace spmesh::bench {
template void run_suite<float>(cpu::Executor&, const Inputs&, const Options&, std::vector<Result>&);
}  // namespace spmesh::bench
