// The schemes, their patches, adaptive plans and selective refinement on the GPU: the CPU test
// sources compiled by nvcc as one unit (results compared with the CPU). One unit, because two
// .cu files of one program that instantiate the same operation can crash it (docs/linalg.md).
#include "../schemes.cpp"
#include "../patches.cpp"
#include "../adaptive.cpp"
#include "../adaptive_patches.cpp"
