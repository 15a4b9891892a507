// The sizes of every level of a solid's refinement, known before any work by index arithmetic
// (refine.hpp: every level after the first is all hexahedra), and the bytes refining one level
// holds at most, for memory checks before work.
#pragma once

#include "solids/topology.hpp"
#include "solids/tuning.hpp"

#include <cstdint>
#include <vector>

namespace spmesh::solids {

struct SolidCounts {
  std::int64_t vertices = 0, edges = 0, faces = 0, cells = 0;
  std::int64_t corners = 0;     // of all cells: the cell lists' entries, the next level's cells
  std::int64_t face_sides = 0;  // nnz(d2): the faces' corners
  std::int64_t cell_faces = 0;  // nnz(d3)

  // The next level: V + E + F + C vertices, each edge split and a new edge from each face point
  // to each side's point and from each cell point to each face's point, each face cut into a
  // quad a side and a new face for each edge of each cell (3 at each corner, each met twice).
  SolidCounts next() const {
    SolidCounts n;
    n.vertices = vertices + edges + faces + cells;
    n.edges = 2 * edges + face_sides + cell_faces;
    n.faces = face_sides + 3 * corners / 2;
    n.cells = corners;
    n.corners = 8 * n.cells, n.face_sides = 4 * n.faces, n.cell_faces = 6 * n.cells;
    return n;
  }
};

// Levels 0..levels of a mesh with operators `ops` whose cell lists hold `corners` entries.
inline std::vector<SolidCounts> solid_levels(const BoundaryOperators<>& ops, std::int64_t corners, int levels) {
  std::vector<SolidCounts> out{{ops.vertices(), ops.edges(), ops.faces(), ops.cells(), corners,
                                ops.d2.nnz(), ops.d3.nnz()}};
  for (int l = 0; l < levels; ++l) out.push_back(out.back().next());
  return out;
}

// The bytes boundary_operators holds at most on a level of counts `c`: the operators, and the
// cells' first instances, two 4-slot copies and four arrays an instance, the face owners, four
// arrays a face side and the radix sorts' buffers while it identifies faces and edges.
inline std::int64_t operator_bytes(const SolidCounts& c) {
  const std::int64_t E = c.edges, F = c.faces, C = c.cells, I = c.cell_faces, S2 = c.face_sides;
  const std::int64_t operators = 4 * (E + 1) + 8 * E + 4 * (F + 1) + 4 * S2 + 4 * (C + 1) + 4 * I;
  const std::int64_t identify = 4 * (C + 1) + 32 * I + 20 * I + 4 * F + 20 * S2 + 8 * I + 12 * S2;
  return operators + identify;
}

// The bytes that refining a level of counts `c` holds at most (scalar_bytes a value, `width`
// values a vertex), as if every array of boundary_operators and refine were held at once: the
// level's cells and data, its operators and their transposes with what building them sorts,
// refine's averages and counts, the next level's cells, data and operators, and with `sharp`
// the crease rules.
inline std::int64_t refine_bytes(const SolidCounts& c, int scalar_bytes, int width, bool sharp = false) {
  const std::int64_t V = c.vertices, E = c.edges, F = c.faces, C = c.cells, I = c.cell_faces,
                     S2 = c.face_sides, s = scalar_bytes, k = width;
  const std::int64_t level = 4 * (C + 1) + 4 * c.corners + s * k * V;
  const std::int64_t transposes = 4 * (V + 1) + 8 * E + 4 * (E + 1) + 4 * S2 + 4 * (F + 1) + 4 * I;
  // transpose: three arrays and a sorted copy an entry, the sort's buffers.
  const std::int64_t transpose = 24 * std::max({2 * E, S2, I});
  // refine: the averages, the counts at each vertex, the boundary flags, the line edges.
  const std::int64_t averages =
      s * k * (6 * E + 3 * F + C + 3 * V) + s * (4 * V + 2 * E + 2 * F + C) + V + E + F + 8 * V;
  const std::int64_t next = s * k * (V + E + F + C) + 4 * (c.corners + 1) + 32 * c.corners;
  // refined_operators: the next level's d1, d2 and d3 (offsets and columns).
  const SolidCounts n = c.next();
  const std::int64_t next_operators = 4 * (3 * n.edges + 5 * n.faces + 7 * n.cells + 3);
  // sharp_rules (sharpness.hpp), with sharp features: the level's sharpness, each vertex's mask
  // (three doubles, two ids), each edge's crease weight, the next level's sharpness, the flags.
  const std::int64_t rules = sharp ? 4 * (E + V) + 32 * V + 8 * E + 4 * (n.edges + n.vertices) + V + E + F : 0;
  return level + operator_bytes(c) + transposes + transpose + averages + next + next_operators + rules;
}

// The bytes building and composing R of levels[0] .. levels.back() holds at most (solids::build,
// refinement_matrix, encode_refinement): the plan (every parent level's topology, as refine_bytes
// counts it without data), and at the deepest composition S_l, R_{l-1} and R_l in double with
// their offsets, then R encoded (a column and a weight an entry at most). Rows of S_l hold at most
// tuning::level_matrix_row_entries entries on average and rows of R tuning::refinement_row_entries.
inline std::int64_t refinement_bytes(const std::vector<SolidCounts>& levels, int scalar_bytes) {
  std::int64_t plan = 0, compose = 0;
  for (std::size_t l = 0; l + 1 < levels.size(); ++l) {
    plan += refine_bytes(levels[l], scalar_bytes, 0);
    const std::int64_t parents = levels[l].vertices, children = levels[l + 1].vertices;
    const std::int64_t S = tuning::level_matrix_row_entries * children,
                       R = tuning::refinement_row_entries * (parents + children);
    compose = std::max(compose, 12 * (S + R) + 8 * (parents + 2 * children));
  }
  const std::int64_t encoded = (4 + scalar_bytes) * tuning::refinement_row_entries * levels.back().vertices;
  return plan + compose + encoded;
}

}  // namespace spmesh::solids
