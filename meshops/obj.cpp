// OBJ parser: one pass over the lines, errors carry file:line.
#include "meshops/obj.hpp"

#include "meshops/io.hpp"

#include <charconv>
#include <string_view>

namespace spmesh::meshops {

namespace {

// The OBJ specification's statements that carry nothing spmesh reads: texture coordinates and
// normals, groups and smoothing, materials, lines and points, free-form curves and surfaces,
// display and render attributes. Any statement neither here nor read (v, f, OpenSubdiv's t) is
// an error naming file:line, so that a typo such as "f2 6 8 4" is not dropped silently.
constexpr std::string_view ignored_statements[] = {
    "vt",     "vn",      "vp",       "g",          "o",         "s",     "usemtl", "mtllib",
    "l",      "p",       "cstype",   "deg",        "bmat",      "step",  "curv",   "curv2",
    "surf",   "parm",    "trim",     "hole",       "scrv",      "sp",    "end",    "con",
    "mg",     "maplib",  "usemap",   "c_interp",   "d_interp",  "lod",   "shadow_obj",
    "trace_obj", "ctech", "stech",   "bevel",      "call",      "csh"};

bool ignored(std::string_view statement) {
  for (std::string_view s : ignored_statements)
    if (s == statement) return true;
  return false;
}

class Parser {
public:
  explicit Parser(std::string name) : name_(std::move(name)) {}

  PolyMesh parse(std::string_view text) {
    text = skip_bom(text);
    for (std::size_t pos = 0; pos <= text.size();) {
      const std::string_view line = next_line(text, pos);
      ++line_;
      statement(line);
    }
    return finish();
  }

private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(name_ + ":" + std::to_string(line_) + ": " + what);
  }

  template <class N>
  N number(std::string_view tok, const char* what) const {
    N v{};
    auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    if (ec != std::errc() || p != tok.data() + tok.size())
      fail("bad " + std::string(what) + " '" + std::string(tok) + "'");
    return v;
  }

  void statement(std::string_view s) {
    if (std::size_t hash = s.find('#'); hash != std::string_view::npos) s = s.substr(0, hash);
    std::string_view kind = next_token(s);
    if (kind == "v") vertex(s);
    else if (kind == "f") face(s);
    else if (kind == "t") tag(s);
    else if (!kind.empty() && !ignored(kind))
      fail("unknown statement '" + std::string(kind.substr(0, 32)) +
           "' (not an OBJ statement; a typo?)");
  }

  void vertex(std::string_view s) {
    for (int c = 0; c < 3; ++c) {
      std::string_view tok = next_token(s);
      if (tok.empty()) fail("vertex has " + std::to_string(c) + " coordinates, expected 3");
      positions_.push_back(number<double>(tok, "coordinate"));
    }
  }

  void face(std::string_view s) {
    const index_t vertices = static_cast<index_t>(positions_.size() / 3);
    std::size_t first = indices_.size();
    for (std::string_view tok = next_token(s); !tok.empty(); tok = next_token(s)) {
      std::string_view v = tok.substr(0, tok.find('/'));  // v, v/vt, v//vn, v/vt/vn
      long long i = number<long long>(v, "vertex index");
      if (i == 0) fail("vertex index 0 (OBJ indices start at 1)");
      // Negative indices count back from the last vertex read so far.
      long long resolved = i > 0 ? i - 1 : vertices + i;
      if (resolved < 0) fail("relative index " + std::to_string(i) + " reaches before the first vertex");
      if (resolved >= max_index) fail("vertex index " + std::to_string(i) + " exceeds the 32-bit limit");
      indices_.push_back(static_cast<index_t>(resolved));
    }
    std::size_t order = indices_.size() - first;
    if (order < 3) fail("face has " + std::to_string(order) + " vertices, needs at least 3");
    offsets_.push_back(static_cast<index_t>(indices_.size()));
    face_lines_.push_back(line_);
  }

  // t name ints/floats/strings arg... (OpenSubdiv's tag syntax)
  void tag(std::string_view s) {
    Tag t;
    t.line = line_;
    t.name = std::string(next_token(s));
    std::string_view counts = next_token(s);
    if (t.name.empty() || counts.empty()) fail("tag needs a name and 'ints/floats/strings' counts");
    const std::string all_counts(counts);
    int n[3] = {0, 0, 0};
    for (int k = 0; k < 3; ++k) {
      std::size_t slash = counts.find('/');
      std::string_view part = counts.substr(0, slash);
      if (part.empty() || (k < 2 && slash == std::string_view::npos))
        fail("tag counts '" + all_counts + "' are not 'ints/floats/strings'");
      n[k] = number<int>(part, "tag count");
      counts = slash == std::string_view::npos ? std::string_view{} : counts.substr(slash + 1);
    }
    auto arg = [&](const char* what) {
      std::string_view tok = next_token(s);
      if (tok.empty()) fail("tag '" + t.name + "' is missing " + what + " arguments");
      return tok;
    };
    for (int k = 0; k < n[0]; ++k) t.ints.push_back(number<int>(arg("integer"), "tag integer"));
    for (int k = 0; k < n[1]; ++k) t.floats.push_back(number<double>(arg("float"), "tag float"));
    for (int k = 0; k < n[2]; ++k) t.strings.emplace_back(arg("string"));
    if (!next_token(s).empty()) fail("tag '" + t.name + "' has more arguments than its counts say");
    tags_.push_back(std::move(t));
  }

  PolyMesh finish() {
    const index_t vertices = static_cast<index_t>(positions_.size() / 3);
    if (vertices == 0) throw InputError(name_ + ": no vertices (empty or not an OBJ file)");
    if (face_lines_.empty()) throw InputError(name_ + ": no faces");
    for (std::size_t f = 0; f < face_lines_.size(); ++f)
      for (index_t p = offsets_[f]; p < offsets_[f + 1]; ++p)
        if (indices_[p] >= vertices)
          throw InputError(name_ + ":" + std::to_string(face_lines_[f]) + ": vertex index " +
                           std::to_string(indices_[p] + 1) + " out of range (the file has " +
                           std::to_string(vertices) + " vertices, counted from 1)");
    PolyMesh mesh;
    mesh.positions = linalg::Dense<double>(vertices, 3, linalg::Array<double>(positions_));
    mesh.M = linalg::MeshMatrix<>(vertices, linalg::Array<index_t>(offsets_),
                                  linalg::Array<index_t>(indices_));
    mesh.tags = std::move(tags_);
    mesh.source = name_;
    return mesh;
  }

  std::string name_;
  int line_ = 0;
  std::vector<double> positions_;
  std::vector<index_t> offsets_{0}, indices_;
  std::vector<int> face_lines_;
  std::vector<Tag> tags_;
};

}  // namespace

PolyMesh parse_obj(const std::string& text, const std::string& name) {
  return Parser(name).parse(text);
}

PolyMesh read_obj(const std::string& path) { return parse_obj(read_file(path), path); }

}  // namespace spmesh::meshops
