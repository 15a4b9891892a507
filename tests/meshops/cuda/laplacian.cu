// The Laplacians and mass matrices on the GPU: the CPU test source compiled by nvcc.
#include "../laplacian.cpp"
