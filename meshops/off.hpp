// Object File Format (OFF, ASCII) reading: an optional OFF/COFF/NOFF/CNOFF keyword, the
// "vertices faces [edges]" counts, one vertex per line, one "n i0 .. in-1" face per line.
#pragma once

#include "meshops/mesh.hpp"

#include <string>

namespace spmesh::meshops {

// Vertex lines may carry colours or normals after x y z and face lines colours after the
// indices; both are ignored. Indices are 0-based, '#' starts a comment. Throws
// spmesh::InputError naming file:line and the problem: bad counts or numbers, an index out of
// range, a face with fewer than 3 vertices, a file that ends before its counts are met or has
// anything but blank lines and comments after its last face, binary or 4D OFF, or an unreadable
// path. A UTF-8 byte order mark is skipped; lines end in "\n", "\r\n" or a lone "\r".
PolyMesh read_off(const std::string& path);

// The same parser over text in memory; `name` stands in for the file name in messages.
PolyMesh parse_off(const std::string& text, const std::string& name);

}  // namespace spmesh::meshops
