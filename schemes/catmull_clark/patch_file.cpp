#include "schemes/catmull_clark/patch_file.hpp"

#include <fmt/format.h>

#include <iterator>

namespace spmesh::schemes::catmull_clark {

std::string_view patch_kind_name(FaceHolder kind) {
  switch (kind) {
    case FaceHolder::patch: return "patch";
    case FaceHolder::boundary_patch: return "boundary_patch";
    case FaceHolder::stam: return "stam";
    case FaceHolder::smooth_corner: return "smooth_corner";
    case FaceHolder::boundary_fan: return "boundary_fan";
    case FaceHolder::none: break;
  }
  return "approximated";
}

template <class T>
void write_patch_file(std::ostream& out, const std::string& source, const linalg::Dense<T>& points,
                      const std::vector<index_t>& level_rows, const AdaptivePatches<linalg::Host>& patches) {
  std::ostreambuf_iterator<char> to(out);
  fmt::format_to(to, "# spmesh adaptive patches 1\n# {}\npoints {} {}\n", source, points.rows, points.cols);
  fmt::memory_buffer line;
  for (index_t i = 0; i < points.rows; ++i) {
    line.clear();
    for (index_t k = 0; k < points.cols; ++k) {
      if (k) line.push_back(' ');
      fmt::format_to(std::back_inserter(line), "{}", points(i, k));
    }
    line.push_back('\n');
    out.write(line.data(), std::streamsize(line.size()));
  }
  fmt::format_to(to, "levels {}\n", level_rows.size());
  for (std::size_t l = 0; l < level_rows.size(); ++l)
    fmt::format_to(to, "level {} {} {}\n", l, level_rows[l],
                   (l + 1 < level_rows.size() ? level_rows[l + 1] : points.rows) - level_rows[l]);
  fmt::format_to(to, "patches {}\n", patches.size());
  for (index_t p = 0; p < patches.size(); ++p) {
    line.clear();
    const index_t begin = patches.offsets[p], end = patches.offsets[p + 1];
    fmt::format_to(std::back_inserter(line), "{} {} {} {} {} {} {} {}", patch_kind_name(FaceHolder(patches.kind[p])),
                   patches.base_face[p], patches.u0[p], patches.v0[p], int(patches.level[p]), patches.face[p],
                   int(patches.detail[p]), end - begin);
    for (index_t j = begin; j < end; ++j) fmt::format_to(std::back_inserter(line), " {}", patches.points[j]);
    line.push_back('\n');
    out.write(line.data(), std::streamsize(line.size()));
  }
}

template void write_patch_file(std::ostream&, const std::string&, const linalg::Dense<float>&, const std::vector<index_t>&,
                               const AdaptivePatches<linalg::Host>&);
template void write_patch_file(std::ostream&, const std::string&, const linalg::Dense<double>&,
                               const std::vector<index_t>&, const AdaptivePatches<linalg::Host>&);

}  // namespace spmesh::schemes::catmull_clark
