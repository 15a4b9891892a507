// The limit in irregular cells on the GPU: the CPU test source compiled by nvcc.
#include "../irregular.cpp"
