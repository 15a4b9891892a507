// CGAL's sqrt(3) on a Surface_mesh of Simple_cartesian<double> points (sqrt3.hpp).
#include "bench/peers/sqrt3.hpp"

#include <CGAL/Simple_cartesian.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/subdivision_method_3.h>

#include <chrono>
#include <stdexcept>
#include <string>

namespace spmesh::test {

PeerMesh cgal_sqrt3(const meshops::PolyMesh& mesh, int levels) {
  using Point = CGAL::Simple_cartesian<double>::Point_3;
  using Mesh = CGAL::Surface_mesh<Point>;
  Mesh m;
  std::vector<Mesh::Vertex_index> vertex(mesh.vertex_count());
  for (index_t i = 0; i < mesh.vertex_count(); ++i)
    vertex[i] = m.add_vertex(Point(mesh.positions(i, 0), mesh.positions(i, 1), mesh.positions(i, 2)));
  for (index_t f = 0; f < mesh.face_count(); ++f) {
    const index_t* v = mesh.M.indices.data() + mesh.M.offsets[f];
    if (m.add_face(vertex[v[0]], vertex[v[1]], vertex[v[2]]) == Mesh::null_face())
      throw std::runtime_error("CGAL rejects face " + std::to_string(f));
  }

  const auto start = std::chrono::steady_clock::now();
  CGAL::Subdivision_method_3::Sqrt3_subdivision(m, CGAL::parameters::number_of_iterations(levels));
  PeerMesh out;
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  // Flips remove and recycle elements: number the live vertices afresh.
  std::vector<index_t> id(m.number_of_vertices() + m.number_of_removed_vertices(), -1);
  for (const auto v : m.vertices()) {
    id[v] = out.vertices();
    const Point& p = m.point(v);
    out.positions.insert(out.positions.end(), {p.x(), p.y(), p.z()});
  }
  for (const auto f : m.faces())
    for (const auto v : CGAL::vertices_around_face(m.halfedge(f), m)) out.triangles.push_back(id[v]);
  return out;
}

}  // namespace spmesh::test
