// OFF parser: one pass over the lines with something on them, errors carry file:line.
#include "meshops/off.hpp"

#include "meshops/io.hpp"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

namespace spmesh::meshops {

namespace {

class Parser {
public:
  Parser(std::string_view text, std::string name)
      : text_(skip_bom(text)), name_(std::move(name)) {}

  PolyMesh parse() {
    if (text_.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos)
      throw InputError(name_ + ": no vertices (empty or not an OFF file)");
    counts(header(content("the header")));
    for (index_t v = 0; v < vertices_; ++v)
      vertex(content("vertex " + std::to_string(v) + " of " + std::to_string(vertices_)));
    for (index_t f = 0; f < faces_; ++f)
      face(content("face " + std::to_string(f) + " of " + std::to_string(faces_)));
    nothing_after_faces();
    return finish();
  }

private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(name_ + ":" + std::to_string(line_) + ": " + what);
  }

  // The next line with something besides a comment on it.
  std::string_view content(const std::string& expected) {
    while (pos_ < text_.size()) {
      std::string_view s = next_line(text_, pos_);
      ++line_;
      s = s.substr(0, s.find('#'));
      if (s.find_first_not_of(" \t\r\f\v") != std::string_view::npos) return s;
    }
    fail("truncated: the file ends before " + expected);
  }

  // An optional keyword: [ST][C][N]OFF, whose colours, normals and texture coordinates follow
  // x y z and are ignored. The counts may share its line.
  std::string_view header(std::string_view s) {
    std::string_view rest = s;
    const std::string_view keyword = next_token(rest);
    long long n = 0;
    if (parse_number(keyword, n)) return s;  // no keyword: this line holds the counts
    const std::size_t off = keyword.rfind("OFF");
    if (off == std::string_view::npos || off + 3 != keyword.size())
      fail("not an OFF file (expected 'OFF' or the counts, found '" + std::string(keyword) + "')");
    if (keyword.substr(0, off).find_first_not_of("STCN") != std::string_view::npos)
      fail("unsupported OFF variant '" + std::string(keyword) +
           "' (only 3D OFF: OFF, COFF, NOFF, STOFF and their combinations)");
    std::string_view after = rest;
    const std::string_view next = next_token(after);
    if (next == "BINARY") fail("binary OFF is unsupported (only ASCII OFF)");
    return next.empty() ? content("the vertex and face counts") : rest;
  }

  void counts(std::string_view s) {
    long long v = 0, f = 0;
    if (!parse_number(next_token(s), v) || !parse_number(next_token(s), f) || v < 0 || f < 0)
      fail("expected the counts 'vertices faces edges'");
    if (v > max_index || f > max_index)
      throw CapacityError(name_ + ":" + std::to_string(line_) +
                          ": counts exceed the 32-bit index limit");
    if (v == 0) throw InputError(name_ + ": no vertices");
    if (f == 0) throw InputError(name_ + ": no faces");
    vertices_ = static_cast<index_t>(v), faces_ = static_cast<index_t>(f);
    // Every vertex line takes at least 6 bytes ("0 0 0\n"): no reservation beyond the text.
    positions_.reserve(3 * std::min<std::size_t>(vertices_, text_.size() / 6));
  }

  void vertex(std::string_view s) {
    for (int c = 0; c < 3; ++c) {
      const std::string_view tok = next_token(s);
      double x = 0;
      if (tok.empty()) fail("vertex has " + std::to_string(c) + " coordinates, expected 3");
      if (!parse_number(tok, x)) fail("bad coordinate '" + std::string(tok) + "'");
      positions_.push_back(x);
    }
  }

  void face(std::string_view s) {
    const std::string_view count = next_token(s);
    long long n = 0;
    if (!parse_number(count, n)) fail("bad face vertex count '" + std::string(count) + "'");
    if (n < 3) fail("face has " + std::to_string(n) + " vertices, needs at least 3");
    for (long long k = 0; k < n; ++k) {
      const std::string_view tok = next_token(s);
      long long i = 0;
      if (tok.empty())
        fail("face lists " + std::to_string(k) + " of its " + std::to_string(n) + " vertices");
      if (!parse_number(tok, i)) fail("bad vertex index '" + std::string(tok) + "'");
      if (i < 0 || i >= vertices_)
        fail("vertex index " + std::to_string(i) + " out of range (the file has " +
             std::to_string(vertices_) + " vertices, counted from 0)");
      indices_.push_back(static_cast<index_t>(i));
    }
    // Anything after the indices is the face's colour.
    offsets_.push_back(
        checked_index(static_cast<std::int64_t>(indices_.size()), "OFF face indices"));
  }

  // Only blank lines and comments may follow the last face: more faces than the header counts,
  // or anything else, means the file is not what its header says.
  void nothing_after_faces() {
    while (pos_ < text_.size()) {
      std::string_view s = next_line(text_, pos_);
      ++line_;
      s = s.substr(0, s.find('#'));
      if (const std::string_view tok = next_token(s); !tok.empty())
        fail("data after the last face ('" + std::string(tok.substr(0, 32)) +
             "'): the header declares " + std::to_string(vertices_) + " vertices and " +
             std::to_string(faces_) + " faces");
    }
  }

  PolyMesh finish() {
    PolyMesh mesh;
    mesh.positions = linalg::Dense<double>(vertices_, 3, linalg::Array<double>(positions_));
    mesh.M = linalg::MeshMatrix<>(vertices_, linalg::Array<index_t>(offsets_),
                                  linalg::Array<index_t>(indices_));
    mesh.source = name_;
    return mesh;
  }

  std::string_view text_;
  std::string name_;
  std::size_t pos_ = 0;
  int line_ = 0;
  index_t vertices_ = 0, faces_ = 0;
  std::vector<double> positions_;
  std::vector<index_t> offsets_{0}, indices_;
};

}  // namespace

PolyMesh parse_off(const std::string& text, const std::string& name) {
  return Parser(text, name).parse();
}

PolyMesh read_off(const std::string& path) { return parse_off(read_file(path), path); }

}  // namespace spmesh::meshops
