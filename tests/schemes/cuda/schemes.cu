// The schemes on the GPU: the CPU test source compiled by nvcc (results compared with the CPU).
#include "../schemes.cpp"
