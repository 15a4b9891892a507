// The adaptive benchmark with the GPU rows: bench/adaptive.cpp compiled by nvcc.
#include "../adaptive.cpp"
