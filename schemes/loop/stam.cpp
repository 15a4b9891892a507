// Stam's eigenstructure per valence for Loop (stam.hpp), read off spmesh's own Loop refinement of
// a fan and decomposed with Eigen in double (eigenstructure.cpp).
#include "schemes/loop/stam.hpp"

#include "schemes/eigenstructure.hpp"
#include "schemes/loop/scheme.hpp"

#include <string>

namespace spmesh::schemes::loop {

namespace {

// A: the control points of child 0 (at vertex 0, turned as face 0) from face 0's; G: the 12
// box-spline points of child r = 1, 2 (at face 0's corners 1, 2) and 3 (the middle one).
StamStructure make_structure(int n) {
  return fan_structure<Loop, TriangleLevel<linalg::Host>>(
      fan_mesh(n), n, stam_ring_size(n), box_spline_points,
      [n](const TriangleView& t, auto&& visit) { stam_ring(t, 0, 0, n, visit); },
      [](const TriangleView& t, int r, auto&& visit) {
        const BoxSplineNet net = box_spline_net(t, r);
        for (int p = 0; p < box_spline_points; ++p) visit(p, net.vertex[p]);
      },
      "loop stam: valence " + std::to_string(n));
}

}  // namespace

linalg::MeshMatrix<> fan_mesh(int n) {
  // Sector k's point (i, j), i steps along spoke k and j along spoke k + 1 (i + j <= 3): vertex 0,
  // a spoke's 1 + 3k + i - 1 (j = 0), else 1 + 3n + 3k + (1, 1) -> 0, (2, 1) -> 1, (1, 2) -> 2.
  auto point = [&](index_t k, index_t i, index_t j) -> index_t {
    if (i == 0 && j == 0) return 0;
    if (j == 0) return 1 + 3 * k + i - 1;
    if (i == 0) return 1 + 3 * ((k + 1) % n) + j - 1;
    return 1 + 3 * index_t(n) + 3 * k + (j == 2 ? 2 : i - 1);
  };
  linalg::Array<index_t> offsets(9 * n + 1), indices(27 * n);
  index_t face = 0;
  auto add = [&](index_t a, index_t b, index_t c) {
    offsets[face] = 3 * face;
    indices[3 * face] = a, indices[3 * face + 1] = b, indices[3 * face + 2] = c;
    ++face;
  };
  for (index_t k = 0; k < n; ++k) {
    for (index_t i = 0; i <= 2; ++i)
      for (index_t j = 0; i + j <= 2; ++j) add(point(k, i, j), point(k, i + 1, j), point(k, i, j + 1));
    for (index_t i = 0; i <= 1; ++i)
      for (index_t j = 0; i + j <= 1; ++j) add(point(k, i + 1, j), point(k, i + 1, j + 1), point(k, i, j + 1));
  }
  offsets[face] = 3 * face;
  return linalg::MeshMatrix<>(1 + 6 * index_t(n), std::move(offsets), std::move(indices));
}

const StamStructure& stam_structure(int valence) {
  static StamCache cache;
  return cache.get(valence, max_stam_valence, make_structure, "loop");
}

}  // namespace spmesh::schemes::loop
