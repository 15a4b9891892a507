// Samples of a surface's parameter domain, one a line: `face u v` (face 0-based, u and v in the
// face's own parameterization: [0, 1] for a quad), as `spmesh limit --at` reads them.
#pragma once

#include "linalg/base.hpp"

#include <string>
#include <vector>

namespace spmesh::meshops {

struct Samples {
  std::vector<index_t> faces;
  std::vector<double> u, v;
  std::vector<index_t> lines;  // each sample's line in the file (1-based), for messages
};

// The samples of `text` (the file `name`), of a mesh of `faces` faces. Blank lines and `#`
// comments are skipped. InputError naming name:line for a line that is not three numbers, a
// face out of range, and a u or v that is negative or not finite (whether (u, v) is in the face
// is the evaluation's to say: a polygon's parameters reach past 1).
Samples parse_samples(std::string_view text, const std::string& name, index_t faces);
Samples read_samples(const std::string& path, index_t faces);

}  // namespace spmesh::meshops
