// OpenMesh's sqrt(3) on a TriMesh with double points (sqrt3.hpp).
#include "bench/peers/sqrt3.hpp"

#include <OpenMesh/Core/Mesh/TriMesh_ArrayKernelT.hh>
#include <OpenMesh/Tools/Subdivider/Uniform/Sqrt3T.hh>

#include <chrono>
#include <stdexcept>
#include <string>

namespace spmesh::test {

namespace {
struct DoubleTraits : OpenMesh::DefaultTraits {
  using Point = OpenMesh::Vec3d;
  using Normal = OpenMesh::Vec3d;
};
using Mesh = OpenMesh::TriMesh_ArrayKernelT<DoubleTraits>;
}  // namespace

PeerMesh openmesh_sqrt3(const meshops::PolyMesh& mesh, int levels) {
  Mesh m;
  std::vector<Mesh::VertexHandle> vertex(mesh.vertex_count());
  for (index_t i = 0; i < mesh.vertex_count(); ++i)
    vertex[i] = m.add_vertex(Mesh::Point(mesh.positions(i, 0), mesh.positions(i, 1), mesh.positions(i, 2)));
  for (index_t f = 0; f < mesh.face_count(); ++f) {
    const index_t* v = mesh.M.indices.data() + mesh.M.offsets[f];
    if (!m.add_face(vertex[v[0]], vertex[v[1]], vertex[v[2]]).is_valid())
      throw std::runtime_error("OpenMesh rejects face " + std::to_string(f));
  }

  const auto start = std::chrono::steady_clock::now();
  OpenMesh::Subdivider::Uniform::Sqrt3T<Mesh, double> sqrt3;
  sqrt3.attach(m);
  sqrt3(levels);
  sqrt3.detach();
  PeerMesh out;
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  for (const auto v : m.vertices()) {  // sqrt3 deletes nothing: handles are 0 .. n-1
    const auto& p = m.point(v);
    out.positions.insert(out.positions.end(), {p[0], p[1], p[2]});
  }
  for (const auto f : m.faces())
    for (const auto v : m.fv_range(f)) out.triangles.push_back(v.idx());
  return out;
}

}  // namespace spmesh::test
