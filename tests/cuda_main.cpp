// The doctest runner of the GPU test executables: without a usable GPU every test exits with
// code 77, which ctest reports as skipped, test by test; listing tests works everywhere; a run of
// no test case fails (counted_run.hpp).
#define DOCTEST_CONFIG_IMPLEMENT
#include "counted_run.hpp"
#include "linalg/cuda/memory.hpp"

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  bool listing = false;
  for (int i = 1; i < argc; ++i) listing |= std::string(argv[i]).rfind("--list", 0) == 0 ||
                                           std::string(argv[i]).rfind("-l", 0) == 0;
  if (!listing && !spmesh::linalg::cuda::device_available()) {
    std::fprintf(stderr, "skipped: no CUDA device available\n");
    return 77;
  }
  doctest::Context context(argc, argv);
  return spmesh::test::counted_run(context);
}
