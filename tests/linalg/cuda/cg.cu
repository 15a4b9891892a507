// Conjugate gradients on the GPU: the CPU test source compiled by nvcc.
#include "../cg.cpp"
