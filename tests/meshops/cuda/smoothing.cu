// Smoothing on the GPU: the CPU test source compiled by nvcc.
#include "../smoothing.cpp"
