// Loop's traits for the front door (subdivision.hpp): triangles only, crease rules
// (crease_rules.hpp) with Loop's masks (paper appendix B).
#pragma once

#include "schemes/loop/build.hpp"
#include "schemes/loop/eval.hpp"
#include "schemes/loop/limit_masks.hpp"
#include "schemes/loop/refinement.hpp"
#include "schemes/loop/triangle_build.hpp"
#include "schemes/loop/triangle_eval.hpp"
#include "schemes/subdivision.hpp"

#include <cstdint>
#include <utility>

namespace spmesh::schemes {

struct Loop {
  static constexpr const char* name = "loop";  // on the command line
  static constexpr const char* title = "Loop";  // in messages
  static constexpr bool triangles_only = true;
  static constexpr bool crease_rules = true;  // takes sharpness and Options

  // The base face that face `face` of level `levels` descends from: each triangle has four
  // children in a row.
  static index_t base_face(const linalg::MeshMatrix<>&, index_t face, int levels) { return face >> (2 * levels); }

  // A plan's levels: the general path's or half-edge levels; a half-edge level after one is
  // evaluated through its parent's faces (group_eval.hpp).
  template <class S>
  using Level = loop::AnyLevel<S>;
  template <class S>
  using GroupedLevel = loop::TriangleLevel<S>;
  using SmoothMask = loop::detail::SmoothMask;  // Eq. 33's, for the crease rules
  using LimitMask = loop::LimitMask;            // limit.hpp's

  // The general path's level build.
  template <class Exec, class S = typename Exec::space>
  static auto build_level(Exec& exec, linalg::MeshMatrix<S> M, const Sharpness<S>& C,
                          const Options& options, int) {
    return loop::build_level(exec, std::move(M), C, options);
  }
  // The half-edge build: the first level and each child.
  template <class Exec, class S = typename Exec::space>
  static auto first_level(Exec& exec, linalg::MeshMatrix<S> M, const Sharpness<S>& C) {
    return loop::triangle_level(exec, std::move(M), C);
  }
  template <class Exec, class Level>
  static auto refine(Exec& exec, const Level& L, bool topology) {
    return loop::refine_triangles(exec, L, topology);
  }

  // Sizes: a level of V vertices, F triangles and E edges gives V + E, 4F and 2E + 3F. Bytes on
  // half-edges: 3 arrays per corner, 1 per vertex, a byte per face and a margin for the sparse
  // C.
  static SizeEstimate::Counts child_counts(const SizeEstimate::Counts& c, int) {
    return {c.vertices + c.edges, 4 * c.faces, 12 * c.faces, 2 * c.edges + 3 * c.faces};
  }
  static std::int64_t level_bytes(const SizeEstimate::Counts& c, int) {
    return 12 * c.corners + 4 * c.vertices + c.faces + c.edges;
  }
};

}  // namespace spmesh::schemes
