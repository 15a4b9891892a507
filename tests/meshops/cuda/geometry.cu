// The Laplacians, mass matrices, normals and smoothing on the GPU: the CPU test sources compiled
// by nvcc as one unit (one compile in CI, not three).
#include "../laplacian.cpp"
#include "../normals.cpp"
#include "../smoothing.cpp"
