// sqrt(3) subdivision by CGAL 5.5 (Subdivision_method_3::Sqrt3_subdivision) and OpenMesh 9
// (Subdivider::Uniform::Sqrt3T): the parity references of spmesh's sqrt3 and its peers in the
// subdivision benchmark. Both apply Kobbelt's rules, boundary included (edges cut in three on
// every second level of one call), in double precision.
#pragma once

#include "meshops/mesh.hpp"

#include <vector>

namespace spmesh::test {

// A peer's result: positions (3 per vertex), triangles (3 per face, the peer's vertex order)
// and the time its subdivision took, without the conversions in and out.
struct PeerMesh {
  std::vector<double> positions;
  std::vector<index_t> triangles;
  double ms = 0;

  index_t vertices() const { return static_cast<index_t>(positions.size() / 3); }
  index_t faces() const { return static_cast<index_t>(triangles.size() / 3); }
};

// `levels` levels of the triangle mesh `mesh` in one call (Kobbelt's boundary split on the
// second, fourth, ... level).
PeerMesh cgal_sqrt3(const meshops::PolyMesh& mesh, int levels);
PeerMesh openmesh_sqrt3(const meshops::PolyMesh& mesh, int levels);

}  // namespace spmesh::test
