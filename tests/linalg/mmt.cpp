// Implicit mapped M M^T with circulant maps (paper section 4.2) against references built by
// walking each face's slot pairs, and against Eigen's M M^T where the circulants cover every
// slot pair; polygon, reduced quad and reduced triangle mesh matrices.
#include <map>

#include "common.hpp"

using namespace spmesh;
using namespace spmesh::test;

namespace {

// A mesh matrix stored both ways: the polygon form, and the reduced form when all faces agree.
struct TestMesh {
  const char* name;
  PolyMesh mesh;
};

// Polygon meshes of orders 3..6: few vertices (edges shared by many faces, non-manifold),
// a mid-size one, and one large enough for the parallel paths.
std::vector<TestMesh> polygon_meshes() {
  return {{"no faces", random_mesh(5, 0, 3, 6, 701)},
          {"one triangle", random_mesh(3, 1, 3, 3, 702)},
          {"12 vertices, 300 faces", random_mesh(12, 300, 3, 6, 703)},
          {"800 vertices, 600 faces", random_mesh(800, 600, 3, 6, 704)},
          {"20000 vertices, 30000 faces", random_mesh(20000, 30000, 3, 6, 705)}};
}

// Expected A = M M^T {sum over powers r of Q_c^r}[value] under r: for every face k (ascending),
// slot a (ascending) and power (in the given order), the pair (i, j) = (f[a], f[(a + r) mod c])
// gets value(i, j, k, a, b, c) = {emitted, value}, combined in that order.
template <class Value>
std::vector<RefEntry> slot_pair_reference(const PolyMesh& m, std::initializer_list<int> powers,
                                          Value value, const RefReduce& r) {
  std::map<std::pair<index_t, index_t>, RefEntry> acc;
  for (index_t k = 0; k < static_cast<index_t>(m.faces.size()); ++k) {
    const auto& f = m.faces[k];
    const int c = static_cast<int>(f.size());
    for (int a = 0; a < c; ++a)
      for (int power : powers) {
        const int b = ((a + power) % c + c) % c;
        const index_t i = f[a], j = f[b];
        const auto [emitted, v] = value(i, j, k, a, b, c);
        if (!emitted) continue;
        const auto [it, fresh] = acc.try_emplace({i, j}, RefEntry{i, j, v, std::abs(v)});
        if (!fresh) it->second = {i, j, r.op(it->second.value, v), it->second.scale + std::abs(v)};
      }
  }
  std::vector<RefEntry> out;
  for (const auto& [key, e] : acc) out.push_back(e);
  return out;
}

auto one = [](index_t, index_t, index_t, int, int, int) {
  return std::pair<bool, double>{true, 1.0};
};

// Eigen's M (vertices x faces, every entry 1).
EigenRows eigen_ones(const PolyMesh& m) {
  return eigen_of(mesh_triplets(m), [](index_t, index_t, index_t) { return 1.0; });
}

const RefReduce ref_first{"first", 0.0, [](double a, double) { return a; }, false};

}  // namespace

TEST_CASE("mmt with circulant {1, -1} and val -> 1 counts the faces on each edge (Eq. 8)") {
  cpu::Executor exec(4);
  for (const TestMesh& t : polygon_meshes()) {
    INFO(t.name);
    const Csr<index_t> E = la::mmt(exec, mesh_matrix(t.mesh), la::Circulant{1, -1},
                                   [](la::Collision) { return index_t{1}; });
    check_csr(E, t.mesh.vertices, t.mesh.vertices,
              slot_pair_reference(t.mesh, {1, -1}, one, ref_sum), "E");
  }
}

TEST_CASE("mmt with circulant {0} equals the diagonal of Eigen's M M^T (faces per vertex)") {
  cpu::Executor exec(4);
  for (const TestMesh& t : polygon_meshes()) {
    INFO(t.name);
    const EigenRows M = eigen_ones(t.mesh);
    const EigenRows MMt = M * EigenRows(M.transpose());
    std::vector<RefEntry> ref;
    for (index_t v = 0; v < t.mesh.vertices; ++v)
      if (MMt.coeff(v, v) != 0) ref.push_back({v, v, MMt.coeff(v, v), MMt.coeff(v, v)});
    const Csr<double> D =
        la::mmt(exec, mesh_matrix(t.mesh), la::Circulant{0}, [](la::Collision) { return 1.0; });
    check_csr(D, t.mesh.vertices, t.mesh.vertices, ref, "diag");
  }
}

TEST_CASE(
    "mmt with circulant {1}, val -> k and First stores the first face of each oriented edge "
    "(Eq. 12, 13)") {
  cpu::Executor exec(4);
  auto face = [](index_t, index_t, index_t k, int, int, int) {
    return std::pair<bool, double>{true, static_cast<double>(k)};
  };
  for (const TestMesh& t : polygon_meshes()) {
    INFO(t.name);
    const auto M = mesh_matrix(t.mesh);
    auto k_of = [](la::Collision c) { return c.k; };
    check_csr(la::mmt(exec, M, la::Circulant{1}, k_of, la::reduce::First{}), t.mesh.vertices,
              t.mesh.vertices, slot_pair_reference(t.mesh, {1}, face, ref_first), "first face");
    check_csr(la::mmt(exec, M, la::Circulant{1}, k_of, la::reduce::Max{}), t.mesh.vertices,
              t.mesh.vertices, slot_pair_reference(t.mesh, {1}, face, ref_max), "last face");
  }
}

TEST_CASE("mmt passes each collision its face, slots and face order") {
  cpu::Executor exec(4);
  const PolyMesh mesh = random_mesh(10, 400, 3, 6, 711);
  // One number holding every field; First keeps the collision of the first face.
  auto code = [](index_t k, int a, int b, int c) { return ((k * 10 + c) * 10 + a) * 10 + b; };
  const auto ref = slot_pair_reference(
      mesh, {2, -1},
      [&](index_t, index_t, index_t k, int a, int b, int c) {
        return std::pair<bool, double>{true, static_cast<double>(code(k, a, b, c))};
      },
      ref_first);
  const Csr<index_t> C = la::mmt(
      exec, mesh_matrix(mesh), la::Circulant{2, -1},
      [&](la::Collision c) { return code(c.k, c.slot_i, c.slot_j, c.order); }, la::reduce::First{});
  check_csr(C, mesh.vertices, mesh.vertices, ref, "collision fields");
}

TEST_CASE("mmt with a collide that emits only for i < j keeps each undirected edge once") {
  cpu::Executor exec(4);
  for (const TestMesh& t : polygon_meshes()) {
    INFO(t.name);
    const auto ref = slot_pair_reference(
        t.mesh, {1, -1},
        [](index_t i, index_t j, index_t, int, int, int) {
          return std::pair<bool, double>{i < j, 1.0};
        },
        ref_sum);
    const Csr<float> U =
        la::mmt(exec, mesh_matrix(t.mesh), la::Circulant{1, -1},
                [](la::Collision c) { return c.i < c.j ? la::emit(1.0f) : la::nothing<float>(); });
    check_csr(U, t.mesh.vertices, t.mesh.vertices, ref, "upper edges");
  }
}

TEST_CASE(
    "mmt with every circulant power equals Eigen's M M^T on pure quad and triangle meshes, "
    "the reduced matrix gives the same") {
  cpu::Executor exec(4);
  for (int order : {3, 4}) {
    for (index_t faces : {1, 500, 30000}) {
      INFO("order " << order << ", faces " << faces);
      const PolyMesh mesh =
          random_mesh(std::max<index_t>(order, faces / 2), faces, order, order, 721 + faces);
      const EigenRows M = eigen_ones(mesh);
      const auto ref = ref_entries(EigenRows(M * EigenRows(M.transpose())));
      const la::Circulant all = order == 4 ? la::Circulant{0, 1, 2, 3} : la::Circulant{0, 1, 2};
      auto collide = [](la::Collision) { return 1.0; };
      check_csr(la::mmt(exec, mesh_matrix(mesh), all, collide), mesh.vertices, mesh.vertices, ref,
                "polygon M M^T");
      check_csr(la::mmt(exec, reduced_mesh_matrix(mesh, order), all, collide), mesh.vertices,
                mesh.vertices, ref, "reduced M M^T");
      // Edges of the reduced matrix too.
      check_csr(la::mmt(exec, reduced_mesh_matrix(mesh, order), la::Circulant{1, -1},
                        [](la::Collision) { return index_t{1}; }),
                mesh.vertices, mesh.vertices, slot_pair_reference(mesh, {1, -1}, one, ref_sum),
                "reduced E");
    }
  }
}

TEST_CASE("mmt on a mesh with more than 2^16 vertices (n^2 keys wider than 32 bits)") {
  cpu::Executor exec(4);
  const PolyMesh mesh = random_mesh(200000, 20000, 3, 6, 741);
  check_csr(la::mmt(exec, mesh_matrix(mesh), la::Circulant{1, -1},
                    [](la::Collision) { return index_t{1}; }),
            mesh.vertices, mesh.vertices, slot_pair_reference(mesh, {1, -1}, one, ref_sum), "E");
}

TEST_CASE("mmt with no circulant powers gives an empty n x n matrix") {
  cpu::Executor exec(4);
  const PolyMesh mesh = random_mesh(50, 80, 3, 6, 731);
  const Csr<double> E =
      la::mmt(exec, mesh_matrix(mesh), la::Circulant{}, [](la::Collision) { return 1.0; });
  check_csr(E, 50, 50, {}, "empty circulant");
}

TEST_CASE("Circulant rejects more powers than it holds") {
  CHECK_THROWS_AS((la::Circulant{0, 1, 2, 3, 4, 5, 6, 7, 8}), DimensionError);
  CHECK(la::Circulant{0, 1, 2, 3, 4, 5, 6, 7}.count == 8);
}
