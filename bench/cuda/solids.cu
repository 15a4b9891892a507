// The solids benchmark with the GPU rows: bench/solids.cpp compiled by nvcc.
#include "../solids.cpp"
