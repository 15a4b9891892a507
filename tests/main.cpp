// The doctest runner shared by every CPU test executable (counted_run.hpp: a run of no test case
// fails).
#define DOCTEST_CONFIG_IMPLEMENT
#include "counted_run.hpp"

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  return spmesh::test::counted_run(context);
}
