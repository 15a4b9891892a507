// check_geometry and unused_vertices (checks.hpp): every corner's frame, cells in parallel, the
// first bad one found by a minimum.
#include "solids/checks.hpp"

#include "meshops/checks.hpp"
#include "solids/cells.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace spmesh::solids {

namespace {

// The Jacobian at corner `corner` of cell c: (a - v) x (b - v) . (c - v) in the corner's
// right-handed frame. 0 for a cell whose kind or vertices topology refuses.
double corner_jacobian(const linalg::Dense<double>& P, const CellMesh<>& cells, index_t c, int corner) {
  const index_t begin = cells.offsets[c], corners = cells.offsets[c + 1] - begin;
  const CornerFrame f = corner_frame(corners, corner);
  const index_t v = cells.indices[begin + corner];
  double d[3][3];
  const int to[3] = {f.a, f.b, f.c};
  for (int e = 0; e < 3; ++e)
    for (int x = 0; x < 3; ++x) d[e][x] = P(cells.indices[begin + to[e]], x) - P(v, x);
  return (d[0][1] * d[1][2] - d[0][2] * d[1][1]) * d[2][0] + (d[0][2] * d[1][0] - d[0][0] * d[1][2]) * d[2][1] +
         (d[0][0] * d[1][1] - d[0][1] * d[1][0]) * d[2][2];
}

bool checkable(const CellMesh<>& cells, index_t c) {
  const index_t corners = cells.offsets[c + 1] - cells.offsets[c];
  if (cell_faces(corners) == 0) return false;
  for (index_t p = cells.offsets[c]; p < cells.offsets[c + 1]; ++p)
    if (cells.indices[p] < 0 || cells.indices[p] >= cells.vertices) return false;
  return true;
}

}  // namespace

void check_geometry(const std::string& source, const linalg::Dense<double>& positions, const CellMesh<>& cells) {
  meshops::check_finite(source, positions);
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
      throw InputError(source + ": cell " + std::to_string(first) + " (" + describe_cell(cells.offsets[first + 1] - cells.offsets[first]) +
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
