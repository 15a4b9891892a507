// mesh_info: face orders (Eq. 5), edges from E (Eq. 8), valences from E, as linalg products.
#include "meshops/info.hpp"

#include "meshops/checks.hpp"
#include "meshops/topology.hpp"

#include <fmt/format.h>

#include <cmath>

namespace spmesh::meshops {

MeshInfo mesh_info(linalg::cpu::Executor& exec, const PolyMesh& mesh) {
  MeshInfo info;
  info.vertices = mesh.vertex_count();
  info.faces = mesh.face_count();
  const auto c = face_orders(exec, mesh.M);
  const auto E = edge_matrix(exec, mesh.M);
  const auto edges = enumerate_edges(exec, E);
  const auto n = valences(exec, E);
  info.edges = edges.count();
  for (index_t e = 0; e < edges.count(); ++e) {
    info.boundary_edges += edges.sides[e] == 1;
    info.nonmanifold_edges += edges.sides[e] > 2;
  }
  for (index_t i = 0; i < E.rows; ++i)  // E's diagonal counts sides joining i to itself
    for (index_t p = E.offsets[i]; p < E.offsets[i + 1]; ++p)
      info.degenerate_sides += E.indices[p] == i ? E.values[p] / 2 : 0;  // both directions
  for (index_t v = 0; v < mesh.positions.rows; ++v)
    for (index_t k = 0; k < mesh.positions.cols; ++k)
      if (!std::isfinite(mesh.positions(v, k))) {
        ++info.non_finite_vertices;
        break;
      }
  try {
    check_mesh(mesh);
  } catch (const InputError& e) {
    info.problem = e.what();
  }
  for (index_t f = 0; f < info.faces; ++f) ++info.face_orders[c[f]];
  for (index_t v = 0; v < info.vertices; ++v) {
    ++info.valences[n[v]];
    info.isolated_vertices += n[v] == 0;
  }
  return info;
}

std::string format_info(const MeshInfo& info, const std::string& name) {
  auto histogram = [](const std::map<index_t, index_t>& h) {
    std::string s;
    for (auto [key, count] : h) s += fmt::format("{}{}:{}", s.empty() ? "" : " ", key, count);
    return s;
  };
  std::string out = fmt::format("mesh            {}\n", name);
  out += fmt::format("vertices        {}\n", info.vertices);
  out += fmt::format("edges           {}\n", info.edges);
  out += fmt::format("faces           {}\n", info.faces);
  out += fmt::format("euler (V-E+F)   {}\n", info.euler_characteristic());
  out += fmt::format("boundary edges  {}\n", info.boundary_edges);
  if (info.nonmanifold_edges > 0)
    out += fmt::format("problem         {} non-manifold edges (on more than two faces)\n",
                       info.nonmanifold_edges);
  if (info.isolated_vertices > 0)
    out += fmt::format("isolated        {} vertices on no face\n", info.isolated_vertices);
  if (info.degenerate_sides > 0)
    out += fmt::format("degenerate      {} face sides join a vertex to itself\n", info.degenerate_sides);
  if (info.non_finite_vertices > 0)
    out += fmt::format("problem         {} vertices with a NaN or infinite coordinate\n",
                       info.non_finite_vertices);
  if (!info.problem.empty()) out += fmt::format("problem         {}\n", info.problem);
  out += fmt::format("face orders     {}   (order:faces)\n", histogram(info.face_orders));
  out += fmt::format("valences        {}   (edges at a vertex:vertices)\n", histogram(info.valences));
  return out;
}

}  // namespace spmesh::meshops
