// Reordering (paper 4.5): reverse Cuthill-McKee shrinks the bandwidth of a randomly permuted
// mesh, and reorder() keeps the mesh (faces, cycles, positions, crease and corner tags).
#include "meshops/io.hpp"
#include "meshops/obj.hpp"
#include "meshops/reorder.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace spmesh;
using namespace spmesh::meshops;

namespace {

// A fixed random vertex order.
std::vector<index_t> shuffled(index_t n) {
  std::vector<index_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937(12345));
  return order;
}

// Each face as the cycle of its vertices' positions, starting at its first corner.
std::multiset<std::vector<double>> faces_by_position(const PolyMesh& m) {
  std::multiset<std::vector<double>> out;
  for (index_t f = 0; f < m.face_count(); ++f) {
    std::vector<double> face;
    for (index_t p = m.M.offsets[f]; p < m.M.offsets[f + 1]; ++p)
      for (int c = 0; c < 3; ++c) face.push_back(m.positions(m.M.indices[p], c));
    out.insert(face);
  }
  return out;
}

}  // namespace

TEST_CASE("reverse Cuthill-McKee shrinks the bandwidth of a randomly permuted torus") {
  const auto torus = read_obj(SPMESH_DATA_DIR "/meshes/torus.obj");
  const auto permuted = reorder(torus, shuffled(torus.vertex_count()));
  const auto order = rcm_order(permuted.M);
  CHECK(order == rcm_order(permuted.M));  // deterministic
  const auto ordered = reorder(permuted, order);
  const index_t before = bandwidth(permuted.M), after = bandwidth(ordered.M);
  CAPTURE(before);
  CAPTURE(after);
  CHECK(after * 4 < before);
  CHECK(after <= bandwidth(torus.M));  // as narrow as the generator's own grid order
  // Faces sorted by their lowest vertex: the first vertex of each face never decreases.
  index_t previous = 0, unsorted = 0;
  for (index_t f = 0; f < ordered.face_count(); ++f) {
    index_t lowest = ordered.vertex_count();
    for (index_t p = ordered.M.offsets[f]; p < ordered.M.offsets[f + 1]; ++p)
      lowest = std::min(lowest, ordered.M.indices[p]);
    unsorted += lowest < previous ? 1 : 0;
    previous = lowest;
  }
  CHECK(unsorted == 0);
}

TEST_CASE("reverse Cuthill-McKee on a randomly permuted ArmorGuy (../shared)") {
  const std::string path = SPMESH_SHARED_DIR "/meshes/characters/ArmorGuy.obj";
  if (!std::filesystem::exists(path)) {
    MESSAGE("skipped: " << path << " is absent");
    return;
  }
  const auto mesh = read_obj(path);
  const auto permuted = reorder(mesh, shuffled(mesh.vertex_count()));
  const index_t before = bandwidth(permuted.M),
                after = bandwidth(reorder(permuted, rcm_order(permuted.M)).M);
  CAPTURE(before);
  CAPTURE(after);
  CHECK(after * 10 < before);
}

TEST_CASE("reorder keeps the faces, their cycles, the positions and the crease and corner tags") {
  const auto cube = read_obj(SPMESH_DATA_DIR "/meshes/creased_cube.obj");
  const auto order = shuffled(cube.vertex_count());
  const auto moved = reorder(cube, order);
  CHECK(faces_by_position(moved) == faces_by_position(cube));
  REQUIRE(moved.tags.size() == cube.tags.size());
  for (std::size_t t = 0; t < cube.tags.size(); ++t) {
    CAPTURE(cube.tags[t].line);
    REQUIRE(moved.tags[t].ints.size() == cube.tags[t].ints.size());
    for (std::size_t k = 0; k < cube.tags[t].ints.size(); ++k)  // new vertex i is old order[i]
      CHECK(order[moved.tags[t].ints[k]] == cube.tags[t].ints[k]);
    CHECK(moved.tags[t].floats == cube.tags[t].floats);
  }
  // A vertex in no face comes last in the RCM order.
  PolyMesh loose{linalg::Dense<double>(cube.vertex_count() + 1, 3),
                 linalg::MeshMatrix<>(cube.vertex_count() + 1, cube.M.offsets.clone(),
                                      cube.M.indices.clone()),
                 {}, "loose"};
  CHECK(rcm_order(loose.M).back() == cube.vertex_count());
}

TEST_CASE("reorder renames the faces a hole tag names with the faces") {
  const auto cube = parse_obj(read_file(SPMESH_DATA_DIR "/meshes/cube.obj") + "t hole 2/0/0 1 4\n", "holed");
  const auto order = shuffled(cube.vertex_count());
  const auto moved = reorder(cube, order);
  // Each named face of `moved` has the old face's vertices (new vertex i is old order[i]).
  auto vertices_of = [](const PolyMesh& mesh, index_t f, const std::vector<index_t>* rename) {
    std::vector<index_t> out;
    for (index_t p = mesh.M.offsets[f]; p < mesh.M.offsets[f + 1]; ++p)
      out.push_back(rename ? (*rename)[std::size_t(mesh.M.indices[p])] : mesh.M.indices[p]);
    std::sort(out.begin(), out.end());
    return out;
  };
  const auto& hole = moved.tags.back();
  REQUIRE(hole.ints.size() == 2);
  for (std::size_t k = 0; k < 2; ++k)
    CHECK(vertices_of(moved, hole.ints[k], &order) == vertices_of(cube, cube.tags.back().ints[k], nullptr));
}

TEST_CASE("reorder refuses an order that is not a permutation, naming the entry") {
  const auto cube = read_obj(SPMESH_DATA_DIR "/meshes/cube.obj");
  std::vector<index_t> order(cube.vertex_count());
  std::iota(order.begin(), order.end(), 0);
  order[3] = 2;
  CHECK_THROWS_WITH_AS(reorder(cube, order), doctest::Contains("not a permutation (entry 3 is 2)"),
                       InputError);
  order.pop_back();
  CHECK_THROWS_WITH_AS(reorder(cube, order), doctest::Contains("a vertex order of 7 entries for 8"),
                       InputError);
}
