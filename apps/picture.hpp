// A picture of a mesh a person can look at without a viewer: an SVG of its faces, flat-shaded
// and drawn back to front (painter's algorithm) in an oblique orthographic view.
#pragma once

#include "linalg/formats.hpp"
#include "linalg/mesh_matrix.hpp"

#include <ostream>
#include <string>

namespace spmesh::apps {

// Writes the SVG to `out`; `title` goes in the caption.
template <class T>
void write_picture(std::ostream& out, const linalg::Dense<T>& positions,
                   const linalg::MeshMatrix<>& M, const std::string& title);

}  // namespace spmesh::apps
