#include "solids/refinement_file.hpp"

#include "linalg/cpu/executor.hpp"
#include "solids/plan.hpp"
#include "solids/polyhedra.hpp"
#include "solids/size_estimate.hpp"

#include <vector>

namespace spmesh::solids {

linalg::MeshMatrix<> as_stored(CellMesh<>&& cells) {
  return linalg::MeshMatrix<>(cells.vertices, std::move(cells.offsets), std::move(cells.indices));
}

CellMesh<> as_cells(linalg::MeshMatrix<>&& stored) {
  return {stored.vertices, std::move(stored.offsets), std::move(stored.indices)};
}

schemes::Sharpness<> stored_sharpness(const BoundaryOperators<>& ops, const std::optional<SolidSharpness<>>& sharpness) {
  const index_t V = ops.vertices();
  std::vector<index_t> lower, higher;
  std::vector<float> values;
  linalg::Array<float> vertices(V);
  std::fill(vertices.begin(), vertices.end(), schemes::creasing::none);
  if (sharpness) {
    for (index_t e = 0; e < ops.edges(); ++e)
      if (schemes::creasing::is_sharp(sharpness->edges[e])) {
        lower.push_back(linalg::column_of(ops.d1.columns[2 * e]));
        higher.push_back(ops.d1.columns[2 * e + 1]);
        values.push_back(sharpness->edges[e]);
      }
    std::copy(sharpness->vertices.begin(), sharpness->vertices.end(), vertices.begin());
  }
  return {{V, V, linalg::Array<index_t>(lower), linalg::Array<index_t>(higher), linalg::Array<float>(values)},
          std::move(vertices)};
}

template <class T>
schemes::Refinement<T> refinement_record(const CellMesh<>& base, const BoundaryOperators<>& base_ops,
                                         const std::optional<SolidSharpness<>>& sharpness, const RefineOptions& options,
                                         int levels, schemes::RefinementMatrix<T> R, CellMesh<>&& refined) {
  schemes::Refinement<T> r;
  r.scheme = schemes::solid_scheme;
  r.levels = levels;
  r.options.crease = options.crease;
  r.vertex_rule = static_cast<int>(options.vertex_rule);
  r.R = std::move(R);
  r.base = linalg::MeshMatrix<>(base.vertices, base.offsets.clone(), base.indices.clone());
  if (first_polyhedron(base) >= 0) r.base_face_offsets = base.face_offsets.clone(), r.base_face_streams = base.face_streams.clone();
  r.sharpness = stored_sharpness(base_ops, sharpness);
  r.refined = as_stored(std::move(refined));
  return r;
}

template <class T>
StoredSolid stored_solid(const schemes::Refinement<T>& r, const schemes::RefinedMeshCheck& check) {
  if (r.scheme != schemes::solid_scheme)
    throw InputError(check.file + ": a " + r.scheme + " surface refinement, not a Catmull-Clark solid's");
  linalg::cpu::Executor cpu;
  StoredSolid s;
  s.base = CellMesh<>{r.base.vertices, r.base.offsets.clone(), r.base.indices.clone(), r.base_face_offsets.clone(),
                      r.base_face_streams.clone()};
  s.options.crease = r.options.crease;
  s.options.vertex_rule = static_cast<VertexRule>(r.vertex_rule);
  try {
    s.ops = boundary_operators(cpu, s.base);
    const auto& C = r.sharpness;
    std::vector<std::array<index_t, 2>> edges;
    std::vector<index_t> corners;
    std::vector<float> corner_values;
    for (index_t i = 0; i < C.edges.nnz(); ++i) edges.push_back({C.edges.row_indices[i], C.edges.col_indices[i]});
    for (index_t v = 0; v < C.vertices.size(); ++v)
      if (C.vertices[v] != schemes::creasing::none) corners.push_back(v), corner_values.push_back(C.vertices[v]);
    if (!edges.empty() || !corners.empty())
      s.sharpness = tagged_sharpness(s.ops, edges, corners, "the stored sharpness",
                                       std::vector<float>(C.edges.values.begin(), C.edges.values.end()), corner_values);
  } catch (const Error& e) {
    throw InputError(check.file + ": the stored base cells: " + e.what());
  }
  const auto last = solid_levels(s.ops, s.base.indices.size(), r.levels).back();
  if (last.vertices != check.vertices || last.cells != check.faces || last.corners != check.corners)
    throw InputError(check.file + ": " + std::to_string(r.levels) + " levels of the stored base cells make " +
                     std::to_string(last.vertices) + " vertices and " + std::to_string(last.cells) +
                     " cells, but the header says " + std::to_string(check.vertices) + " and " +
                     std::to_string(check.faces));
  return s;
}

template <class T>
CellMesh<> rebuild_cells(const schemes::Refinement<T>& r, const schemes::RefinedMeshCheck& check) {
  auto s = stored_solid(r, check);
  linalg::cpu::Executor cpu;
  auto stored = as_stored(build(cpu, std::move(s.base), r.levels, s.options, std::move(s.sharpness)).refined);
  check.check(stored);
  return as_cells(std::move(stored));
}

template <class T>
schemes::Refinement<T> load_refinement(const std::string& path) {
  auto parts = schemes::load_refinement_parts<T>(path);
  parts.r.refined = as_stored(rebuild_cells(parts.r, parts.refined));
  return std::move(parts.r);
}

#define SPMESH_SOLIDS_REFINEMENT_FILE(T)                                                                             \
  template schemes::Refinement<T> refinement_record(const CellMesh<>&, const BoundaryOperators<>&,                  \
                                                    const std::optional<SolidSharpness<>>&, const RefineOptions&,   \
                                                    int, schemes::RefinementMatrix<T>, CellMesh<>&&);               \
  template StoredSolid stored_solid(const schemes::Refinement<T>&, const schemes::RefinedMeshCheck&);               \
  template CellMesh<> rebuild_cells(const schemes::Refinement<T>&, const schemes::RefinedMeshCheck&);               \
  template schemes::Refinement<T> load_refinement(const std::string&);
SPMESH_SOLIDS_REFINEMENT_FILE(float)
SPMESH_SOLIDS_REFINEMENT_FILE(double)

}  // namespace spmesh::solids
