// Connectivity from the mesh matrix (Eq. 5, 8, 12, 13, 15) against a plain reference that walks
// the face list with std::map, on bundled meshes and on every OpenSubdiv shape in ../shared.
#include "linalg/cpu/executor.hpp"
#include "meshops/info.hpp"
#include "meshops/obj.hpp"
#include "meshops/topology.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <string>
#include <utility>

using namespace spmesh;
using namespace spmesh::meshops;

namespace {

// Reference connectivity: undirected edges with the number of face sides on each, and the
// faces holding each oriented edge.
struct Reference {
  std::map<std::pair<index_t, index_t>, index_t> sides;
  std::map<std::pair<index_t, index_t>, index_t> first_face;  // lowest face with i -> j
  std::map<index_t, index_t> face_orders, valences;
  index_t degenerate_sides = 0;  // i -> i sides of faces with a repeated vertex
  std::vector<index_t> incident;
};

Reference reference(const PolyMesh& m) {
  Reference r;
  r.incident.assign(m.vertex_count(), 0);
  for (index_t f = 0; f < m.face_count(); ++f) {
    const index_t lo = m.M.offsets[f], c = m.M.offsets[f + 1] - lo;
    ++r.face_orders[c];
    for (index_t a = 0; a < c; ++a) {
      const index_t i = m.M.indices[lo + a], j = m.M.indices[lo + (a + 1) % c];
      if (i == j) ++r.degenerate_sides;
      else ++r.sides[{std::min(i, j), std::max(i, j)}];
      r.first_face.try_emplace({i, j}, f);
      ++r.incident[i];
    }
  }
  std::vector<index_t> degree(m.vertex_count(), 0);
  for (const auto& [e, s] : r.sides) ++degree[e.first], ++degree[e.second];
  for (index_t d : degree) ++r.valences[d];
  return r;
}

void check_against_reference(const PolyMesh& m) {
  cpu::Executor exec;
  const Reference ref = reference(m);
  const auto info = mesh_info(exec, m);
  CHECK(info.edges == static_cast<index_t>(ref.sides.size()));
  CHECK(info.face_orders == ref.face_orders);
  CHECK(info.valences == ref.valences);
  CHECK(info.degenerate_sides == ref.degenerate_sides);

  // Edge enumeration: E's upper triangle, in row-major order, with the side counts.
  const auto E = edge_matrix(exec, m.M);
  const auto edges = enumerate_edges(exec, E);
  REQUIRE(edges.count() == static_cast<index_t>(ref.sides.size()));
  index_t e = 0;
  for (const auto& [key, sides] : ref.sides) {  // std::map iterates in row-major order
    CHECK(edges.from[e] == key.first);
    CHECK(edges.to[e] == key.second);
    CHECK(edges.sides[e] == sides);
    ++e;
  }

  // Oriented adjacency F(i,j): the face where j follows i.
  const auto F = oriented_adjacency(exec, m.M);
  CHECK(F.nnz() == static_cast<index_t>(ref.first_face.size()));
  for (index_t i = 0; i < F.rows; ++i)
    for (index_t p = F.offsets[i]; p < F.offsets[i + 1]; ++p)
      CHECK(F.values[p] == ref.first_face.at({i, F.indices[p]}));

  // Eq. 15: faces around each vertex from M taken by rows.
  const auto n = incident_faces(exec, linalg::to_csr(exec, m.M));
  CHECK(n.to_vector() == ref.incident);
}

}  // namespace

TEST_CASE("topology: bundled meshes have the counts their construction implies") {
  cpu::Executor exec;
  struct Expect {
    const char* file;
    index_t v, e, f, boundary;
    long long chi;
  };
  for (const Expect& x : {Expect{"cube.obj", 8, 12, 6, 0, 2}, Expect{"torus.obj", 128, 256, 128, 0, 0},
                          Expect{"tent.obj", 14, 25, 12, 7, 1}}) {
    CAPTURE(x.file);
    const auto mesh = read_obj(std::string(SPMESH_DATA_DIR) + "/meshes/" + x.file);
    const auto info = mesh_info(exec, mesh);
    CHECK(info.vertices == x.v);
    CHECK(info.edges == x.e);
    CHECK(info.faces == x.f);
    CHECK(info.boundary_edges == x.boundary);
    CHECK(info.euler_characteristic() == x.chi);
    index_t valence_sum = 0;
    for (auto [valence, count] : info.valences) valence_sum += valence * count;
    CHECK(valence_sum == 2 * info.edges);  // every edge has two ends
    check_against_reference(mesh);
  }
}

TEST_CASE("topology: face orders sum to nnz(M) and the sides of all edges sum to it too") {
  cpu::Executor exec;
  const auto mesh = read_obj(std::string(SPMESH_DATA_DIR) + "/meshes/tent.obj");
  const auto c = face_orders(exec, mesh.M);
  index_t sum = 0;
  for (index_t x : c) sum += x;
  CHECK(sum == mesh.M.nnz());
  const auto edges = enumerate_edges(exec, edge_matrix(exec, mesh.M));
  index_t sides = 0;
  for (index_t s : edges.sides) sides += s;
  CHECK(sides == mesh.M.nnz());  // each face side lies on one edge
}

TEST_CASE("topology: a reduced quad matrix gives the same edges as the polygon one") {
  cpu::Executor exec;
  const auto mesh = read_obj(std::string(SPMESH_DATA_DIR) + "/meshes/torus.obj");
  const linalg::ReducedMeshMatrix<> Mq(mesh.M.vertices, 4, mesh.M.indices.clone());
  const auto E1 = edge_matrix(exec, mesh.M);
  const auto E2 = edge_matrix(exec, Mq);
  CHECK(E1.offsets.to_vector() == E2.offsets.to_vector());
  CHECK(E1.indices.to_vector() == E2.indices.to_vector());
  CHECK(E1.values.to_vector() == E2.values.to_vector());
}

TEST_CASE("topology: known counts of OpenSubdiv shapes") {
  const std::filesystem::path dir = std::string(SPMESH_SHARED_DIR) + "/meshes/opensubdiv";
  if (!std::filesystem::exists(dir)) {
    MESSAGE("skipped: " << dir << " not found (shared test meshes absent)");
    return;
  }
  cpu::Executor exec;
  struct Expect {
    const char* file;
    index_t v, e, f, boundary;
    long long chi;
  };
  for (const Expect& x : {Expect{"catmark_cube.obj", 8, 12, 6, 0, 2},
                          Expect{"catmark_torus.obj", 32, 64, 32, 0, 0},
                          Expect{"loop_tetrahedron.obj", 4, 6, 4, 0, 2},
                          Expect{"catmark_toroidal_tet.obj", 20, 48, 24, 0, -4},  // genus 3
                          Expect{"catmark_pyramid.obj", 5, 8, 5, 0, 2}}) {
    CAPTURE(x.file);
    const auto info = mesh_info(exec, read_obj((dir / x.file).string()));
    CHECK(info.vertices == x.v);
    CHECK(info.edges == x.e);
    CHECK(info.faces == x.f);
    CHECK(info.boundary_edges == x.boundary);
    CHECK(info.euler_characteristic() == x.chi);
  }
}

TEST_CASE("topology: every OpenSubdiv shape matches the reference connectivity") {
  const std::filesystem::path dir = std::string(SPMESH_SHARED_DIR) + "/meshes/opensubdiv";
  if (!std::filesystem::exists(dir)) {
    MESSAGE("skipped: " << dir << " not found (shared test meshes absent)");
    return;
  }
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".obj") continue;
    CAPTURE(entry.path().filename().string());
    check_against_reference(read_obj(entry.path().string()));
    ++checked;
  }
  CHECK(checked > 50);
}
