// OpenSubdiv Bfr's parameterization of a face of a Catmull-Clark base mesh (Bfr::Parameterization,
// docs/rules.md "At (face, u, v)"), and where a parameter lies on level 1, the first all-quad
// level. A quad is the unit square: corner 0 at (0, 0), 1 at (1, 0), 2 at (1, 1), 3 at (0, 1); its
// level-1 child a lies at corner a, turned as the quad. A face of n != 4 sides has n quad
// sub-faces (Bfr's QUAD_SUBFACES), laid in tiles of `sub_face_columns(n)` columns: sub-face i is
// the square [c, c + 1/2] x [r, r + 1/2] of tile (c, r) = (i mod columns, i div columns), with
// (c, r) at corner i, u along edge i (towards corner i + 1), v along edge i - 1 (towards corner
// i - 1), and (c + 1/2, r + 1/2) the face's centre. That square is the face's level-1 child at
// corner i (quads.hpp: the vertex point, the edge point of edge i, the face point, the edge point
// of edge i - 1), its own (x, y) = 2 (u - c, v - r). A derivative in (u, v) is twice the child's
// in (x, y).
#pragma once

#include "linalg/base.hpp"

namespace spmesh::schemes::catmull_clark {

// The columns of a polygon's tiles of sub-faces: ceil(sqrt(n)) (Bfr: 2 for triangles, 3 for 5
// to 9 sides, 1 + floor(sqrt(n - 1)) beyond, the same numbers).
SPMESH_HD inline index_t sub_face_columns(index_t n) {
  index_t columns = 1;
  while (columns * columns < n) ++columns;
  return columns;
}

// A parameter of a level-1 child quad: the child (its number among level 1's faces) and (x, y).
struct ChildParameter {
  index_t child;
  double x, y;
};

// The level-1 child holding (u, v) of a face of n sides whose first corner is `first` (level 1
// numbers a face's children first + 0 .. first + n - 1), or child -1 where (u, v) is outside
// the face's domain (or not finite).
SPMESH_HD inline ChildParameter child_parameter(index_t first, index_t n, double u, double v) {
  if (n == 4) {
    if (!(u >= 0 && u <= 1 && v >= 0 && v <= 1)) return {-1, 0, 0};
    const int i = u >= 0.5, j = v >= 0.5;
    return {first + (j ? 3 - i : i), 2 * u - i, 2 * v - j};
  }
  const index_t columns = sub_face_columns(n);
  if (!(u >= 0 && v >= 0 && u <= double(columns) && v <= double(columns))) return {-1, 0, 0};
  // The tile whose square holds (u, v): a square's point is less than 1/4 below or above its
  // tile's corner (Bfr's own rounding).
  const index_t column = index_t(u + 0.25), row = index_t(v + 0.25), sub_face = row * columns + column;
  const double x = u - double(column), y = v - double(row);
  if (column >= columns || sub_face >= n || !(x >= 0 && x <= 0.5 && y >= 0 && y <= 0.5)) return {-1, 0, 0};
  return {first + sub_face, 2 * x, 2 * y};
}

// The inverse: (u, v) of (x, y) on the child at corner a of a face of n sides.
SPMESH_HD inline void face_parameter(index_t a, index_t n, double x, double y, double& u, double& v) {
  if (n == 4) {
    u = (x + double(a == 1 || a == 2)) / 2, v = (y + double(a >= 2)) / 2;
    return;
  }
  const index_t columns = sub_face_columns(n);
  u = double(a % columns) + x / 2, v = double(a / columns) + y / 2;
}

}  // namespace spmesh::schemes::catmull_clark
