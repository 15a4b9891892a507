// The solids' limit benchmark with the GPU rows: bench/solid_limits.cpp compiled by nvcc.
#include "../solid_limits.cpp"
