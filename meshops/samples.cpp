#include "meshops/samples.hpp"

#include "meshops/io.hpp"

#include <cmath>

namespace spmesh::meshops {

Samples parse_samples(std::string_view text, const std::string& name, index_t faces, bool solid) {
  Samples out;
  const char* form = solid ? "a sample is 'cell u v w'" : "a sample is 'face u v'";
  const char* element = solid ? "cell" : "face";
  static constexpr const char* missing_uv[2] = {"u and v are", "v is"};
  static constexpr const char* missing_uvw[3] = {"u, v and w are", "v and w are", "w is"};
  const char* const* missing = solid ? missing_uvw : missing_uv;
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
    const int parameters = solid ? 3 : 2;
    double uvw[3] = {0, 0, 0};
    if (!parse_number(face_token, face))
      fail("bad " + std::string(element) + " '" + std::string(face_token.substr(0, 32)) + "' (" + form + ")");
    for (int i = 0; i < parameters; ++i) {
      const std::string_view tok = next_token(s);
      if (tok.empty()) fail(std::string(form) + ": " + missing[i] + " missing");
      if (!parse_number(tok, uvw[i])) fail("bad parameter '" + std::string(tok.substr(0, 32)) + "'");
    }
    if (!next_token(s).empty()) fail(std::string(form) + ": more follows");
    if (face < 0 || face >= faces)
      fail(std::string(element) + " " + std::to_string(face) + " is out of range (the mesh has " + element + "s 0 to " +
           std::to_string(faces - 1) + ")");
    // Which (u, v) a face takes is its parameterization's (the evaluation checks it); here only
    // numbers. A solid's cell is [0, 1]^3.
    bool good = true;
    for (int i = 0; i < parameters; ++i) good &= std::isfinite(uvw[i]) && uvw[i] >= 0 && (!solid || uvw[i] <= 1);
    if (!good) {
      if (solid)
        fail("u, v and w are in [0, 1] (u " + std::to_string(uvw[0]) + ", v " + std::to_string(uvw[1]) + ", w " +
             std::to_string(uvw[2]) + ")");
      fail("u and v are finite and not negative (u " + std::to_string(uvw[0]) + ", v " + std::to_string(uvw[1]) + ")");
    }
    out.faces.push_back(index_t(face)), out.u.push_back(uvw[0]), out.v.push_back(uvw[1]), out.lines.push_back(line);
    if (solid) out.w.push_back(uvw[2]);
  }
  return out;
}

Samples read_samples(const std::string& path, index_t faces, bool solid) {
  return parse_samples(read_file(path), path, faces, solid);
}

std::vector<std::uint8_t> parse_face_selection(std::string_view text, const std::string& name, index_t faces) {
  std::vector<std::uint8_t> selected(std::size_t(faces), 0);
  text = skip_bom(text);
  index_t line = 0, count = 0;
  for (std::size_t pos = 0; pos <= text.size();) {
    std::string_view s = next_line(text, pos);
    ++line;
    if (const std::size_t hash = s.find('#'); hash != std::string_view::npos) s = s.substr(0, hash);
    for (std::string_view token = next_token(s); !token.empty(); token = next_token(s)) {
      std::int64_t face = 0;
      auto fail = [&](const std::string& what) { throw InputError(name + ":" + std::to_string(line) + ": " + what); };
      if (!parse_number(token, face)) fail("bad face '" + std::string(token.substr(0, 32)) + "' (a face id, 0-based)");
      if (face < 0 || face >= faces)
        fail("face " + std::to_string(face) + " is out of range (the mesh has faces 0 to " + std::to_string(faces - 1) + ")");
      count += selected[std::size_t(face)] ? 0 : 1;
      selected[std::size_t(face)] = 1;
    }
  }
  if (count == 0) throw InputError(name + ": no face selected");
  return selected;
}

std::vector<std::uint8_t> read_face_selection(const std::string& path, index_t faces) {
  return parse_face_selection(read_file(path), path, faces);
}

}  // namespace spmesh::meshops
