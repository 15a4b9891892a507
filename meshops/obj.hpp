// Wavefront OBJ reading: `v`, `f` (v, v/vt, v//vn, v/vt/vn; negative = relative indices),
// comments, and OpenSubdiv `t` tags; the specification's other statements (vt, vn, g, o, s,
// usemtl, ...) are ignored and any unknown one is an error. A UTF-8 byte order mark is skipped;
// lines end in "\n", "\r\n" or a lone "\r".
#pragma once

#include "meshops/mesh.hpp"

#include <string>

namespace spmesh::meshops {

// Throws spmesh::InputError naming file:line and the problem on malformed input: an unknown
// statement, bad number, missing coordinate, index 0 or out of range, a face with fewer than 3
// vertices, an empty file (no vertex or no face) or an unreadable path.
PolyMesh read_obj(const std::string& path);

// The same parser over text in memory; `name` stands in for the file name in messages.
PolyMesh parse_obj(const std::string& text, const std::string& name);

}  // namespace spmesh::meshops
