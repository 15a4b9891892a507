// StencilCsr on the GPU: the CPU test source compiled by nvcc.
#include "../stencil_csr.cpp"
