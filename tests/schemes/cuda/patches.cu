// Tensor-product patches on the GPU: the CPU test source compiled by nvcc.
#include "../patches.cpp"
