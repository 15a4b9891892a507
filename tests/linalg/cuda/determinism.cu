// determinism on the GPU: the CPU test source compiled by nvcc (SPMESH_TEST_BACKENDS is CudaBackend).
#include "../determinism.cpp"
