// The limit benchmark with the GPU rows: bench/limits.cpp compiled by nvcc.
#include "../limits.cpp"
