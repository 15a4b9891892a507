// The bundled torus (quads, closed) cut into triangles, its points moved at random by up to 0.05
// along each axis: a triangle mesh with no two triangles alike, for the geometry tests.
#pragma once

#include "meshops/obj.hpp"
#include "meshops/triangulate.hpp"

#include <random>

namespace spmesh::test {

inline meshops::PolyMesh perturbed_torus(unsigned seed) {
  meshops::PolyMesh mesh = meshops::triangulate(meshops::read_obj(SPMESH_DATA_DIR "/meshes/torus.obj"));
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  for (double& x : mesh.positions.data) x += jitter(random);
  return mesh;
}

}  // namespace spmesh::test
