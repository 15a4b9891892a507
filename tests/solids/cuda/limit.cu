// The limit of Catmull-Clark solids on the GPU: the CPU test source compiled by nvcc.
#include "../limit.cpp"
