// Samples of a surface's parameter domain, one a line: `face u v` (face 0-based, u and v in the
// face's own parameterization: [0, 1] for a quad), or of a solid's: `cell u v w` (cell 0-based,
// (u, v, w) in [0, 1]^3), as `spmesh limit --at` reads them.
#pragma once

#include "linalg/base.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spmesh::meshops {

struct Samples {
  std::vector<index_t> faces;   // or a solid's cells
  std::vector<double> u, v, w;  // w: a solid's samples only
  std::vector<index_t> lines;  // each sample's line in the file (1-based), for messages
};

// The samples of `text` (the file `name`), of a mesh of `faces` faces, or with `solid` of a
// solid of that many cells. Blank lines and `#` comments are skipped. InputError naming
// name:line for a line that is not three numbers (four for a solid), a face or cell out of range,
// and a parameter that is negative or not finite, or for a solid past 1 (whether a surface's
// (u, v) is in the face is the evaluation's to say: a polygon's parameters reach past 1).
Samples parse_samples(std::string_view text, const std::string& name, index_t faces, bool solid = false);
Samples read_samples(const std::string& path, index_t faces, bool solid = false);

// A selection of faces (`spmesh subdivide --select`): face ids (0-based), any number a line,
// blank lines and `#` comments skipped; one mark per face of a mesh of `faces` faces. InputError
// naming name:line for a token that is not a face id or a face out of range, and for a selection
// of no face.
std::vector<std::uint8_t> parse_face_selection(std::string_view text, const std::string& name, index_t faces);
std::vector<std::uint8_t> read_face_selection(const std::string& path, index_t faces);

}  // namespace spmesh::meshops
