// The GPU's operations in spmesh._spmesh (a build with CUDA): plans, mesh algorithms and SpMV on
// cuda::Executor, written once in plans.hpp, algorithms.hpp and spmv.hpp against Side<Exec>
// (side_cuda.cuh). The only .cu file of the module, so that each spmesh GPU operation the module
// instantiates comes from one translation unit (docs/linalg.md); the schemes' GPU front door is
// compiled in spmesh_schemes.
#include "python/side_cuda.cuh"

#include "python/algorithms.hpp"
#include "python/plans.hpp"
#include "python/spmv.hpp"

#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

namespace spmesh::python {

void bind_cuda(nb::module_& module) {
  using namespace nb::literals;
  using Gpu = linalg::cuda::Executor;
  nb::class_<DeviceArray>(module, "DeviceArray",
                          "A GPU result: give it to cupy.from_dlpack or torch.from_dlpack (no copy, no host wait)")
      .def("__dlpack__", &DeviceArray::dlpack, "Orders the consumer's stream after spmesh's work (DLPack's stream)")
      .def("__dlpack_device__", &DeviceArray::dlpack_device);
  module.def("_cuda_devices", [] {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
  });
  module.def("_build_cuda", &build_plan<Gpu>, "mesh"_a, "levels"_a, "scheme"_a);
  module.def("_subdivide_cuda", &subdivide_mesh<Gpu>, "mesh"_a, "levels"_a, "scheme"_a);
  bind_algorithms<Gpu>(module, "_cuda");
  bind_spmv<Gpu>(module, "_cuda");
}

}  // namespace spmesh::python
