// An adaptive plan's patches and selective refinement on the GPU: the CPU test source compiled by nvcc (patches compared with the CPU's).
#include "../adaptive_patches.cpp"
