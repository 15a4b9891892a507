#include "meshops/samples.hpp"

#include "meshops/io.hpp"

#include <cmath>

namespace spmesh::meshops {

Samples parse_samples(std::string_view text, const std::string& name, index_t faces) {
  Samples out;
  text = skip_bom(text);
  index_t line = 0;
  for (std::size_t pos = 0; pos <= text.size();) {
    std::string_view s = next_line(text, pos);
    ++line;
    if (const std::size_t hash = s.find('#'); hash != std::string_view::npos) s = s.substr(0, hash);
    const std::string_view face_token = next_token(s);
    if (face_token.empty()) continue;
    auto fail = [&](const std::string& what) {
      throw InputError(name + ":" + std::to_string(line) + ": " + what);
    };
    std::int64_t face = 0;
    double uv[2] = {0, 0};
    if (!parse_number(face_token, face)) fail("bad face '" + std::string(face_token.substr(0, 32)) + "' (a sample is 'face u v')");
    for (double& x : uv) {
      const std::string_view tok = next_token(s);
      if (tok.empty()) fail("a sample is 'face u v': " + std::string(&x == uv ? "u and v are" : "v is") + " missing");
      if (!parse_number(tok, x)) fail("bad parameter '" + std::string(tok.substr(0, 32)) + "'");
    }
    if (!next_token(s).empty()) fail("a sample is 'face u v': more follows");
    if (face < 0 || face >= faces)
      fail("face " + std::to_string(face) + " is out of range (the mesh has faces 0 to " + std::to_string(faces - 1) + ")");
    // Which (u, v) a face takes is its parameterization's (the evaluation checks it); here only numbers.
    if (!std::isfinite(uv[0]) || !std::isfinite(uv[1]) || uv[0] < 0 || uv[1] < 0)
      fail("u and v are finite and not negative (u " + std::to_string(uv[0]) + ", v " + std::to_string(uv[1]) + ")");
    out.faces.push_back(index_t(face)), out.u.push_back(uv[0]), out.v.push_back(uv[1]), out.lines.push_back(line);
  }
  return out;
}

Samples read_samples(const std::string& path, index_t faces) { return parse_samples(read_file(path), path, faces); }

}  // namespace spmesh::meshops
