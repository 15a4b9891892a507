// A mesh as Python holds it: spmesh's PolyMesh (positions and the mesh matrix M, on the host).
// Its topology does not change after it is made (Python sees the face arrays read-only), so a
// GPU operation copies M to the device once and keeps it here (side_cuda.cuh); positions, which
// Python may change, go up with each call.
#pragma once

#include "meshops/mesh.hpp"

#include <memory>

namespace spmesh::python {

struct DeviceTopology;  // side_cuda.cuh

struct Mesh {
  meshops::PolyMesh mesh;
  mutable std::shared_ptr<DeviceTopology> device_topology;
};

}  // namespace spmesh::python
