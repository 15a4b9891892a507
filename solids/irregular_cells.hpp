// The limit in irregular cells (seed 000, 3.3): a hexahedron one of whose corners, V, is an
// extraordinary vertex. Its child at V has the cell's configuration again one level down (it is
// self-similar: its neighbourhood is isomorphic to the cell's, seen from V), and its 7 other
// children have nets (tricubic or layered, cell_nets.hpp). With the cell's ring, the points of
// the cells that share a vertex with it (numbered by a walk from V, below), A maps the ring onto
// the child at V's ring and G_r maps the child at V's ring onto the net of its child at corner r.
// A sample at distance 2^-(k + 1) to 2^-k of V (the largest of its parameters measured from V)
// lies in child r of the cell k levels down, whose net is G_r A^k times the ring: a row over the
// ring a net entry, for every depth up to irregular_depth, made once a configuration (constant
// time a sample, no eigen-decomposition: the powers are tabled). Closer to V than
// 2^-(irregular_depth + 1) a sample is taken at that distance. The rows are kept as D_k = G_r A^k
// - (G_r 1) l^T, l^T the limit at V's weights (A's left eigenvector of eigenvalue 1), with l^T as
// one row more: a derivative's weights grow as 2^k and sum to 0, so they take the differences D_k
// (of size |lambda_2|^k) and not the points, whose common part would cost 2^k of rounding.
//
// A and G_r are read off spmesh's own refinement of the cell's neighbourhood, cut out as a mesh
// of its own (solids::build, level_matrix): the ring's points at the next level depend only on
// the cells round the cell's corners, all in the neighbourhood, so the cut-out refines them as
// the whole mesh does. Configurations are told apart by a key: the walk's cells, each as its 8
// corners' ring numbers in its frame. The walk starts at the cell with V as corner (0, 0, 0) and
// the cell's edges at V, toward corner_frame's a, b and c, as its axes (the child at V is then
// the cell of corners 0 at V in its own order, corner_children.hpp); it crosses faces in a fixed
// order, the cell beyond a face taking the face's corners where they are and its far corners
// one step further along the axis across (a translation of the frame), and numbers each point
// on first sight. Equal keys are isomorphic neighbourhoods with the same numbering; the cell is
// self-similar when its key is its child at V's. Cells whose neighbourhood has another kind of
// cell, a non-manifold corner, sharp features (cell_nets does not try them), whose child at V's
// key differs (at level 0 a corner's other neighbours usually look unlike a refined level's:
// refine once) or a child without a net stay without one.
#pragma once

#include "linalg/cpu/executor.hpp"
#include "solids/cell_nets.hpp"
#include "solids/corner_children.hpp"
#include "solids/plan.hpp"
#include "solids/refinement.hpp"
#include "solids/tuning.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

namespace spmesh::solids {

// The deepest level a sample is carried to toward V (the tables hold depths 0 to it).
inline constexpr int irregular_depth = 32;

namespace detail {

// A hexahedral mesh's cells on the host with each vertex's cells.
struct HostCells {
  std::vector<index_t> offsets, indices, vertex_offsets, vertex_cells;
  index_t cells() const { return index_t(offsets.size()) - 1; }
  bool hexahedron(index_t c) const { return offsets[std::size_t(c) + 1] - offsets[std::size_t(c)] == 8; }
  index_t corner(index_t c, int k) const { return indices[std::size_t(offsets[std::size_t(c)] + k)]; }
  HostCells(std::vector<index_t> offsets_, std::vector<index_t> indices_, index_t vertices)
      : offsets(std::move(offsets_)), indices(std::move(indices_)), vertex_offsets(std::size_t(vertices) + 1, 0) {
    for (const index_t v : indices) ++vertex_offsets[std::size_t(v) + 1];
    for (std::size_t v = 0; v < std::size_t(vertices); ++v) vertex_offsets[v + 1] += vertex_offsets[v];
    vertex_cells.resize(indices.size());
    std::vector<index_t> next(vertex_offsets.begin(), vertex_offsets.end() - 1);
    for (index_t c = 0; c < cells(); ++c)
      for (index_t i = offsets[std::size_t(c)]; i < offsets[std::size_t(c) + 1]; ++i)
        vertex_cells[std::size_t(next[std::size_t(indices[std::size_t(i)])]++)] = c;
  }
};

template <class Exec, class S>
HostCells host_cells(Exec& exec, const CellMesh<S>& mesh) {
  std::vector<index_t> offsets(std::size_t(mesh.offsets.size())), indices(std::size_t(mesh.indices.size()));
  exec.read(mesh.offsets.data(), mesh.offsets.size(), offsets.data());
  exec.read(mesh.indices.data(), mesh.indices.size(), indices.data());
  return HostCells(std::move(offsets), std::move(indices), mesh.vertices);
}

// A cell's frame: its corner (VTK order) at each corner (x + 2 y + 4 z) of the unit cube.
using Frame = std::array<int, 8>;

// The frame with corner l at (0, 0, 0) and the axes toward corner_frame(8, l)'s a, b and c.
inline Frame frame_from(int l) {
  const CornerFrame at_l = corner_frame(8, l);
  const int toward[3] = {at_l.a, at_l.b, at_l.c};
  Frame frame{};
  for (int i = 0; i < 8; ++i) {
    int coordinate[3];
    for (int d = 0; d < 3; ++d) {
      const int axis = axis_between(l, toward[d]);
      coordinate[axis] = hexahedron_coordinate(l, axis) ^ (i >> d & 1);
    }
    frame[std::size_t(i)] = hexahedron_corner(coordinate[0], coordinate[1], coordinate[2]);
  }
  return frame;
}

// Cell c's neighbourhood seen from its corner l: the cells sharing a vertex with it in the walk's
// order with their frames, the ring (mesh vertices by ring number) and the key. Not `complete`
// where a cell there is no hexahedron or the walk does not reach every one.
struct Neighbourhood {
  std::vector<index_t> cells, ring, key;
  std::vector<Frame> frames;
  bool complete = false;
};

inline Neighbourhood neighbourhood(const HostCells& mesh, index_t c, int l) {
  Neighbourhood out;
  std::vector<index_t> members;  // the cells sharing a vertex with c, sorted
  for (int k = 0; k < 8; ++k) {
    const index_t v = mesh.corner(c, k);
    for (index_t i = mesh.vertex_offsets[std::size_t(v)]; i < mesh.vertex_offsets[std::size_t(v) + 1]; ++i)
      members.push_back(mesh.vertex_cells[std::size_t(i)]);
  }
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  for (const index_t m : members)
    if (!mesh.hexahedron(m)) return out;
  auto member = [&](index_t m) { return std::binary_search(members.begin(), members.end(), m); };
  std::map<index_t, index_t> seen_cells;
  out.cells.push_back(c), out.frames.push_back(frame_from(l)), seen_cells[c] = 0;
  for (std::size_t at = 0; at < out.cells.size(); ++at) {
    const index_t cell = out.cells[at];
    const Frame frame = out.frames[at];
    for (int d = 0; d < 3; ++d)
      for (int side = 0; side < 2; ++side) {
        // The face's corners (those with bit d = side) and the cell beyond it.
        index_t shared[4];
        int n = 0;
        for (int i = 0; i < 8; ++i)
          if ((i >> d & 1) == side) shared[n++] = mesh.corner(cell, frame[std::size_t(i)]);
        index_t beyond = -1;
        for (index_t i = mesh.vertex_offsets[std::size_t(shared[0])];
             i < mesh.vertex_offsets[std::size_t(shared[0]) + 1]; ++i) {
          const index_t other = mesh.vertex_cells[std::size_t(i)];
          int found = 0;
          for (int k = 0; k < 8 && other != cell; ++k)
            for (const index_t v : shared) found += mesh.corner(other, k) == v;
          if (found == 4) beyond = other;
        }
        if (beyond < 0 || !member(beyond) || seen_cells.count(beyond)) continue;
        // Its frame: the face's corners where they are, the far ones a step along d.
        Frame next{};
        for (int i = 0; i < 8; ++i) {
          const int near_i = (i >> d & 1) == side ? i ^ (1 << d) : i;  // i's corner on the face
          const index_t v = mesh.corner(cell, frame[std::size_t(near_i ^ (1 << d))]);
          int k = 0;
          while (mesh.corner(beyond, k) != v) ++k;
          if ((i >> d & 1) != side) {  // on the face
            next[std::size_t(i)] = k;
            continue;
          }
          for (int axis = 0; axis < 3; ++axis) {  // across: the edge at k that leaves the face
            const int far = flipped(k, axis);
            const index_t w = mesh.corner(beyond, far);
            if (std::find(shared, shared + 4, w) == shared + 4) next[std::size_t(i)] = far;
          }
        }
        seen_cells[beyond] = index_t(out.cells.size());
        out.cells.push_back(beyond), out.frames.push_back(next);
      }
  }
  if (out.cells.size() != members.size()) return out;
  std::map<index_t, index_t> number;
  out.key.push_back(index_t(out.cells.size()));
  for (std::size_t at = 0; at < out.cells.size(); ++at)
    for (int i = 0; i < 8; ++i) {
      const index_t v = mesh.corner(out.cells[at], out.frames[at][std::size_t(i)]);
      auto [place, added] = number.emplace(v, index_t(out.ring.size()));
      if (added) out.ring.push_back(v);
      out.key.push_back(place->second);
    }
  out.complete = true;
  return out;
}

// A configuration's tables, or none (`evaluable` false).
struct Configuration {
  bool evaluable = false;
  index_t ring = 0;
  std::uint8_t child_kinds[8] = {};
  index_t child_entries[8] = {};
  std::vector<double> rows[8];  // depth-major: (irregular_depth + 1) x entries x ring
};

// A (ring' x ring) or G_r (entries x ring'): `matrix`'s rows at `points` (-1: a zero row) with
// its columns renumbered by `column_of` (-1: outside, which fails the configuration).
inline bool dense_rows(const linalg::Csr<double>& matrix, const std::vector<index_t>& points,
                       const std::vector<index_t>& column_of, index_t columns, std::vector<double>& out) {
  out.assign(points.size() * std::size_t(columns), 0.0);
  for (std::size_t r = 0; r < points.size(); ++r) {
    if (points[r] < 0) continue;
    for (index_t e = matrix.offsets[points[r]]; e < matrix.offsets[points[r] + 1]; ++e) {
      const index_t column = column_of[std::size_t(matrix.indices[e])];
      if (column < 0) return false;
      out[r * std::size_t(columns) + std::size_t(column)] += matrix.values[e];
    }
  }
  return true;
}

// The tables of the configuration of `around` (cell 0 of the walk, seen from its corner l):
// its neighbourhood cut out and refined twice by spmesh's rules.
inline Configuration configuration(const HostCells& mesh, const Neighbourhood& around, int l) {
  Configuration out;
  const index_t ring = index_t(around.ring.size());
  std::vector<index_t> ring_number(mesh.vertex_offsets.size() - 1, -1);
  for (index_t i = 0; i < ring; ++i) ring_number[std::size_t(around.ring[std::size_t(i)])] = i;
  const index_t cells = index_t(around.cells.size());
  CellMesh<> local{ring, linalg::Array<index_t>(cells + 1), linalg::Array<index_t>(8 * cells)};
  for (index_t c = 0; c < cells; ++c) {
    local.offsets[c] = 8 * c;
    for (int k = 0; k < 8; ++k)
      local.indices[8 * c + k] = ring_number[std::size_t(mesh.corner(around.cells[std::size_t(c)], k))];
  }
  local.offsets[cells] = 8 * cells;
  linalg::cpu::Executor cpu;
  const auto plan = build(cpu, std::move(local), 2);
  // The child at V is level 1's cell l (cell 0's child at its corner l), seen from its corner 0.
  const auto& level1 = plan.parents[1].cells;
  const HostCells cells1 = host_cells(cpu, level1);
  const Neighbourhood child = neighbourhood(cells1, l, 0);
  if (!child.complete || child.key != around.key) return out;
  std::vector<index_t> identity(static_cast<std::size_t>(ring));
  for (index_t i = 0; i < ring; ++i) identity[std::size_t(i)] = i;
  std::vector<double> A;
  if (!dense_rows(level_matrix(cpu, plan.parents[0]), child.ring, identity, ring, A)) return out;
  // l: A's left eigenvector of eigenvalue 1 (A's rows sum to 1), l^T 1 = 1: the limit at V's
  // weights, by power iteration (the other eigenvalues are below 1 in size).
  std::vector<double> limit(static_cast<std::size_t>(ring), 1.0 / double(ring)), next(limit.size());
  for (int iteration = 0;; ++iteration) {
    std::fill(next.begin(), next.end(), 0.0);
    for (std::size_t j = 0; j < std::size_t(ring); ++j)
      for (std::size_t i = 0; i < std::size_t(ring); ++i) next[i] += limit[j] * A[j * std::size_t(ring) + i];
    double change = 0;
    for (std::size_t i = 0; i < std::size_t(ring); ++i) change = std::max(change, std::abs(next[i] - limit[i]));
    limit.swap(next);
    if (change <= 1e-17) break;
    if (iteration == 5000) return out;  // no convergence: not evaluated
  }
  // A's rows as their non-zero entries (a stencil each: D_k A costs entries x ring x stencil).
  std::vector<std::vector<std::pair<std::size_t, double>>> A_rows(static_cast<std::size_t>(ring));
  for (std::size_t j = 0; j < A_rows.size(); ++j)
    for (std::size_t i = 0; i < A_rows.size(); ++i)
      if (A[j * A_rows.size() + i] != 0) A_rows[j].emplace_back(i, A[j * A_rows.size() + i]);
  // The nets of the child at V's children (level 2's cells 8 l + r), as rows over its ring.
  std::vector<index_t> child_number(static_cast<std::size_t>(level1.vertices), -1);
  for (index_t i = 0; i < ring; ++i) child_number[std::size_t(child.ring[std::size_t(i)])] = i;
  const auto S2 = level_matrix(cpu, plan.parents[1]);
  const auto nets = walked_nets(cpu, plan.refined, boundary_operators(cpu, plan.refined));
  for (int r = 1; r < 8; ++r) {
    const index_t cell = 8 * index_t(l) + r;
    const std::uint8_t kind = nets.kinds[cell];
    if (kind == no_net) return out;
    const std::vector<index_t> net(nets.points.begin() + nets.offsets[cell],
                                   nets.points.begin() + nets.offsets[cell + 1]);
    std::vector<double> G;
    if (!dense_rows(S2, net, child_number, ring, G)) return out;
    // D_k = G A^k - (G 1) l^T for k = 0 .. irregular_depth, each from the one before with the
    // limit's direction taken out again (rounding puts it back), then l^T.
    const std::size_t entries = net.size(), size = std::size_t(ring), block = (entries + 1) * size;
    auto& rows = out.rows[r];
    rows.assign(block * (irregular_depth + 1), 0.0);
    for (std::size_t e = 0; e < entries; ++e) {
      double sum = 0;
      for (std::size_t i = 0; i < size; ++i) sum += G[e * size + i];
      for (std::size_t i = 0; i < size; ++i) rows[e * size + i] = G[e * size + i] - sum * limit[i];
    }
    for (int k = 0; k <= irregular_depth; ++k) {
      double* now = rows.data() + block * std::size_t(k);
      std::copy(limit.begin(), limit.end(), now + entries * size);
      if (k == 0) continue;
      const double* before = now - block;
      for (std::size_t e = 0; e < entries; ++e) {
        double* row = now + e * size;
        for (std::size_t j = 0; j < size; ++j)
          for (const auto& [i, weight] : A_rows[j]) row[i] += before[e * size + j] * weight;
        double sum = 0;
        for (std::size_t i = 0; i < size; ++i) sum += row[i];
        for (std::size_t i = 0; i < size; ++i) row[i] -= sum * limit[i];
      }
    }
    out.child_kinds[r] = kind, out.child_entries[r] = index_t(entries);
  }
  out.ring = ring, out.evaluable = true;
  return out;
}

// Vertex v's edges, as the other end and how many of v's cells hold the edge, where v's cells are
// `cells` hexahedra (else none).
inline std::map<index_t, int> hexahedral_star(const HostCells& mesh, index_t v, index_t cells) {
  const index_t begin = mesh.vertex_offsets[std::size_t(v)], end = mesh.vertex_offsets[std::size_t(v) + 1];
  std::map<index_t, int> edges;
  if (end - begin != cells) return edges;
  for (index_t i = begin; i < end; ++i) {
    const index_t c = mesh.vertex_cells[std::size_t(i)];
    if (!mesh.hexahedron(c)) return {};
    int k = 0;
    while (mesh.corner(c, k) != v) ++k;
    for (int axis = 0; axis < 3; ++axis) ++edges[mesh.corner(c, flipped(k, axis))];
  }
  return edges;
}

// Whether vertex v has the grid's star: 8 hexahedra round it and 6 edges, each in 4 of them.
inline bool grid_star(const HostCells& mesh, index_t v) {
  const auto edges = hexahedral_star(mesh, v, 8);
  return edges.size() == 6 && std::all_of(edges.begin(), edges.end(), [](const auto& e) { return e.second == 4; });
}

// Whether vertex v has the boundary grid's star (a face point on a flat boundary): 4 hexahedra
// round it and 5 edges, 4 of them on the boundary in 2 of those cells, 1 inward in all 4.
inline bool boundary_grid_star(const HostCells& mesh, index_t v) {
  const auto edges = hexahedral_star(mesh, v, 4);
  const auto in = [&](int cells) {
    return std::count_if(edges.begin(), edges.end(), [&](const auto& e) { return e.second == cells; });
  };
  return edges.size() == 5 && in(2) == 4 && in(4) == 1;
}

}  // namespace detail

// Adds the irregular cells to `nets` (walked_nets of `mesh`): each hexahedron without a net is
// tried from each corner whose star is not the grid's while its corners off its edges at that
// corner have the grid's star or the boundary grid's (a refined level's face and cell points,
// inside or on a flat boundary: so a box's smooth corners and the boundary ends of extraordinary
// edges are tried too). The configurations are
// made in order of the cells they would serve, while their tables fit tuning::irregular_table_bytes
// (cells of configurations past it stay without a net); a cell takes the first corner whose
// configuration is evaluable.
template <class Exec, class S>
void add_irregular_cells(Exec& exec, const CellMesh<S>& mesh, CellNets<S>& nets) {
  namespace cc = schemes::catmull_clark;
  const index_t C = nets.kinds.size();
  std::vector<std::uint8_t> kinds(static_cast<std::size_t>(C));
  exec.read(nets.kinds.data(), C, kinds.data());
  if (mesh.has_polyhedra() || std::count(kinds.begin(), kinds.end(), no_net) == 0) return;
  const detail::HostCells host = detail::host_cells(exec, mesh);
  // Every candidate (cell, corner) by key, and the first cell and corner of each key.
  struct Candidate {
    index_t cell;
    int corner;
    std::vector<index_t> ring;
  };
  std::map<std::vector<index_t>, std::vector<Candidate>> by_key;
  for (index_t c = 0; c < C; ++c) {
    if (kinds[std::size_t(c)] != no_net || !host.hexahedron(c)) continue;
    for (int l = 0; l < 8; ++l) {
      if (detail::grid_star(host, host.corner(c, l))) continue;
      bool others_grid = true;  // the corners two or three steps from l
      for (int k = 0; k < 8; ++k)
        if (k != l && detail::axis_between(k, l) < 0)
          others_grid &= detail::grid_star(host, host.corner(c, k)) || detail::boundary_grid_star(host, host.corner(c, k));
      if (!others_grid) continue;
      auto around = detail::neighbourhood(host, c, l);
      if (around.complete) by_key[std::move(around.key)].push_back({c, l, std::move(around.ring)});
    }
  }
  std::vector<const std::pair<const std::vector<index_t>, std::vector<Candidate>>*> order;
  for (const auto& entry : by_key) order.push_back(&entry);
  std::stable_sort(order.begin(), order.end(),
                   [](const auto* a, const auto* b) { return a->second.size() > b->second.size(); });
  std::vector<detail::Configuration> configurations;
  std::vector<index_t> configuration(static_cast<std::size_t>(C), -1);
  std::vector<std::vector<index_t>> rings(static_cast<std::size_t>(C));
  std::int64_t bytes = 0;
  for (const auto* entry : order) {
    const Candidate& first = entry->second.front();
    const std::int64_t ring = std::int64_t(first.ring.size());
    const std::int64_t at_most = 7 * (tricubic_net_points + 1) * ring * (irregular_depth + 1) * 8;
    if (bytes + at_most > tuning::irregular_table_bytes) continue;
    auto made = detail::configuration(host, detail::neighbourhood(host, first.cell, first.corner), first.corner);
    if (!made.evaluable) continue;
    for (int r = 1; r < 8; ++r) bytes += std::int64_t(made.rows[r].size()) * 8;
    const index_t q = index_t(configurations.size());
    configurations.push_back(std::move(made));
    for (const Candidate& candidate : entry->second) {
      const std::size_t c = std::size_t(candidate.cell);
      if (configuration[c] >= 0) continue;
      configuration[c] = q, kinds[c] = irregular_net(candidate.corner);
      rings[c] = candidate.ring;
    }
  }
  if (configurations.empty()) return;
  // The nets again with the irregular cells' rings, and the tables.
  std::vector<index_t> offsets(std::size_t(C) + 1), points(std::size_t(nets.points.size()));
  exec.read(nets.offsets.data(), C + 1, offsets.data());
  exec.read(nets.points.data(), nets.points.size(), points.data());
  std::vector<index_t> new_offsets(std::size_t(C) + 1, 0), new_points;
  for (index_t c = 0; c < C; ++c) {
    const auto& ring = rings[std::size_t(c)];
    if (!ring.empty()) new_points.insert(new_points.end(), ring.begin(), ring.end());
    else
      new_points.insert(new_points.end(), points.begin() + offsets[std::size_t(c)],
                        points.begin() + offsets[std::size_t(c) + 1]);
    new_offsets[std::size_t(c) + 1] = checked_index(std::int64_t(new_points.size()), "the cells' limit nets");
  }
  const std::size_t Q = configurations.size();
  std::vector<index_t> ring_sizes(Q), child_entries(8 * Q, 0);
  std::vector<std::uint8_t> child_kinds(8 * Q, no_net);
  std::vector<std::int64_t> child_rows(8 * Q, 0);
  std::vector<double> rows;
  rows.reserve(std::size_t(bytes / 8));
  std::vector<index_t> present(cc::max_stam_valence + 1, 0);
  for (index_t c = 0; c < C; ++c)
    if (is_layered_net(kinds[std::size_t(c)]))
      present[std::size_t(layered_valence(offsets[std::size_t(c) + 1] - offsets[std::size_t(c)]))] = 1;
  for (std::size_t q = 0; q < Q; ++q) {
    ring_sizes[q] = configurations[q].ring;
    for (int r = 1; r < 8; ++r) {
      child_kinds[8 * q + std::size_t(r)] = configurations[q].child_kinds[r];
      child_entries[8 * q + std::size_t(r)] = configurations[q].child_entries[r];
      child_rows[8 * q + std::size_t(r)] = std::int64_t(rows.size());
      rows.insert(rows.end(), configurations[q].rows[r].begin(), configurations[q].rows[r].end());
      std::vector<double>().swap(configurations[q].rows[r]);  // one copy at a time
      if (is_layered_net(configurations[q].child_kinds[r]))
        present[std::size_t(layered_valence(configurations[q].child_entries[r]))] = 1;
    }
  }
  auto up = [&exec](const auto& host_values) {
    using V = typename std::decay_t<decltype(host_values)>::value_type;
    linalg::Array<V, S> out(index_t(host_values.size()));
    if (!host_values.empty()) exec.write(out.data(), host_values.data(), index_t(host_values.size()));
    return out;
  };
  nets.offsets = up(new_offsets), nets.points = up(new_points), nets.kinds = up(kinds);
  nets.cells = index_t(std::count_if(kinds.begin(), kinds.end(), [](std::uint8_t k) { return k != no_net; }));
  std::vector<index_t> slot(std::size_t(C), -1), irregular;
  for (index_t c = 0; c < C; ++c)
    if (configuration[std::size_t(c)] >= 0) slot[std::size_t(c)] = index_t(irregular.size()), irregular.push_back(c);
  const index_t child_points = *std::max_element(child_entries.begin(), child_entries.end()) + 1;
  nets.irregular = {up(configuration), up(ring_sizes), up(child_kinds), up(child_entries), up(child_rows), up(rows),
                    up(slot), up(irregular), child_points};
  nets.stam = cc::stam_tables(exec, up(present));
  const bool rims = std::any_of(child_kinds.begin(), child_kinds.end(), is_rim_net) ||
                    std::any_of(kinds.begin(), kinds.end(), is_rim_net);
  if (rims && nets.smooth_corner.size() == 0) nets.smooth_corner = schemes::catmull_clark::smooth_corner_tables(exec);
}

// Every cell's net (cell_nets.hpp's walk, then the irregular cells where there is no sharpness).
template <class Exec, class S = typename Exec::space>
CellNets<S> cell_nets(Exec& exec, const CellMesh<S>& mesh, const BoundaryOperators<S>& ops,
                      const SolidSharpness<S>* sharpness = nullptr) {
  auto nets = walked_nets(exec, mesh, ops, sharpness);
  if (!sharpness) add_irregular_cells(exec, mesh, nets);
  return nets;
}

}  // namespace spmesh::solids
