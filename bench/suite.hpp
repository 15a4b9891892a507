// One benchmark suite: every op timed for spmesh and for its Eigen peer on the inputs of one
// size, in one precision. Instantiated once per precision (suite_float.cpp, suite_double.cpp)
// so the two compile in parallel.
#pragma once

#include "bench/generators.hpp"
#include "bench/timing.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace spmesh::bench {

struct Options {
  int repeats = 10;                           // samples for SpMV / SpMM
  int slow_repeats = 3;                       // samples for SpGEMM and M M^T
  std::int64_t spgemm_max_rows = 10'000'000;  // skip SpGEMM at size steps above this (rows of R)
  bool check = true;                          // compare every spmesh result with Eigen's
  // While other processes took more than busy_threshold of all cores' time during a case's
  // timing, re-time it (up to busy_retries more times), each time first waiting up to
  // quiet_wait_s for a whole second in which they take at most busy_threshold. The least
  // disturbed try is kept and its disturbance reported.
  double busy_threshold = 0.05;
  int busy_retries = 3;
  double quiet_wait_s = 30;
};

// The inputs of one size step, shared by both precisions.
struct Inputs {
  std::int64_t target_rows = 0;  // the requested rows of R
  const TorusMesh* mesh = nullptr;
  const linalg::Csr<double>* R = nullptr;          // Loop-like refinement, (V + E) x V
  const linalg::Csr<double>* R_random = nullptr;   // R with rows and columns randomly permuted
  const linalg::Csr<double>* S = nullptr;          // Loop vertex stencil, V x V
  const linalg::ReducedMeshMatrix<>* M = nullptr;  // mesh matrix, V x F
};

struct Result {
  std::string op;          // spmv, spmv_per_row, spmv_random, spmm3, spgemm, spgemm_numeric, mmt
  std::string matrix;      // what was multiplied, e.g. "R", "S*S", "M*M^T"
  std::string precision;   // float or double
  std::string eigen_peer;  // what Eigen computed for the comparison
  std::int64_t target_rows = 0;
  std::int64_t rows = 0, cols = 0, nnz = 0;              // the (first) sparse input
  std::int64_t nnz_out_spmesh = -1, nnz_out_eigen = -1;  // sparse outputs only
  double floor_bytes = 0;  // bytes the op must move at least (see suite_impl.hpp)
  Timing spmesh, eigen;
  int attempts = 1;  // tries it took to get an undisturbed timing (Options::busy_*)
  // Checks (when Options::check): spmesh against Eigen, and spmesh against itself.
  bool checked = false;
  bool pattern_matches =
      true;                   // sparse outputs: same pattern as Eigen's (off the diagonal for mmt)
  double max_rel_diff = 0;    // max |spmesh - Eigen| / max |Eigen|
  bool bit_identical = true;  // a second spmesh run gave the same bits
};

template <class T>
void run_suite(cpu::Executor& exec, const Inputs& in, const Options& opt, std::vector<Result>& out);

extern template void run_suite<float>(cpu::Executor&, const Inputs&, const Options&,
                                      std::vector<Result>&);
extern template void run_suite<double>(cpu::Executor&, const Inputs&, const Options&,
                                       std::vector<Result>&);

}  // namespace spmesh::bench
