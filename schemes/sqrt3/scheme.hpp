// sqrt(3)'s traits for the front door (subdivision.hpp): triangles only; no crease rules, so no
// sharpness and no Options; Kobbelt's boundary rule on every second level (Kobbelt 2000, paper
// appendix A).
#pragma once

#include "schemes/sqrt3/build.hpp"
#include "schemes/sqrt3/eval.hpp"
#include "schemes/sqrt3/refinement.hpp"
#include "schemes/sqrt3/triangle_build.hpp"
#include "schemes/sqrt3/triangle_eval.hpp"
#include "schemes/subdivision.hpp"

#include <cstdint>
#include <utility>

namespace spmesh::schemes {

struct Sqrt3 {
  static constexpr const char* name = "sqrt3";   // on the command line
  static constexpr const char* title = "sqrt3";  // in messages
  static constexpr bool triangles_only = true;
  static constexpr bool crease_rules = false;  // sharpness refused, Options ignored

  // A plan's levels: the general path's or half-edge levels; a half-edge level after one is
  // evaluated through its parent's faces (GroupVertexPoints).
  template <class S>
  using Level = sqrt3::AnyLevel<S>;
  template <class S>
  using GroupedLevel = sqrt3::TriangleLevel<S>;

  // Kobbelt's boundary split happens on odd levels (the second, fourth, ...), as in CGAL and
  // OpenMesh.
  static bool splits_boundary(int level) { return level % 2 == 1; }

  // The general path's level build.
  template <class Exec, class S = typename Exec::space>
  static auto build_level(Exec& exec, linalg::MeshMatrix<S> M, const Sharpness<S>&, const Options&,
                          int level) {
    return sqrt3::build_level(exec, std::move(M), splits_boundary(level));
  }
  // The half-edge build: the first level; per level, where its new points go; each child.
  template <class Exec, class S = typename Exec::space>
  static auto first_level(Exec& exec, linalg::MeshMatrix<S> M, const Sharpness<S>& C) {
    return sqrt3::triangle_level(exec, std::move(M), C);
  }
  template <class Exec, class Level>
  static auto level_rules(Exec&, const Level&, const Options&) {
    return [](auto& exec, auto& L, int level) {
      L.splits_boundary = splits_boundary(level);
      sqrt3::place_new_points(exec, L);
    };
  }
  template <class Exec, class Level>
  static auto refine(Exec& exec, const Level& L, bool topology) {
    return sqrt3::refine_triangles(exec, L, topology);
  }

  // Sizes: a level of V vertices, F triangles, E edges and B boundary edges gives V + F, 3F,
  // E + 3F and B, and on a level that splits the boundary B more vertices and edges and 3B
  // boundary edges. Bytes on half-edges: 2 arrays per corner, 1 per vertex, a byte per face and
  // on a level that splits the boundary 5 more per face.
  static SizeEstimate::Counts child_counts(const SizeEstimate::Counts& c, int level) {
    const std::int64_t split = splits_boundary(level) ? c.boundary_edges : 0;
    return {c.vertices + c.faces + split, 3 * c.faces, 9 * c.faces, c.edges + 3 * c.faces + split,
            c.boundary_edges + 2 * split};
  }
  static std::int64_t level_bytes(const SizeEstimate::Counts& c, int level) {
    return 8 * c.corners + 4 * c.vertices + (splits_boundary(level) ? 6 : 1) * c.faces;
  }
};

}  // namespace spmesh::schemes
