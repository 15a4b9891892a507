// The solid refinement matrix on the GPU: the CPU test source compiled by nvcc (R equals the CPU's).
#include "../refinement.cpp"
