#include "solids/vtk_cells.hpp"

#include "solids/cells.hpp"
#include "solids/polyhedra.hpp"

#include <algorithm>
#include <set>
#include <utility>

namespace spmesh::solids::vtk {

namespace {

// VTK's wedge turned into cells.hpp's prism (VTK's base triangle faces away from the top), and a
// voxel's corners in a hexahedron's order.
constexpr int wedge[6] = {0, 2, 1, 3, 5, 4};
constexpr int voxel[8] = {0, 1, 3, 2, 4, 5, 7, 6};

// A VTK face stream's faces as vertex-id lists; `fail` for a stream that is not its face count's
// faces or names a vertex out of range.
std::vector<std::vector<std::int64_t>> stream_faces(std::span<const std::int64_t> stream, index_t vertices,
                                                    const std::string& named,
                                                    const std::function<void(const std::string&)>& fail) {
  std::vector<std::vector<std::int64_t>> faces;
  std::size_t at = 1;
  const std::int64_t count = stream.empty() ? 0 : stream[0];
  for (std::int64_t f = 0; f < count; ++f) {
    if (at >= stream.size() || stream[at] < 3 || std::size_t(stream[at]) > stream.size() - at - 1) {
      fail(named + ": its face stream ends inside face " + std::to_string(f));
      return {};
    }
    faces.emplace_back(stream.begin() + std::ptrdiff_t(at + 1), stream.begin() + std::ptrdiff_t(at + 1 + std::size_t(stream[at])));
    at += std::size_t(stream[at]) + 1;
  }
  if (count <= 0 || at != stream.size()) fail(named + ": its face stream does not hold its face count's faces");
  for (const auto& face : faces)
    for (std::int64_t v : face)
      if (v < 0 || v >= vertices)
        fail(named + ": vertex " + std::to_string(v) + " out of range (0 to " + std::to_string(vertices - 1) +
             "; ids count from 0)");
  return faces;
}

// The corners of a polyhedron whose faces make a tetrahedron, prism or hexahedron, in that kind's
// order: the first face of the base's shape as the bottom, each bottom corner's neighbour off the
// bottom above it; mirrored if the corner frame at corner 0 turns left in `positions`. Empty
// where the faces make no kind.
std::vector<std::int64_t> kind_corners(const std::vector<std::vector<std::int64_t>>& faces,
                                       const linalg::Dense<double>& positions) {
  std::set<std::int64_t> vertices;
  std::set<std::pair<std::int64_t, std::int64_t>> edges;
  int triangles = 0, quads = 0;
  for (const auto& face : faces) {
    triangles += face.size() == 3, quads += face.size() == 4;
    for (std::size_t k = 0; k < face.size(); ++k) {
      const std::int64_t a = face[k], b = face[(k + 1) % face.size()];
      vertices.insert(a), edges.insert({std::min(a, b), std::max(a, b)});
    }
  }
  const std::size_t n = vertices.size(), F = faces.size();
  const int corners = n == 4 && triangles == 4 && F == 4                 ? 4
                      : n == 6 && triangles == 2 && quads == 3 && F == 5 ? 6
                      : n == 8 && quads == 6 && F == 6                   ? 8
                                                                         : 0;
  if (corners == 0) return {};
  // The bottom: a face of the base's shape (a triangle for a prism), then each of its corners'
  // neighbour off it.
  const std::size_t base = std::size_t(std::find_if(faces.begin(), faces.end(), [&](const auto& face) {
                                         return corners != 6 || face.size() == 3;
                                       }) - faces.begin());
  std::vector<std::int64_t> out(faces[base]);
  const std::size_t bottom = out.size();
  if (corners == 4) {
    for (std::int64_t v : vertices)
      if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  } else {
    for (std::size_t k = 0; k < bottom; ++k) {
      std::int64_t above = -1;
      int found = 0;
      for (std::int64_t v : vertices)
        if (std::find(out.begin(), out.begin() + std::ptrdiff_t(bottom), v) == out.begin() + std::ptrdiff_t(bottom) &&
            edges.count({std::min(out[k], v), std::max(out[k], v)}))
          above = v, ++found;
      if (found != 1) return {};
      out.push_back(above);
    }
  }
  // Every face of the kind must be one of the given faces (as vertex sets).
  std::set<std::vector<std::int64_t>> given;
  for (auto face : faces) std::sort(face.begin(), face.end()), given.insert(face);
  for (int k = 0; k < cell_faces(corners); ++k) {
    std::vector<std::int64_t> face;
    for (int m = 0; m < max_face_corners && face_corner(corners, k, m) >= 0; ++m)
      face.push_back(out[std::size_t(face_corner(corners, k, m))]);
    std::sort(face.begin(), face.end());
    if (!given.count(face)) return {};
  }
  // Right-handed at corner 0, else mirrored (the bottom cycle reversed).
  const CornerFrame frame = corner_frame(corners, 0);
  auto edge = [&](int to, int x) { return positions(index_t(out[std::size_t(to)]), x) - positions(index_t(out[0]), x); };
  double det = 0;
  for (int x = 0; x < 3; ++x)
    det += edge(frame.a, x) * (edge(frame.b, (x + 1) % 3) * edge(frame.c, (x + 2) % 3) -
                               edge(frame.b, (x + 2) % 3) * edge(frame.c, (x + 1) % 3));
  if (det < 0) {
    std::reverse(out.begin() + 1, out.begin() + std::ptrdiff_t(bottom));
    if (corners != 4) std::reverse(out.begin() + std::ptrdiff_t(bottom) + 1, out.end());
  }
  return out;
}

}  // namespace

CellMesh<> CellLists::mesh(index_t vertices) const {
  CellMesh<> out{vertices, linalg::Array<index_t>(offsets), linalg::Array<index_t>(indices)};
  if (!face_offsets.empty())
    out.face_offsets = linalg::Array<index_t>(face_offsets), out.face_streams = linalg::Array<index_t>(face_streams);
  return out;
}

bool add_cell(CellLists& out, std::int64_t type, std::span<const std::int64_t> ids, std::span<const std::int64_t> faces,
              const linalg::Dense<double>& positions, const std::string& item,
              const std::function<void(const std::string&)>& fail) {
  if (type >= 1 && type <= 9) return false;  // vertices, lines, polygons: a boundary's parts
  if (type == 14) fail(item + " is a pyramid (VTK type 14): a pyramid does not subdivide into hexahedra");
  std::vector<std::int64_t> corners;
  std::vector<index_t> stream;  // a polyhedron's faces, cell-local
  if (type == 42) {
    const std::string named = item + " (a VTK polyhedron, type 42)";
    const auto face_list = stream_faces(faces, positions.rows, named, fail);
    corners = kind_corners(face_list, positions);
    if (corners.empty()) {
      std::string problem;
      auto polyhedron = polyhedron_from_faces(face_list, ids, positions, problem);
      if (!problem.empty()) fail(named + ": " + problem + " (ids count from 0)");
      corners.assign(polyhedron.corners.begin(), polyhedron.corners.end());
      stream = std::move(polyhedron.stream);
    }
  } else {
    const int n = type == 10 ? 4 : type == 13 ? 6 : type == 11 || type == 12 ? 8 : 0;
    if (n == 0)
      fail(item + " has VTK type " + std::to_string(type) +
           ": spmesh reads tetrahedra (10), voxels (11), hexahedra (12), wedges (13) and polyhedra (42)");
    if (std::int64_t(ids.size()) != n)
      fail(item + " (VTK type " + std::to_string(type) + ") has " + std::to_string(ids.size()) + " vertices, not " +
           std::to_string(n));
    for (int k = 0; k < n; ++k) corners.push_back(ids[std::size_t(type == 13 ? wedge[k] : type == 11 ? voxel[k] : k)]);
  }
  for (std::int64_t id : corners) {
    if (id < 0 || id >= positions.rows)
      fail(item + ": vertex " + std::to_string(id) + " out of range (0 to " + std::to_string(positions.rows - 1) +
           "; ids count from 0)");
    out.indices.push_back(index_t(id));
  }
  out.offsets.push_back(index_t(out.indices.size()));
  if (!stream.empty() && out.face_offsets.empty()) out.face_offsets.assign(out.offsets.size() - 1, 0);
  if (!out.face_offsets.empty()) {
    out.face_streams.insert(out.face_streams.end(), stream.begin(), stream.end());
    out.face_offsets.push_back(index_t(out.face_streams.size()));
  }
  return true;
}

}  // namespace spmesh::solids::vtk
