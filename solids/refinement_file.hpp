// A Catmull-Clark solid's refinement saved for replay, in the refinement file of surfaces
// (schemes/refinement_file.hpp, scheme schemes::solid_scheme): R as a stencil table, the base
// cells where a surface's file has its base faces, their sharp edges (vertex pairs with their
// sharpness) and corners, the options (crease method, vertex rule), and the refined cells' sizes
// and hash. The refined cells are not stored: loading checks the header's refined sizes against
// those the base cells give (solid_levels) before rebuilding them with solids::build, then
// checks their hash.
#pragma once

#include "schemes/refinement_file.hpp"
#include "solids/cells.hpp"
#include "solids/rules.hpp"
#include "solids/sharpness.hpp"
#include "solids/topology.hpp"

#include <optional>
#include <string>

namespace spmesh::solids {

// Cells as the file's "faces" (a mesh matrix of cells), and back; the arrays move.
linalg::MeshMatrix<> as_stored(CellMesh<>&& cells);
CellMesh<> as_cells(linalg::MeshMatrix<>&& stored);

// A level's sharpness as the file stores it: each sharp edge as its (lower, higher) vertex pair
// with its sharpness, every vertex's sharpness; none (an empty list, zeros) without.
schemes::Sharpness<> stored_sharpness(const BoundaryOperators<>& ops, const std::optional<SolidSharpness<>>& sharpness);

// The record save_refinement writes, from a build's parts (the base's operators number its edges;
// its polyhedra's faces go in a version 3 file).
template <class T>
schemes::Refinement<T> refinement_record(const CellMesh<>& base, const BoundaryOperators<>& base_ops,
                                         const std::optional<SolidSharpness<>>& sharpness, const RefineOptions& options,
                                         int levels, schemes::RefinementMatrix<T> R, CellMesh<>&& refined);

// What rebuilding a stored solid refinement starts from, checked: the base cells, their
// operators, sharpness and the options. InputError naming the file unless the scheme is a
// solid's, the base cells are valid (boundary_operators), the sharp tags lie on its boundary
// surface, and the header's refined sizes are those the base cells give.
struct StoredSolid {
  CellMesh<> base;
  BoundaryOperators<> ops;
  std::optional<SolidSharpness<>> sharpness;
  RefineOptions options;
};
template <class T>
StoredSolid stored_solid(const schemes::Refinement<T>& r, const schemes::RefinedMeshCheck& check);

// The refined cells rebuilt on the CPU from a stored solid refinement and checked against the
// file's hash (InputError naming the file if they differ).
template <class T>
CellMesh<> rebuild_cells(const schemes::Refinement<T>& r, const schemes::RefinedMeshCheck& check);

// A solid's refinement file read, checked and its refined cells rebuilt (r.refined holds them as
// a mesh matrix of cells: as_cells). InputError naming the path for anything but such a file.
template <class T>
schemes::Refinement<T> load_refinement(const std::string& path);

}  // namespace spmesh::solids
