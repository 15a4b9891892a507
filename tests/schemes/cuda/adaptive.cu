// Feature-adaptive Catmull-Clark on the GPU: the CPU test source compiled by nvcc (results compared with the CPU).
#include "../adaptive.cpp"
