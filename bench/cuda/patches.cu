// The patch benchmark with the GPU rows: bench/patches.cpp compiled by nvcc.
#include "../patches.cpp"
