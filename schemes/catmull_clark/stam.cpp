// Stam's eigenstructure per valence (stam.hpp), read off spmesh's own Catmull-Clark refinement of
// a fan and decomposed with Eigen in double (eigenstructure.cpp).
#include "schemes/catmull_clark/stam.hpp"

#include "schemes/catmull_clark/scheme.hpp"
#include "schemes/eigenstructure.hpp"

#include <algorithm>
#include <string>

namespace spmesh::schemes::catmull_clark {

namespace {

// A: the control points of child 0 (at vertex 0, turned as face 0) from face 0's; G: the 16
// control points of each child r = 1, 2, 3 (at face 0's corner r) from face 0's.
StamStructure make_structure(int n) {
  return fan_structure<CatmullClark, QuadLevel<linalg::Host>>(
      fan_mesh(n), n, stam_ring_size(n), 16,
      [n](const QuadView& q, auto&& visit) { stam_ring(q, 0, 0, n, visit); },
      [](const QuadView& q, int r, auto&& visit) {
        index_t grid[16];
        patch_grid(q, r, grid);
        for (int g = 0; g < 16; ++g) visit(g, grid[g]);
      },
      "catmull_clark stam: valence " + std::to_string(n));
}

}  // namespace

linalg::MeshMatrix<> fan_mesh(int n, bool closed) {
  const index_t spokes = 1, inner = 1 + 3 * index_t(closed ? n : n + 1);
  auto point = [&](index_t k, index_t i, index_t j) -> index_t {
    if (i == 0 && j == 0) return 0;
    if (j == 0) return spokes + 3 * k + i - 1;
    if (i == 0) return spokes + 3 * (closed ? (k + 1) % n : k + 1) + j - 1;
    return inner + 9 * k + 3 * (i - 1) + j - 1;
  };
  linalg::Array<index_t> offsets(9 * n + 1), indices(36 * n);
  index_t face = 0;
  for (index_t k = 0; k < n; ++k)
    for (index_t i = 0; i < 3; ++i)
      for (index_t j = 0; j < 3; ++j, ++face) {
        offsets[face] = 4 * face;
        const index_t corners[4] = {point(k, i, j), point(k, i + 1, j), point(k, i + 1, j + 1), point(k, i, j + 1)};
        std::copy(corners, corners + 4, indices.data() + 4 * face);
      }
  offsets[face] = 4 * face;
  return linalg::MeshMatrix<>(inner + 9 * index_t(n), std::move(offsets), std::move(indices));
}

const StamStructure& stam_structure(int valence) {
  static StamCache cache;
  return cache.get(valence, max_stam_valence, make_structure, "catmull_clark");
}

}  // namespace spmesh::schemes::catmull_clark
