#include "solids/polyhedra.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <utility>

namespace spmesh::solids {

namespace {

// The faces of a stream as corner lists, or "" replaced by why they cannot be read.
std::vector<std::vector<index_t>> stream_faces(const CellShape& shape, std::string& problem) {
  std::vector<std::vector<index_t>> faces;
  for (index_t at = 0; at < shape.stream_size;) {
    const index_t n = shape.stream[at];
    if (n < 3 || n > shape.stream_size - at - 1) {
      problem = "its face stream ends inside face " + std::to_string(faces.size());
      return {};
    }
    faces.emplace_back(shape.stream + at + 1, shape.stream + at + 1 + n);
    at += n + 1;
  }
  return faces;
}

// Union-find's root of i.
index_t root(std::vector<index_t>& parent, index_t i) {
  while (parent[std::size_t(i)] != i) i = parent[std::size_t(i)] = parent[std::size_t(parent[std::size_t(i)])];
  return i;
}

}  // namespace

std::string polyhedron_problem(const CellShape& shape, std::span<const index_t> vertices) {
  std::string problem;
  const auto faces = stream_faces(shape, problem);
  if (!problem.empty()) return problem;
  const index_t corners = shape.corners;
  auto vertex = [&](index_t corner) { return "vertex " + std::to_string(vertices[std::size_t(corner)]); };
  std::vector<int> faces_at(std::size_t(corners), 0);
  std::map<std::pair<index_t, index_t>, int> walked;  // (from, to) corner pairs
  for (std::size_t f = 0; f < faces.size(); ++f) {
    const auto& face = faces[f];
    for (std::size_t k = 0; k < face.size(); ++k) {
      if (face[k] < 0 || face[k] >= corners)
        return "face " + std::to_string(f) + " names corner " + std::to_string(face[k]) + " of its " +
               std::to_string(corners);
      if (std::find(face.begin(), face.begin() + std::ptrdiff_t(k), face[k]) != face.begin() + std::ptrdiff_t(k))
        return "face " + std::to_string(f) + " holds " + vertex(face[k]) + " twice";
      ++faces_at[std::size_t(face[k])];
      ++walked[{face[k], face[(k + 1) % face.size()]}];
    }
  }
  for (index_t c = 0; c < corners; ++c)
    if (faces_at[std::size_t(c)] == 0) return "its " + vertex(c) + " is in none of its faces";
  for (const auto& [side, count] : walked) {
    const auto reverse = walked.find({side.second, side.first});
    const std::string edge = "its edge from " + vertex(side.first) + " to " + vertex(side.second);
    if (count > 1) return edge + " is walked the same way by two faces (faces turned unlike, or more than two at an edge)";
    if (reverse == walked.end()) return edge + " is in one face only (its faces do not close)";
  }
  for (index_t c = 0; c < corners; ++c)
    if (faces_at[std::size_t(c)] != 3)
      return "its corner at " + vertex(c) + " joins " + std::to_string(faces_at[std::size_t(c)]) +
             " faces: a corner's child is a hexahedron only where three faces meet (a pyramid's apex joins four)";
  std::vector<index_t> parent(static_cast<std::size_t>(corners));
  std::iota(parent.begin(), parent.end(), 0);
  for (const auto& face : faces)
    for (index_t c : face) parent[std::size_t(root(parent, c))] = root(parent, face.front());
  for (index_t c = 0; c < corners; ++c)
    if (root(parent, c) != root(parent, 0)) return "its faces make more than one surface";
  const std::int64_t euler = std::int64_t(corners) - std::int64_t(walked.size() / 2) + std::int64_t(faces.size());
  if (euler != 2)
    return "its faces make a surface of Euler characteristic " + std::to_string(euler) +
           ", not a ball's (2): a cell with a hole";
  return "";
}

index_t first_polyhedron(const CellMesh<>& mesh) {
  if (!face_arrays_consistent(mesh)) return -1;
  for (index_t c = 0; c < mesh.cells(); ++c)
    if (mesh.view().shape(c).polyhedron()) return c;
  return -1;
}

bool face_arrays_consistent(const CellMesh<>& mesh) {
  if (!mesh.has_polyhedra()) return true;
  const index_t cells = mesh.cells();
  const auto& at = mesh.face_offsets;
  if (at.size() != cells + 1 || at[0] != 0 || at[cells] != mesh.face_streams.size()) return false;
  for (index_t c = 0; c < cells; ++c)
    if (at[c + 1] < at[c]) return false;
  return true;
}

int check_polyhedra(const CellMesh<>& mesh) {
  int widest = max_face_corners;
  if (!mesh.has_polyhedra()) return widest;
  const index_t cells = mesh.cells();
  if (!face_arrays_consistent(mesh))
    throw InputError("the polyhedra's face offsets (" + std::to_string(mesh.face_offsets.size()) + " for " +
                     std::to_string(cells) + " cells) do not span their face streams in order");
  for (index_t c = 0; c < cells; ++c) {
    if (mesh.face_offsets[c + 1] == mesh.face_offsets[c]) continue;
    const CellShape shape = mesh.view().shape(c);
    const std::span<const index_t> vertices(mesh.indices.data() + mesh.offsets[c], std::size_t(shape.corners));
    if (const std::string problem = polyhedron_problem(shape, vertices); !problem.empty())
      throw InputError("cell " + std::to_string(c) + " (a polyhedron): " + problem + " (ids count from 0)");
    for (int f = 0; f < shape.faces(); ++f) widest = std::max(widest, shape.face_size(f));
  }
  return widest;
}

PolyhedronFaces polyhedron_from_faces(const std::vector<std::vector<std::int64_t>>& faces,
                                      std::span<const std::int64_t> order, const linalg::Dense<double>& positions,
                                      std::string& problem) {
  PolyhedronFaces out;
  std::map<std::int64_t, index_t> corner_of;
  for (const auto& face : faces)
    for (std::int64_t id : face) corner_of.emplace(id, 0);
  const bool ordered = order.size() == corner_of.size() &&
                       std::all_of(order.begin(), order.end(), [&](std::int64_t id) { return corner_of.count(id) > 0; }) &&
                       std::set<std::int64_t>(order.begin(), order.end()).size() == order.size();
  corner_of.clear();
  if (ordered)
    for (std::int64_t id : order) corner_of.emplace(id, index_t(out.corners.size())), out.corners.push_back(index_t(id));
  std::vector<std::vector<index_t>> local;
  for (const auto& face : faces) {
    auto& cycle = local.emplace_back();
    for (std::int64_t id : face) {
      if (id < 0 || id >= positions.rows) {
        problem = "vertex " + std::to_string(id) + " out of range (0 to " + std::to_string(positions.rows - 1) + ")";
        return {};
      }
      const auto [it, added] = corner_of.emplace(id, index_t(out.corners.size()));
      if (added) out.corners.push_back(index_t(id));
      cycle.push_back(it->second);
    }
  }
  // Turned alike: from face 0 across shared edges, a neighbour walking a shared edge the same way
  // is reversed (a face is reached once; a surface that cannot be so turned is left to the check).
  std::map<std::pair<index_t, index_t>, std::vector<std::size_t>> faces_of;  // (lower, higher) corner pairs
  for (std::size_t f = 0; f < local.size(); ++f)
    for (std::size_t k = 0; k < local[f].size(); ++k) {
      const index_t a = local[f][k], b = local[f][(k + 1) % local[f].size()];
      faces_of[{std::min(a, b), std::max(a, b)}].push_back(f);
    }
  auto walks = [&](std::size_t f, index_t a, index_t b) {
    const auto& cycle = local[f];
    for (std::size_t k = 0; k < cycle.size(); ++k)
      if (cycle[k] == a && cycle[(k + 1) % cycle.size()] == b) return true;
    return false;
  };
  std::vector<char> reached(local.size(), 0);
  std::vector<std::size_t> queue;
  for (std::size_t start = 0; start < local.size(); ++start) {
    if (reached[start]) continue;
    reached[start] = 1, queue.assign(1, start);
    while (!queue.empty()) {
      const std::size_t f = queue.back();
      queue.pop_back();
      for (std::size_t k = 0; k < local[f].size(); ++k) {
        const index_t a = local[f][k], b = local[f][(k + 1) % local[f].size()];
        for (std::size_t g : faces_of[{std::min(a, b), std::max(a, b)}]) {
          if (reached[g]) continue;
          if (walks(g, a, b)) std::reverse(local[g].begin(), local[g].end());
          reached[g] = 1, queue.push_back(g);
        }
      }
    }
  }
  // Outward: the volume the faces enclose (triangle fans from each face's first corner) positive.
  double volume = 0;
  auto at = [&](index_t corner, int x) { return positions(out.corners[std::size_t(corner)], x); };
  for (const auto& cycle : local)
    for (std::size_t k = 1; k + 1 < cycle.size(); ++k) {
      const index_t p = cycle[0], q = cycle[k], r = cycle[k + 1];
      for (int x = 0; x < 3; ++x)
        volume += at(p, x) * (at(q, (x + 1) % 3) * at(r, (x + 2) % 3) - at(q, (x + 2) % 3) * at(r, (x + 1) % 3));
    }
  for (auto& cycle : local) {
    if (volume < 0) std::reverse(cycle.begin(), cycle.end());
    out.stream.push_back(index_t(cycle.size()));
    out.stream.insert(out.stream.end(), cycle.begin(), cycle.end());
  }
  const CellShape shape{index_t(out.corners.size()), out.stream.data(), index_t(out.stream.size())};
  problem = polyhedron_problem(shape, out.corners);
  if (!problem.empty()) return {};
  return out;
}

}  // namespace spmesh::solids
