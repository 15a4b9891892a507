#include "meshops/reorder.hpp"

#include <algorithm>
#include <numeric>
#include <string>

namespace spmesh::meshops {

namespace {

// The vertex graph as sorted, duplicate-free adjacency lists.
std::vector<std::vector<index_t>> vertex_graph(const linalg::MeshMatrix<>& M) {
  std::vector<std::vector<index_t>> adjacent(M.vertices);
  for (index_t f = 0; f < M.faces; ++f) {
    const index_t lo = M.offsets[f], c = M.offsets[f + 1] - lo;
    for (index_t a = 0; a < c; ++a) {
      const index_t i = M.indices[lo + a], j = M.indices[lo + (a + 1) % c];
      if (i == j) continue;
      adjacent[i].push_back(j), adjacent[j].push_back(i);
    }
  }
  for (auto& a : adjacent) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  return adjacent;
}

// Breadth-first order from `start` over the vertices not yet `seen` (marked as visited);
// neighbours by increasing degree, then number. `last` gets the last level's vertices.
std::vector<index_t> breadth_first(const std::vector<std::vector<index_t>>& adjacent,
                                   index_t start, std::vector<char>& seen, index_t& depth,
                                   std::vector<index_t>& last) {
  std::vector<index_t> order{start};
  seen[start] = 1;
  depth = 0;
  std::size_t level_begin = 0;
  while (true) {
    const std::size_t level_end = order.size();
    for (std::size_t p = level_begin; p < level_end; ++p) {
      std::vector<index_t> next;
      for (const index_t j : adjacent[order[p]])
        if (!seen[j]) seen[j] = 1, next.push_back(j);
      std::stable_sort(next.begin(), next.end(), [&](index_t x, index_t y) {
        return adjacent[x].size() < adjacent[y].size();
      });
      order.insert(order.end(), next.begin(), next.end());
    }
    if (order.size() == level_end) break;
    ++depth, level_begin = level_end;
  }
  last.assign(order.begin() + static_cast<std::ptrdiff_t>(level_begin), order.end());
  return order;
}

}  // namespace

std::vector<index_t> rcm_order(const linalg::MeshMatrix<>& M) {
  const auto adjacent = vertex_graph(M);
  const index_t V = M.vertices;
  std::vector<char> seen(V, 0);
  std::vector<index_t> order, unused, last;
  for (index_t root = 0; root < V; ++root) {
    if (seen[root]) continue;
    if (adjacent[root].empty()) {
      seen[root] = 1, unused.push_back(root);
      continue;
    }
    // Pseudo-peripheral start (George and Liu): move to a lowest-degree vertex of the last
    // level while that deepens the level structure.
    index_t start = root, depth = 0;
    std::vector<char> trial(seen);
    breadth_first(adjacent, start, trial, depth, last);
    while (true) {
      const index_t candidate = *std::min_element(last.begin(), last.end(), [&](index_t x, index_t y) {
        return adjacent[x].size() < adjacent[y].size();
      });
      std::vector<index_t> candidate_last;
      index_t candidate_depth = 0;
      trial = seen;
      breadth_first(adjacent, candidate, trial, candidate_depth, candidate_last);
      if (candidate_depth <= depth) break;
      start = candidate, depth = candidate_depth, last = std::move(candidate_last);
    }
    const auto component = breadth_first(adjacent, start, seen, depth, last);
    order.insert(order.end(), component.begin(), component.end());  // Cuthill-McKee
  }
  std::reverse(order.begin(), order.end());  // reverse Cuthill-McKee
  order.insert(order.end(), unused.begin(), unused.end());
  return order;
}

PolyMesh reorder(const PolyMesh& mesh, const std::vector<index_t>& order) {
  const index_t V = mesh.vertex_count();
  std::vector<index_t> renamed(V, -1);
  if (static_cast<index_t>(order.size()) != V)
    throw InputError(mesh.source + ": a vertex order of " + std::to_string(order.size()) +
                     " entries for " + std::to_string(V) + " vertices");
  for (index_t i = 0; i < V; ++i) {
    if (order[i] < 0 || order[i] >= V || renamed[order[i]] >= 0)
      throw InputError(mesh.source + ": the vertex order is not a permutation (entry " +
                       std::to_string(i) + " is " + std::to_string(order[i]) + ")");
    renamed[order[i]] = i;
  }
  const auto& M = mesh.M;
  std::vector<index_t> lowest(M.faces), faces(M.faces);
  for (index_t f = 0; f < M.faces; ++f) {
    lowest[f] = V;
    for (index_t p = M.offsets[f]; p < M.offsets[f + 1]; ++p)
      lowest[f] = std::min(lowest[f], renamed[M.indices[p]]);
  }
  std::iota(faces.begin(), faces.end(), 0);
  std::stable_sort(faces.begin(), faces.end(),
                   [&](index_t a, index_t b) { return lowest[a] < lowest[b]; });

  PolyMesh out{linalg::Dense<double>(V, mesh.positions.cols), {}, mesh.tags, mesh.source};
  for (index_t i = 0; i < V; ++i)
    for (index_t c = 0; c < mesh.positions.cols; ++c) out.positions(i, c) = mesh.positions(order[i], c);
  linalg::HostArray<index_t> offsets(M.faces + 1), indices(M.nnz());
  offsets[0] = 0;
  for (index_t k = 0; k < M.faces; ++k) {
    const index_t f = faces[k];
    index_t o = offsets[k];
    for (index_t p = M.offsets[f]; p < M.offsets[f + 1]; ++p) indices[o++] = renamed[M.indices[p]];
    offsets[k + 1] = o;
  }
  out.M = linalg::MeshMatrix<>(V, std::move(offsets), std::move(indices));
  std::vector<index_t> face_renamed(std::size_t(M.faces));  // a hole tag names faces
  for (index_t k = 0; k < M.faces; ++k) face_renamed[std::size_t(faces[k])] = k;
  for (auto& tag : out.tags)
    if (tag.name == "crease" || tag.name == "corner") {
      for (auto& v : tag.ints)
        if (v >= 0 && v < V) v = renamed[v];
    } else if (tag.name == "hole") {
      if (!mesh.input_faces.empty()) throw InputError(mesh.source + ": reorder: hole tags on a triangulated mesh");
      for (auto& f : tag.ints)
        if (f >= 0 && f < M.faces) f = face_renamed[std::size_t(f)];
    }
  return out;
}

index_t bandwidth(const linalg::MeshMatrix<>& M) {
  index_t width = 0;
  for (index_t f = 0; f < M.faces; ++f) {
    const index_t lo = M.offsets[f], c = M.offsets[f + 1] - lo;
    for (index_t a = 0; a < c; ++a) {
      const index_t i = M.indices[lo + a], j = M.indices[lo + (a + 1) % c];
      width = std::max(width, i > j ? i - j : j - i);
    }
  }
  return width;
}

}  // namespace spmesh::meshops
