// Boundary operators, solid refinement, its matrix and the limit (irregular cells too) on the
// GPU: the CPU test sources compiled by nvcc as one unit (results equal the CPU's). One unit,
// because two .cu files of one program that instantiate the same operation can crash it
// (docs/linalg.md).
#include "../topology.cpp"
#include "../refine.cpp"
#include "../refinement.cpp"
#include "../limit.cpp"
#include "../irregular.cpp"
