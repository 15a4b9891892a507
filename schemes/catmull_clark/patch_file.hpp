// An adaptive plan's patches as a text file (docs/adaptive.md "Patch file"): every level's points
// (R_adaptive P0, adaptive.hpp), where each level's start, and the patch list
// (adaptive_patches.hpp), one patch a line. `spmesh subdivide IN --adaptive L -o OUT.patches`
// writes it.
#pragma once

#include "linalg/formats.hpp"
#include "schemes/catmull_clark/adaptive_patches.hpp"

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace spmesh::schemes::catmull_clark {

// A patch kind's name in the file: patch, boundary_patch, stam, smooth_corner, boundary_fan,
// approximated (FaceHolder::none).
std::string_view patch_kind_name(FaceHolder kind);

// Writes the file to `out`: `source` on a comment line, the points (rows of R_adaptive, level
// by level from level_rows[l], l = 0 .. levels - 1), then the patches.
template <class T>
void write_patch_file(std::ostream& out, const std::string& source, const linalg::Dense<T>& points,
                      const std::vector<index_t>& level_rows, const AdaptivePatches<linalg::Host>& patches);

}  // namespace spmesh::schemes::catmull_clark
