// The mesh algebra benchmark with the GPU rows: bench/algebra.cpp compiled by nvcc.
#include "../algebra.cpp"
