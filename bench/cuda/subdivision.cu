// The Catmull-Clark benchmark with the GPU columns: bench/subdivision.cpp compiled by nvcc.
#include "../subdivision.cpp"
