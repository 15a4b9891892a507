// What a Catmull-Clark plan keeps to take its last levels by patches (patch_build.hpp finds
// them, patch_eval.hpp evaluates them): the kind of each face of the patch level, the region
// refined level by level, and where every point of a face's patch goes on the last level.
#pragma once

#include "linalg/array.hpp"
#include "linalg/base.hpp"
#include "schemes/tuning.hpp"

#include <cstdint>

namespace spmesh::schemes::catmull_clark {

// What choose_patches (build's patches) takes: min_chosen_depth to max_patch_depth levels deep,
// where at most max_region_share of the patch level's faces is left to the level-by-level eval
// (faces near an irregular one). Shallower patches read their 16 control points for fewer
// points; deeper ones leave more faces near creases that have not yet decayed to the region.
using tuning::max_patch_depth;
using tuning::max_region_share;
using tuning::min_chosen_depth;

// How a face of the patch level is refined.
enum class PatchKind : std::uint8_t {
  regular = 0,    // by its patch
  bordering = 1,  // by its patch, and level by level too (an irregular neighbour reads it)
  irregular = 2,  // level by level only
};

// The grid of a patch on a level-k face f, d levels down: f's corner a at (0,0), (s,0), (s,s),
// (0,s) (s = 2^d; half-edge a runs from corner a to corner a + 1); child a of a quad lies at its
// corner a, turned as its parent (quads.hpp).
struct GridPoint {
  int x, y;
};
SPMESH_HD inline GridPoint corner_at(int a, int s) { return {a == 1 || a == 2 ? s : 0, a >= 2 ? s : 0}; }
// The point `step` from a towards b (along a side of the grid or of a cell).
SPMESH_HD inline GridPoint towards(GridPoint a, GridPoint b, int step) {
  return {a.x + (b.x > a.x ? step : b.x < a.x ? -step : 0), a.y + (b.y > a.y ? step : b.y < a.y ? -step : 0)};
}
// The corner of the descendant numbered r among f's 4^t of t levels down (base-4 digits, the
// first f's child), and its side s (given f's).
SPMESH_HD inline GridPoint descendant(std::int64_t r, int t, int& s) {
  GridPoint o{0, 0};
  for (int step = t - 1; step >= 0; --step) {
    const int q = static_cast<int>((r >> (2 * step)) & 3);
    s /= 2;
    o.x += q == 1 || q == 2 ? s : 0, o.y += q >= 2 ? s : 0;
  }
  return o;
}

// The weight of control point c (of 4: the span's ends and a point each side) at point x (of
// 2^d + 1) of a span of a cubic B-spline curve after d rounds of its subdivision rules (vertex
// (1, 6, 1)/8, edge (1, 1)/2): the rows of A_d. Constant-evaluated for the patch kernels.
constexpr double curve_weight(int d, int x, int c) {
  constexpr int points = (1 << max_patch_depth) + 3;
  double w[points][4] = {}, next[points][4] = {};
  for (int i = 0; i < 4; ++i) w[i][i] = 1;
  for (int n = 1; n < 1 << d; n *= 2) {
    for (int i = 0; i <= n + 1; ++i)
      for (int j = 0; j < 4; ++j) next[2 * i][j] = (w[i][j] + w[i + 1][j]) / 2;
    for (int i = 0; i <= n; ++i)
      for (int j = 0; j < 4; ++j) next[2 * i + 1][j] = (w[i][j] + 6 * w[i + 1][j] + w[i + 2][j]) / 8;
    for (int i = 0; i < 2 * n + 3; ++i)
      for (int j = 0; j < 4; ++j) w[i][j] = next[i][j];
  }
  return w[x + 1][c];
}

// The categories of the points inside a face's patch d levels down, in the layout's order (the
// face points made on level k + j, then the pieces of the inner edges made on level k + from,
// from = 1 .. j - 1, for j = 1 .. d): their level j, from (0: face points), shift (2^shift
// points per face) and the points of the categories before. Known at compile time.
struct InnerCategory {
  int j = 0, from = 0, shift = 0, first = 0;
};
constexpr int inner_categories(int d) { return d * (d + 1) / 2; }
constexpr InnerCategory inner_category(int d, int index) {
  InnerCategory c;
  int n = 0;
  for (int j = 1; j <= d; ++j)
    for (int from = 0; from < j; ++from, ++n) {
      const int shift = from == 0 ? 2 * (j - 1) : j - 1 + from;
      if (n == index) return {j, from, shift, c.first};
      c.first += 1 << shift;
    }
  return c;
}

// Where the points of a level-k face f's patch go, d levels down (quads.hpp's numbering): in
// categories of points that lie in blocks of rows. Point i (of 2^shift) of face f goes to
//   face points made on level k + j:        base + (f << shift) + i
//   the pieces of the inner edges made on level k + from (each halved j - 1 - from times),
//   made on level k + j:                    base + (f << shift) + i
//   the pieces of f's edges made on level k + j, i = (edge a) 2^(j-1) + piece: base +
//   (e_a << (j - 1)) + piece, where f's half-edge a runs along edge e_a (else another face
//   owns them)
//   f's corners (i = a):                    corner a's vertex, where it is corner a's vertex_edge.
// The first `staged` categories (face points, inner edges: the points inside f) make blocks of
// consecutive rows for consecutive faces; `first` counts the points of the categories before.
// cell[(side + 1) y + x] names the point at (x, y) on the grid: category << 8 | i. A_d holds the
// weights of d curve subdivisions of a span, per point of the span.
template <class T>
struct PatchLayout {
  static constexpr int max_side = 1 << max_patch_depth;
  static constexpr int max_categories = 1 + 3 * max_patch_depth + max_patch_depth * (max_patch_depth - 1) / 2;
  enum What : std::uint8_t { face_point, inner_edge, outer_edge, corner };
  struct Category {
    What what;
    std::int8_t j, from, shift;
    std::int16_t first;
    std::int64_t base;
  };
  int depth = 0, side = 0, categories = 0, staged = 0;  // side: 2^depth
  Category category[max_categories] = {};
  std::uint16_t cell[(max_side + 1) * (max_side + 1)] = {};
  T A[(max_side + 1) * 4] = {};  // row x: the weights of a span's 4 control points

  PatchLayout() = default;
  // From level k's vertices, faces and edges.
  PatchLayout(int d, std::int64_t V, std::int64_t F, std::int64_t E) : depth(d), side(1 << d) {
    std::int64_t v[max_patch_depth + 1], f[max_patch_depth + 1], e[max_patch_depth + 1];
    v[0] = V, f[0] = F, e[0] = E;
    for (int l = 0; l < d; ++l)  // a quad level gives V + F + E vertices, 4F faces, 2E + 4F edges
      v[l + 1] = v[l] + f[l] + e[l], f[l + 1] = 4 * f[l], e[l + 1] = 2 * e[l] + 4 * f[l];
    int points = 0;
    auto add = [&](What what, int j, int from, int shift, std::int64_t base) {
      Category& c = category[categories++];
      c = {what, std::int8_t(j), std::int8_t(from), std::int8_t(shift), std::int16_t(points), base};
      for (int i = 0; i < 1 << shift; ++i, ++points) {
        const GridPoint g = place(c, i);
        cell[(side + 1) * g.y + g.x] = std::uint16_t((categories - 1) << 8 | i);
      }
    };
    for (int i = 0; i < inner_categories(d); ++i) {
      const InnerCategory c = inner_category(d, i);
      if (c.from == 0) add(face_point, c.j, 0, c.shift, v[c.j - 1]);
      else  // inner edge 2 E + h of level k + from - 1
        add(inner_edge, c.j, c.from, c.shift,
            v[c.j - 1] + f[c.j - 1] + (2 * e[c.from - 1] << (c.j - 1 - c.from)));
    }
    staged = categories;
    for (int j = 1; j <= d; ++j) add(outer_edge, j, 0, j + 1, v[j - 1] + f[j - 1]);
    add(corner, d, 0, 2, 0);
    for (int x = 0; x <= side; ++x)
      for (int c = 0; c < 4; ++c) A[4 * x + c] = static_cast<T>(curve_weight(d, x, c));
  }

  // Point i of category c on the grid.
  GridPoint place(const Category& c, int i) const {
    if (c.what == corner) return corner_at(i, side);
    if (c.what == outer_edge) {  // piece of edge a, from corner a (the edge runs along)
      const int a = i >> (c.j - 1), piece = i & ((1 << (c.j - 1)) - 1);
      return towards(corner_at(a, side), corner_at((a + 1) & 3, side), (side >> c.j) * (2 * piece + 1));
    }
    int s = side;
    if (c.what == face_point) {  // the centre of descendant i, j - 1 levels down
      const GridPoint o = descendant(i, c.j - 1, s);
      return {o.x + s / 2, o.y + s / 2};
    }
    // Piece of the inner edge of corner a of descendant g of level k + from - 1, from the point
    // of g's edge a to g's centre (the inner edge runs along that way).
    const int pieces = c.j - 1 - c.from, r = i >> pieces, piece = i & ((1 << pieces) - 1);
    const GridPoint o = descendant(r >> 2, c.from - 1, s);
    const GridPoint u = corner_at(r & 3, s), v = corner_at((r + 1) & 3, s);
    const GridPoint mid{o.x + (u.x + v.x) / 2, o.y + (u.y + v.y) / 2}, centre{o.x + s / 2, o.y + s / 2};
    return towards(mid, centre, (side >> c.j) * (2 * piece + 1));
  }
};

// The patches of a plan's last `depth` levels: the kind of each face of level `level`, the faces
// that are not `regular` (the region refined level by level) and those of them that are
// `irregular` (the region of the last level), in increasing order, and the layout of the last
// level (in the executor's memory, for float and double data). depth 0: none (eval goes level
// by level).
template <class S = linalg::Host>
struct Patches {
  int level = 0, depth = 0;
  linalg::Array<std::uint8_t, S> kind;
  linalg::Array<index_t, S> region, irregular;
  index_t region_count = 0, irregular_count = 0;
  linalg::Array<PatchLayout<float>, S> float_layout;
  linalg::Array<PatchLayout<double>, S> double_layout;
  explicit operator bool() const { return depth > 0; }
  template <class T>
  const PatchLayout<T>* layout() const {
    if constexpr (sizeof(T) == sizeof(float)) return float_layout.data();
    else return double_layout.data();
  }
};

}  // namespace spmesh::schemes::catmull_clark
