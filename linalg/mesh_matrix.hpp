// Mesh matrices (paper section 3.2 and 4.1): one column per face, the face's vertices as row
// indices in cyclic order. The stored "value" of an entry is its slot, its 0-based position
// in the face; it is implicit, so no value array exists.
#pragma once

#include "linalg/array.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace spmesh::linalg {

// Kernel view of a polygon mesh matrix: column o holds vertices indices[offsets[o] .. offsets[o+1]).
struct MeshView {
  index_t outer = 0, inner = 0;  // faces, vertices
  const index_t* offsets = nullptr;
  const index_t* indices = nullptr;

  SPMESH_HD index_t begin(index_t o) const { return offsets[o]; }
  SPMESH_HD index_t end(index_t o) const { return offsets[o + 1]; }
  SPMESH_HD index_t index(index_t p) const { return indices[p]; }
  SPMESH_HD index_t value(index_t o, index_t p) const { return p - offsets[o]; }
};

// Kernel view of a reduced mesh matrix: every column has `order` entries, so no offsets.
struct ReducedMeshView {
  index_t outer = 0, inner = 0;  // faces, vertices
  index_t order = 0;
  const index_t* indices = nullptr;

  SPMESH_HD index_t begin(index_t o) const { return o * order; }
  SPMESH_HD index_t end(index_t o) const { return (o + 1) * order; }
  SPMESH_HD index_t index(index_t p) const { return indices[p]; }
  SPMESH_HD index_t value(index_t o, index_t p) const { return p - o * order; }
};

// The mesh matrix M of a polygon mesh: vertices x faces, CSC with implicit slot values.
template <class Space = Host>
struct MeshMatrix {
  using value_type = index_t;
  using space = Space;
  static constexpr bool column_major = true;

  index_t vertices = 0, faces = 0;
  Array<index_t, Space> offsets;  // faces + 1
  Array<index_t, Space> indices;  // sum of face orders

  MeshMatrix() = default;
  MeshMatrix(index_t vertices_, Array<index_t, Space> offsets_, Array<index_t, Space> indices_)
      : vertices(vertices_), faces(offsets_.size() - 1), offsets(std::move(offsets_)),
        indices(std::move(indices_)) {
    if (offsets.size() < 1) throw DimensionError("MeshMatrix: offsets must have faces + 1 entries");
  }

  index_t rows() const { return vertices; }
  index_t cols() const { return faces; }
  index_t nnz() const { return indices.size(); }
  MeshView view() const { return {faces, vertices, offsets.data(), indices.data()}; }

  MeshMatrix clone() const requires std::is_same_v<Space, Host> {
    return MeshMatrix(vertices, offsets.clone(), indices.clone());
  }
};

// The reduced mesh matrix of a k-regular mesh (all quads, all triangles): just the face table.
template <class Space = Host>
struct ReducedMeshMatrix {
  using value_type = index_t;
  using space = Space;
  static constexpr bool column_major = true;

  index_t vertices = 0, faces = 0, order = 0;
  Array<index_t, Space> indices;  // faces * order

  ReducedMeshMatrix() = default;
  ReducedMeshMatrix(index_t vertices_, index_t order_, Array<index_t, Space> indices_)
      : vertices(vertices_), faces(order_ > 0 ? indices_.size() / order_ : 0), order(order_),
        indices(std::move(indices_)) {
    if (order < 3 || indices.size() % order != 0)
      throw DimensionError("ReducedMeshMatrix: " + std::to_string(indices.size()) +
                           " indices do not form faces of order " + std::to_string(order));
  }

  index_t rows() const { return vertices; }
  index_t cols() const { return faces; }
  index_t nnz() const { return indices.size(); }
  ReducedMeshView view() const { return {faces, vertices, order, indices.data()}; }
};

// Whether some face of M has other than `order` corners (counted on the executor where the
// corner count alone does not tell: triangles and pentagons can sum to 4 a face).
struct FaceOrderOtherThan {
  const index_t* offsets;
  index_t order;
  SPMESH_HD bool operator()(index_t f) const { return offsets[f + 1] - offsets[f] != order; }
};
template <class Exec, class Space>
bool has_faces_other_than(Exec& exec, const MeshMatrix<Space>& M, index_t order) {
  if (M.nnz() != std::int64_t(order) * M.faces) return true;
  return exec.count_if(M.faces, FaceOrderOtherThan{M.offsets.data(), order}) > 0;
}
// Whether some face of M has `order` corners.
struct FaceOrderIs {
  const index_t* offsets;
  index_t order;
  SPMESH_HD bool operator()(index_t f) const { return offsets[f + 1] - offsets[f] == order; }
};
template <class Exec, class Space>
bool has_faces_of(Exec& exec, const MeshMatrix<Space>& M, index_t order) {
  return exec.count_if(M.faces, FaceOrderIs{M.offsets.data(), order}) > 0;
}

}  // namespace spmesh::linalg
