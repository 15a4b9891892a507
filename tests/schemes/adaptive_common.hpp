// What the adaptive plan's tests share (adaptive.cpp, adaptive_patches.cpp): samples on every
// face, the meshes, a plan of a mesh on a backend.
#pragma once

#include "../backends.hpp"
#include "meshops/io.hpp"
#include "meshops/obj.hpp"
#include "schemes/catmull_clark/adaptive.hpp"
#include "schemes/tags.hpp"
#include "wavy_fan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace spmesh::test::adaptive_tests {

namespace cc = schemes::catmull_clark;
using linalg::Array;
using linalg::Dense;

// Samples on every face: a grid of places, denser near the corners (on each sub-face of a
// polygon: parameterization.hpp).
struct Samples {
  std::vector<index_t> faces;
  std::vector<double> u, v;
};
inline Samples samples_on(const meshops::PolyMesh& mesh, bool dense = true) {
  const std::vector<double> places = dense ? std::vector<double>{0, 0.004, 0.03, 0.3, 0.5, 0.77, 0.99, 1}
                                           : std::vector<double>{0, 0.03, 0.5, 0.99};
  Samples s;
  for (index_t f = 0; f < mesh.face_count(); ++f) {
    const index_t n = mesh.M.offsets[f + 1] - mesh.M.offsets[f];
    for (index_t a = 0; a < (n == 4 ? 1 : n); ++a)
      for (const double x : places)
        for (const double y : places) {
          double u = x, v = y;
          if (n != 4) cc::face_parameter(a, n, x, y, u, v);
          s.faces.push_back(f), s.u.push_back(u), s.v.push_back(v);
        }
  }
  return s;
}

// Whether two host arrays hold the same values, bit for bit.
template <class X>
bool same_values(const Array<X>& a, const Array<X>& b) {
  if (a.size() != b.size()) return false;
  for (index_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i])) return false;
  return true;
}

inline double diagonal(const Dense<double>& P) {
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (index_t i = 0; i < P.rows; ++i)
    for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], P(i, c)), hi[c] = std::max(hi[c], P(i, c));
  return std::sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) + (hi[2] - lo[2]) * (hi[2] - lo[2]));
}

inline std::vector<meshops::PolyMesh> bundled_meshes() {
  std::vector<meshops::PolyMesh> meshes;
  for (const char* name : {"cube.obj", "torus.obj", "lantern.obj", "creased_torus.obj", "tent.obj", "holed_plate.obj"})
    meshes.push_back(meshops::read_obj(std::string(SPMESH_DATA_DIR "/meshes/") + name));
  meshes.push_back(test::wavy_fan(5, false));  // a boundary vertex of 5 quads: a boundary fan
  meshes.push_back(meshops::parse_obj(meshops::read_file(SPMESH_DATA_DIR "/meshes/holed_plate.obj") +
                                          "t corner 1/1/0 3 10\nt corner 1/1/0 16 10\n",
                                      "holed plate, pinned"));
  return meshes;
}

// The adaptive plan of `mesh` (its tags' sharpness and options) on backend B, `selected` its
// base faces refined to the isolation level too (empty: none).
template <class B>
auto plan_of(typename B::Exec& exec, const meshops::PolyMesh& mesh, int isolation,
             const std::vector<std::uint8_t>& selected = {}, int rings = 0) {
  const auto tags = schemes::read_tags(mesh);
  return cc::build_adaptive(exec, B::upload(mesh.M),
                            schemes::Sharpness<typename B::Exec::space>{B::upload(tags.sharpness.edges),
                                                                      B::upload(tags.sharpness.vertices)},
                            isolation, schemes::options_from(tags), B::upload(Array<std::uint8_t>(selected)), rings);
}

}  // namespace spmesh::test::adaptive_tests
