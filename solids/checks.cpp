// check_geometry and unused_vertices (checks.hpp): every corner's frame, cells in parallel, the
// first bad one found by a minimum.
#include "solids/checks.hpp"

#include "meshops/checks.hpp"
#include "solids/cells.hpp"
#include "solids/polyhedra.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace spmesh::solids {

namespace {

// The Jacobian at corner `corner` of cell c: (a - v) x (b - v) . (c - v) in the corner's
// right-handed frame.
double corner_jacobian(const linalg::Dense<double>& P, const CellMesh<>& cells, index_t c, int corner) {
  const CellsView view = cells.view();
  const CornerFrame f = corner_frame(view.shape(c), corner);
  const index_t v = view.vertex(c, corner);
  double d[3][3];
  const int to[3] = {f.a, f.b, f.c};
  for (int e = 0; e < 3; ++e)
    for (int x = 0; x < 3; ++x) d[e][x] = P(view.vertex(c, to[e]), x) - P(v, x);
  return (d[0][1] * d[1][2] - d[0][2] * d[1][1]) * d[2][0] + (d[0][2] * d[1][0] - d[0][0] * d[1][2]) * d[2][1] +
         (d[0][0] * d[1][1] - d[0][1] * d[1][0]) * d[2][2];
}

// Whether cell c is one topology accepts: a kind or a well-formed polyhedron, its vertices in
// range.
bool checkable(const CellMesh<>& cells, index_t c) {
  const CellShape shape = cells.view().shape(c);
  for (index_t p = cells.offsets[c]; p < cells.offsets[c + 1]; ++p)
    if (cells.indices[p] < 0 || cells.indices[p] >= cells.vertices) return false;
  if (!shape.polyhedron()) return cell_faces(shape.corners) != 0;
  const std::span<const index_t> ids(cells.indices.data() + cells.offsets[c], std::size_t(shape.corners));
  return polyhedron_problem(shape, ids).empty();
}

}  // namespace

void check_geometry(const std::string& source, const linalg::Dense<double>& positions, const CellMesh<>& cells) {
  meshops::check_finite(source, positions);
  if (!face_arrays_consistent(cells)) return;  // boundary_operators names it
  index_t first = std::numeric_limits<index_t>::max();
#pragma omp parallel for reduction(min : first) schedule(static)
  for (index_t c = 0; c < cells.cells(); ++c) {
    if (!checkable(cells, c)) continue;
    for (int l = 0; l < cells.offsets[c + 1] - cells.offsets[c]; ++l)
      if (!(corner_jacobian(positions, cells, c, l) > 0)) first = std::min(first, c);
  }
  if (first == std::numeric_limits<index_t>::max()) return;
  for (int l = 0; l < cells.offsets[first + 1] - cells.offsets[first]; ++l)
    if (const double j = corner_jacobian(positions, cells, first, l); !(j > 0))
      throw InputError(source + ": cell " + std::to_string(first) + " (" + describe_cell(cells.view().shape(first)) +
                       ") is inverted or degenerate at its corner " + std::to_string(l) + " (vertex " +
                       std::to_string(cells.indices[cells.offsets[first] + l]) + "): the Jacobian there is " +
                       std::to_string(j) + " (ids count from 0)");
}

std::vector<index_t> unused_vertices(const CellMesh<>& cells) {
  std::vector<char> used(std::size_t(std::max<index_t>(cells.vertices, 0)), 0);
  for (index_t v : cells.indices)
    if (v >= 0 && v < cells.vertices) used[std::size_t(v)] = 1;
  std::vector<index_t> out;
  for (index_t v = 0; v < cells.vertices; ++v)
    if (!used[std::size_t(v)]) out.push_back(v);
  return out;
}

}  // namespace spmesh::solids
