// What every scheme's build makes (docs/design.md "Build, eval, replay"): a plan of levels,
// each refining its level into the next, and the refined mesh. No vertex data.
#pragma once

#include "linalg/formats.hpp"
#include "linalg/mesh_matrix.hpp"
#include "schemes/tags.hpp"

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace spmesh::schemes {

// Which path a scheme's build takes: half-edge levels (half_edges/; the default), or the
// general path of mapped products for every level (the reference the half-edge path is tested
// against).
enum class Path { half_edges, general };

// A plan's refined mesh: its faces' vertices, and where each face starts; `offsets` stays
// empty where every face has `order` corners (the half-edge paths' last level: the offsets
// would be the largest array after the faces, 4 bytes a face, and a kernel to write them).
// mesh() gives it as a mesh matrix (host memory; GPU plans copy it down first).
template <class S = linalg::Host>
struct RefinedMesh {
  index_t vertices = 0, faces = 0, order = 0;  // order 0: faces of any size, at offsets
  linalg::Array<index_t, S> offsets, indices;

  RefinedMesh() = default;
  RefinedMesh(linalg::MeshMatrix<S> M)
      : vertices(M.vertices),
        faces(M.faces),
        offsets(std::move(M.offsets)),
        indices(std::move(M.indices)) {}
  RefinedMesh(linalg::ReducedMeshMatrix<S> M)
      : vertices(M.vertices), faces(M.faces), order(M.order), indices(std::move(M.indices)) {}

  linalg::MeshMatrix<S> mesh() const& requires std::is_same_v<S, linalg::Host> {
    RefinedMesh copy;
    copy.vertices = vertices, copy.faces = faces, copy.order = order;
    copy.offsets = offsets.clone(), copy.indices = indices.clone();
    return std::move(copy).mesh();
  }
  // The same, taking this mesh's arrays rather than copying them.
  linalg::MeshMatrix<S> mesh() && requires std::is_same_v<S, linalg::Host> {
    if (order == 0) return linalg::MeshMatrix<S>(vertices, std::move(offsets), std::move(indices));
    linalg::Array<index_t, S> o(faces + 1);
    for (index_t f = 0; f <= faces; ++f) o[f] = order * f;
    return linalg::MeshMatrix<S>(vertices, std::move(o), std::move(indices));
  }
};

// What a plan holds besides its levels: nothing, unless the scheme says (Scheme::PlanData).
struct NoPlanData {};
template <class Scheme, class S>
struct PlanDataOf {
  using type = NoPlanData;
};
template <class Scheme, class S>
  requires requires { typename Scheme::template PlanData<S>; }
struct PlanDataOf<Scheme, S> {
  using type = typename Scheme::template PlanData<S>;
};

// A scheme's plan (schemes.hpp lists the schemes): levels[l] refines level l into level l + 1
// (a Scheme::Level<S>: the general path's level, or one of the half-edge levels); `refined`
// is the last mesh. A scheme may keep more (Scheme::PlanData: Catmull-Clark's patches).
template <class Scheme, class S>
struct Plan : PlanDataOf<Scheme, S>::type {
  using scheme = Scheme;
  Options options;
  std::vector<typename Scheme::template Level<S>> levels;
  RefinedMesh<S> refined;
};

// A refined mesh with its vertex data (build_and_eval).
template <class T, class S>
struct Subdivided {
  RefinedMesh<S> mesh;
  linalg::Dense<T, S> data;
};

// What a scheme's one-level build on the general path returns: the level's operators, the
// child mesh and the child's sharpness.
template <class LevelT>
struct LevelResult {
  using space = typename decltype(LevelT::M)::space;
  LevelT level;
  linalg::MeshMatrix<space> child;
  Sharpness<space> child_sharpness;
};

inline void check_level_count(int levels) {
  if (levels < 0)
    throw InputError("subdivision build: negative level count " + std::to_string(levels));
}

// Throws DimensionError unless vertex data of `rows` rows fits a level of `vertices` vertices.
inline void check_vertex_data(index_t rows, index_t vertices, const char* what) {
  if (rows != vertices)
    throw DimensionError(std::string(what) + ": vertex data has " + std::to_string(rows) +
                         " rows, the level has " + std::to_string(vertices) + " vertices");
}

}  // namespace spmesh::schemes
