// What OpenSubdiv's `t` tags of a mesh ask of a subdivision scheme: the sharpness of edges and
// vertices at level 0 (the crease matrix C of paper section 3.3), the boundary mode and the
// crease method. Shared by every scheme.
#pragma once

#include "meshops/mesh.hpp"
#include "schemes/creasing.hpp"

#include <optional>
#include <string>
#include <vector>

namespace spmesh::schemes {

// Level-0 sharpness: C as a list of sharp edges (row < column, one entry per edge) and one
// sharpness per vertex (0 = smooth, 10 = infinitely sharp).
template <class Space = linalg::Host>
struct Sharpness {
  linalg::Coo<float, Space> edges;
  linalg::Array<float, Space> vertices;
};

struct TagSettings {
  Sharpness<> sharpness;
  std::optional<Boundary> boundary;     // from `interpolateboundary`
  std::optional<CreaseMethod> crease;   // from `creasemethod`
  std::optional<TriangleRule> triangles;  // from `smoothtriangles`
  std::vector<std::string> ignored;     // tags that do not affect vertex data, with their line
  // From `hole`, where the caller keeps holes: per face of the mesh, whether it is a hole (a
  // triangulated face is one where its input face is); empty without hole tags.
  std::vector<char> holes;
};

// Reads `crease`, `corner`, `interpolateboundary`, `creasemethod` and `smoothtriangles` (`catmark`
// or `smooth`),
// and `hole` where `keep_holes` (a caller that leaves the holes' descendants out of its refined
// mesh: holes.hpp; others refuse the tag by name);
// ignores the face-varying tags (they leave vertex data alone) and rejects every other tag by
// name. Throws InputError naming file:line for a vertex out of range, a crease between vertices
// that share no edge, a negative or non-finite sharpness, or an unsupported tag. A later tag on
// the same edge or vertex replaces an earlier one.
TagSettings read_tags(const meshops::PolyMesh& mesh, bool keep_holes = false);

// Options from the tags; `boundary` and `crease`, where given (e.g. on the command line), win.
Options options_from(const TagSettings& tags, std::optional<Boundary> boundary = {},
                     std::optional<CreaseMethod> crease = {});

// Level-0 sharpness with no tag at all: every edge and vertex smooth.
Sharpness<> smooth_sharpness(index_t vertices);

}  // namespace spmesh::schemes
