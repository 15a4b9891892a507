// classify_cells (classes.hpp): each cell's edges gathered through its faces, on the host (the
// boundary flags and edge valences from topology.hpp's boundary_flags and transposes, the sharp
// rims from the tags).
#include "solids/classes.hpp"

#include "linalg/cpu/executor.hpp"

#include <algorithm>

namespace spmesh::solids {

namespace {

// The distinct edges of cell c, through its faces (d3) and their sides (d2).
std::vector<index_t> cell_edges(const BoundaryOperators<>& ops, index_t c) {
  std::vector<index_t> edges;
  for (index_t p = ops.d3.offsets[c]; p < ops.d3.offsets[c + 1]; ++p) {
    const index_t f = linalg::column_of(ops.d3.columns[p]);
    for (index_t q = ops.d2.offsets[f]; q < ops.d2.offsets[f + 1]; ++q)
      edges.push_back(linalg::column_of(ops.d2.columns[q]));
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

}  // namespace

CellClasses classify_cells(const CellMesh<>& mesh, const BoundaryOperators<>& ops, const SolidSharpness<>* sharpness) {
  using linalg::column_of;
  const index_t V = ops.vertices(), E = ops.edges(), C = ops.cells();
  linalg::cpu::Executor exec;
  const auto transposed = transposes(exec, ops);
  const auto flags = boundary_flags(exec, ops, transposed);
  const auto& t2 = transposed.t2;
  auto faces_around = [&](index_t e) { return t2.offsets[e + 1] - t2.offsets[e]; };
  CellClasses out;
  std::vector<char> extraordinary(std::size_t(E), 0), rim(std::size_t(E), 0), extraordinary_vertex(std::size_t(V), 0);
  for (index_t e = 0; e < E; ++e) {
    rim[std::size_t(e)] = flags.edges[e] && faces_around(e) == 2 && sharpness &&
                          sharpness->edges[e] >= schemes::creasing::infinite;
    extraordinary[std::size_t(e)] = !rim[std::size_t(e)] && faces_around(e) != (flags.edges[e] ? 3 : 4);
    out.extraordinary_edges += extraordinary[std::size_t(e)];
    out.sharp_rims += rim[std::size_t(e)];
  }
  auto ends = [&](index_t e) {
    return std::pair{column_of(ops.d1.columns[2 * e]), column_of(ops.d1.columns[2 * e + 1])};
  };
  // The cells' extraordinary edges, and the vertices where two of them meet in a cell.
  std::vector<std::vector<index_t>> cell_extraordinary{std::size_t(C)};
  std::vector<char> at_rim(std::size_t(C), 0);
  for (index_t c = 0; c < C; ++c) {
    auto& mine = cell_extraordinary[std::size_t(c)];
    for (index_t e : cell_edges(ops, c)) {
      if (extraordinary[std::size_t(e)]) mine.push_back(e);
      at_rim[std::size_t(c)] |= rim[std::size_t(e)];
    }
    for (std::size_t i = 0; i < mine.size(); ++i)
      for (std::size_t j = i + 1; j < mine.size(); ++j) {
        const auto [a0, a1] = ends(mine[i]);
        const auto [b0, b1] = ends(mine[j]);
        for (index_t v : {a0, a1})
          if (v == b0 || v == b1) extraordinary_vertex[std::size_t(v)] = 1;
      }
  }
  for (char x : extraordinary_vertex) out.extraordinary_vertices += x;

  for (index_t c = 0; c < C; ++c) {
    const index_t begin = mesh.offsets[c], corners = mesh.offsets[c + 1] - begin;
    const auto& mine = cell_extraordinary[std::size_t(c)];
    std::vector<index_t> evs;  // the cell's extraordinary vertices
    bool on_boundary = false;
    for (index_t i = 0; i < corners; ++i) {
      const index_t v = mesh.indices[begin + i];
      if (extraordinary_vertex[std::size_t(v)]) evs.push_back(v);
      on_boundary |= flags.vertices[v] != 0;
    }
    auto through = [&](index_t v) {
      return std::all_of(mine.begin(), mine.end(), [&](index_t e) { return ends(e).first == v || ends(e).second == v; });
    };
    if (corners != 8 || mesh.view().shape(c).polyhedron()) out.not_evaluable.push_back({c, "not a hexahedron"});
    else if (evs.size() > 1) out.not_evaluable.push_back({c, "two extraordinary vertices"});
    else if (mine.empty()) {
      ++(on_boundary ? out.regular_boundary : out.regular_interior);
      out.regular_at_rims += at_rim[std::size_t(c)];
    }
    else if (mine.size() == 1) ++out.layered[faces_around(mine.front())];
    else if (evs.size() == 1 && through(evs.front())) ++out.irregular;
    else out.not_evaluable.push_back({c, "extraordinary edges through no common extraordinary vertex"});
  }
  return out;
}

}  // namespace spmesh::solids
