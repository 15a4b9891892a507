// run_suite<double>, compiled on its own so the two precisions build in parallel.
#include "bench/suite_impl.hpp"

namespace spmesh::bench {
template void run_suite<double>(cpu::Executor&, const Inputs&, const Options&,
                                std::vector<Result>&);
}  // namespace spmesh::bench
