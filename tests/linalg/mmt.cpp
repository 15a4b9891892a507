// Implicit mapped M M^T with circulant maps (paper section 4.2) against references built by
// walking each face's slot pairs, and against Eigen's M M^T where the circulants cover every
// slot pair; polygon, reduced quad and reduced triangle mesh matrices. Every backend
// (cuda/mmt.cu: on the GPU, each result also compared with the CPU's).
#include <map>

#include "common.hpp"

namespace spmesh::test::mmt_tests {

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

std::pair<bool, double> one(index_t, index_t, index_t, int, int, int) { return {true, 1.0}; }

// Eigen's M (vertices x faces, every entry 1).
EigenRows eigen_ones(const PolyMesh& m) {
  return eigen_of(mesh_triplets(m), [](index_t, index_t, index_t) { return 1.0; });
}

const RefReduce ref_first{"first", 0.0, [](double a, double) { return a; }, false};

// Collide functions (device-callable): a constant, the face, every field in one number, 1 for
// the upper triangle only.
template <class R>
struct CollideOne {
  SPMESH_HD R operator()(la::Collision) const { return R(1); }
};
struct FaceOf {
  SPMESH_HD index_t operator()(la::Collision c) const { return c.k; }
};
struct FieldCode {
  SPMESH_HD index_t operator()(la::Collision c) const {
    return ((c.k * 10 + c.order) * 10 + c.slot_i) * 10 + c.slot_j;
  }
};
struct UpperOnly {
  SPMESH_HD la::Emit<float> operator()(la::Collision c) const {
    return c.i < c.j ? la::emit(1.0f) : la::nothing<float>();
  }
};

// A = M M^T {Q}[collide] under reduce, as an op of run().
template <class Collide, class Reduce = la::reduce::Sum>
struct Mmt {
  la::Circulant q;
  Collide collide = {};
  Reduce reduce = {};
  template <class E, class M>
  auto operator()(E& exec, const M& m) const {
    return la::mmt(exec, m, q, collide, reduce);
  }
};

TEST_CASE_TEMPLATE("mmt with circulant {1, -1} and val -> 1 counts the faces on each edge (Eq. 8)",
                   B, SPMESH_TEST_BACKENDS) {
  for (const TestMesh& t : polygon_meshes()) {
    INFO(t.name);
    const Csr<index_t> E = run<B>("E", Mmt<CollideOne<index_t>>{{1, -1}}, mesh_matrix(t.mesh));
    check_csr(E, t.mesh.vertices, t.mesh.vertices,
              slot_pair_reference(t.mesh, {1, -1}, one, ref_sum), "E");
  }
}

TEST_CASE_TEMPLATE("mmt with circulant {0} equals the diagonal of Eigen's M M^T (faces per vertex)",
                   B, SPMESH_TEST_BACKENDS) {
  for (const TestMesh& t : polygon_meshes()) {
    INFO(t.name);
    const EigenRows M = eigen_ones(t.mesh);
    const EigenRows MMt = M * EigenRows(M.transpose());
    std::vector<RefEntry> ref;
    for (index_t v = 0; v < t.mesh.vertices; ++v)
      if (MMt.coeff(v, v) != 0) ref.push_back({v, v, MMt.coeff(v, v), MMt.coeff(v, v)});
    const Csr<double> D = run<B>("diag", Mmt<CollideOne<double>>{{0}}, mesh_matrix(t.mesh));
    check_csr(D, t.mesh.vertices, t.mesh.vertices, ref, "diag");
  }
}

TEST_CASE_TEMPLATE(
    "mmt with circulant {1}, val -> k and First stores the first face of each oriented edge "
    "(Eq. 12, 13)",
    B, SPMESH_TEST_BACKENDS) {
  auto face = [](index_t, index_t, index_t k, int, int, int) {
    return std::pair<bool, double>{true, static_cast<double>(k)};
  };
  for (const TestMesh& t : polygon_meshes()) {
    INFO(t.name);
    const auto M = mesh_matrix(t.mesh);
    check_csr(run<B>("first face", Mmt<FaceOf, la::reduce::First>{{1}}, M), t.mesh.vertices,
              t.mesh.vertices, slot_pair_reference(t.mesh, {1}, face, ref_first), "first face");
    check_csr(run<B>("last face", Mmt<FaceOf, la::reduce::Max>{{1}}, M), t.mesh.vertices,
              t.mesh.vertices, slot_pair_reference(t.mesh, {1}, face, ref_max), "last face");
  }
}

TEST_CASE_TEMPLATE("mmt passes each collision its face, slots and face order", B,
                   SPMESH_TEST_BACKENDS) {
  const PolyMesh mesh = random_mesh(10, 400, 3, 6, 711);
  // One number holding every field; First keeps the collision of the first face.
  auto code = [](index_t k, int a, int b, int c) { return ((k * 10 + c) * 10 + a) * 10 + b; };
  const auto ref = slot_pair_reference(
      mesh, {2, -1},
      [&](index_t, index_t, index_t k, int a, int b, int c) {
        return std::pair<bool, double>{true, static_cast<double>(code(k, a, b, c))};
      },
      ref_first);
  const Csr<index_t> C =
      run<B>("collision fields", Mmt<FieldCode, la::reduce::First>{{2, -1}}, mesh_matrix(mesh));
  check_csr(C, mesh.vertices, mesh.vertices, ref, "collision fields");
}

TEST_CASE_TEMPLATE("mmt with a collide that emits only for i < j keeps each undirected edge once",
                   B, SPMESH_TEST_BACKENDS) {
  for (const TestMesh& t : polygon_meshes()) {
    INFO(t.name);
    const auto ref = slot_pair_reference(
        t.mesh, {1, -1},
        [](index_t i, index_t j, index_t, int, int, int) {
          return std::pair<bool, double>{i < j, 1.0};
        },
        ref_sum);
    const Csr<float> U = run<B>("upper edges", Mmt<UpperOnly>{{1, -1}}, mesh_matrix(t.mesh));
    check_csr(U, t.mesh.vertices, t.mesh.vertices, ref, "upper edges");
  }
}

TEST_CASE_TEMPLATE(
    "mmt with every circulant power equals Eigen's M M^T on pure quad and triangle meshes, "
    "the reduced matrix gives the same",
    B, SPMESH_TEST_BACKENDS) {
  for (int order : {3, 4}) {
    for (index_t faces : {1, 500, 30000}) {
      INFO("order " << order << ", faces " << faces);
      const PolyMesh mesh =
          random_mesh(std::max<index_t>(order, faces / 2), faces, order, order, 721 + faces);
      const EigenRows M = eigen_ones(mesh);
      const auto ref = ref_entries(EigenRows(M * EigenRows(M.transpose())));
      const la::Circulant all = order == 4 ? la::Circulant{0, 1, 2, 3} : la::Circulant{0, 1, 2};
      const Mmt<CollideOne<double>> mmt{all};
      check_csr(run<B>("polygon M M^T", mmt, mesh_matrix(mesh)), mesh.vertices, mesh.vertices, ref,
                "polygon M M^T");
      check_csr(run<B>("reduced M M^T", mmt, reduced_mesh_matrix(mesh, order)), mesh.vertices,
                mesh.vertices, ref, "reduced M M^T");
      // Edges of the reduced matrix too.
      check_csr(
          run<B>("reduced E", Mmt<CollideOne<index_t>>{{1, -1}}, reduced_mesh_matrix(mesh, order)),
          mesh.vertices, mesh.vertices, slot_pair_reference(mesh, {1, -1}, one, ref_sum),
          "reduced E");
    }
  }
}

TEST_CASE_TEMPLATE("mmt on a mesh with more than 2^16 vertices (n^2 keys wider than 32 bits)", B,
                   SPMESH_TEST_BACKENDS) {
  const PolyMesh mesh = random_mesh(200000, 20000, 3, 6, 741);
  check_csr(run<B>("E", Mmt<CollideOne<index_t>>{{1, -1}}, mesh_matrix(mesh)), mesh.vertices,
            mesh.vertices, slot_pair_reference(mesh, {1, -1}, one, ref_sum), "E");
}

TEST_CASE_TEMPLATE("mmt with no circulant powers gives an empty n x n matrix", B,
                   SPMESH_TEST_BACKENDS) {
  const PolyMesh mesh = random_mesh(50, 80, 3, 6, 731);
  const Csr<double> E = run<B>("empty circulant", Mmt<CollideOne<double>>{{}}, mesh_matrix(mesh));
  check_csr(E, 50, 50, {}, "empty circulant");
}

#if !defined(__CUDACC__)  // host only
TEST_CASE("Circulant rejects more powers than it holds") {
  CHECK_THROWS_AS((la::Circulant{0, 1, 2, 3, 4, 5, 6, 7, 8}), DimensionError);
  CHECK(la::Circulant{0, 1, 2, 3, 4, 5, 6, 7}.count == 8);
}
#endif

}  // namespace spmesh::test::mmt_tests
