// Vertex normals on the GPU: the CPU test source compiled by nvcc.
#include "../normals.cpp"
