// Solid refinement on the GPU: the CPU test source compiled by nvcc (results equal the CPU's).
#include "../refine.cpp"
