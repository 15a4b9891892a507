// Semi-sharp creasing (DeRose, Kass, Truong 1998) as OpenSubdiv applies it: sharpness decay per
// level (uniform or Chaikin), the vertex rule a sharpness pattern implies, and the fractional
// weight that blends two rules when sharpness decays to zero. Shared by every scheme.
// Sharpness is float, as in OpenSubdiv, so the same inputs take the same decisions.
#pragma once

#include "linalg/base.hpp"

namespace spmesh::schemes {

// Boundary interpolation (OpenSubdiv's VTX_BOUNDARY_*): boundary edges are always infinitely
// sharp; edge_and_corner also pins a boundary vertex with one incident face (a corner).
enum class Boundary { edge_only, edge_and_corner };

// How semi-sharp edge sharpness decays from level to level.
enum class CreaseMethod { uniform, chaikin };

// Catmull-Clark's rule at the edges of triangles (OpenSubdiv's Sdc::Options::TriangleSubdivision):
// its own (TRI_SUB_CATMARK), or OpenSubdiv's "smooth triangle" weights (TRI_SUB_SMOOTH,
// rules.md), which only level 0 can have (every later face is a quad). Loop ignores it.
enum class TriangleRule { catmark, smooth };

struct Options {
  Boundary boundary = Boundary::edge_only;
  CreaseMethod crease = CreaseMethod::uniform;
  TriangleRule triangles = TriangleRule::catmark;
};

namespace creasing {

inline constexpr float none = 0.0f;      // a smooth edge or vertex
inline constexpr float infinite = 10.0f;  // sharpness >= 10 never decays

SPMESH_HD inline bool is_sharp(float s) { return s > none; }
SPMESH_HD inline bool is_semi_sharp(float s) { return s > none && s < infinite; }

// One level of uniform decay: s - 1, clamped at 0; infinite stays infinite.
SPMESH_HD inline float decrement(float s) {
  if (s <= none) return none;
  if (s >= infinite) return infinite;
  return s > 1.0f ? s - 1.0f : none;
}

// The sharpness of the child of an edge of sharpness s at one of its end vertices, whose
// incident edges (s itself included) are `edges` in number, `semi_count` of them semi-sharp with
// sharpnesses summing to `semi_sum`. Chaikin: 3/4 s + 1/4 (average of the other semi-sharp
// edges), minus 1 (rules.md "Semi-sharp creases").
SPMESH_HD inline float child_edge_sharpness(CreaseMethod method, float s, int edges,
                                            int semi_count, float semi_sum) {
  if (method == CreaseMethod::uniform || edges < 2) return decrement(s);
  if (!is_sharp(s)) return none;
  if (s >= infinite) return infinite;
  if (semi_count > 1) {
    const float others = (semi_sum - s) / static_cast<float>(semi_count - 1);
    s = 0.75f * s + 0.25f * others;
  }
  s -= 1.0f;
  return is_sharp(s) ? s : none;
}

// The vertex rules, ordered from smooth to sharp.
enum class Rule : int { smooth = 0, dart = 1, crease = 2, corner = 3 };

// A sharp vertex is a corner; otherwise the count of sharp incident edges decides.
SPMESH_HD inline Rule vertex_rule(float vertex_sharpness, int sharp_edges) {
  if (is_sharp(vertex_sharpness) || sharp_edges > 2) return Rule::corner;
  return static_cast<Rule>(sharp_edges);
}

// Accumulates the weight with which a vertex's parent rule is blended into its child rule: the
// average sharpness of the features (vertex and incident edges) that decay to zero in this step,
// clamped to 1.
struct FractionalWeight {
  float sum = 0.0f;
  int count = 0;

  SPMESH_HD void add(float parent, float child) {
    if (is_sharp(parent) && !is_sharp(child)) sum += parent, ++count;
  }
  SPMESH_HD float value() const {
    if (count == 0) return 0.0f;
    const float w = sum / static_cast<float>(count);
    return w > 1.0f ? 1.0f : w;
  }
};

}  // namespace creasing
}  // namespace spmesh::schemes
