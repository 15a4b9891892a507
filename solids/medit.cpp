// Medit .mesh reader: whitespace-separated tokens with their line numbers, a keyword and its
// count opening each section.
#include "solids/medit.hpp"

#include "meshops/io.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace spmesh::solids {

namespace {

class Parser {
public:
  Parser(std::string_view text, std::string name) : text_(meshops::skip_bom(text)), name_(std::move(name)) {}

  VolumeMesh parse() {
    for (std::string_view token = next(); !token.empty(); token = next()) section(token);
    if (!ended_ && mesh_.positions.rows == 0) fail("no Vertices (empty or not a Medit .mesh file)");
    mesh_.cells.vertices = mesh_.positions.rows;
    mesh_.cells.offsets = to_array(cell_offsets_);
    mesh_.cells.indices = to_array(cell_indices_);
    return std::move(mesh_);
  }

private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(name_ + ":" + std::to_string(line_) + ": " + what);
  }

  // The next token, "" at the end of the text; line_ is its line. '#' starts a comment.
  std::string_view next() {
    for (;;) {
      while (rest_.empty()) {
        if (pos_ > text_.size()) return {};
        rest_ = meshops::next_line(text_, pos_);
        rest_ = rest_.substr(0, rest_.find('#'));
        ++line_;
      }
      const std::string_view token = meshops::next_token(rest_);
      if (!token.empty()) return token;
      rest_ = {};
    }
  }

  template <class N>
  N number(const std::string& what) {
    const std::string_view token = next();
    if (token.empty()) fail("truncated: the file ends before " + what);
    N value{};
    if (!meshops::parse_number(token, value)) fail("expected " + what + ", found '" + std::string(token) + "'");
    return value;
  }

  // A section's item count: no more items than the rest of the text could hold.
  index_t count(const std::string& keyword) {
    const long long n = number<long long>("the number of " + keyword);
    if (n < 0 || n > static_cast<long long>(text_.size() - std::min(pos_, text_.size())) + 1)
      fail(keyword + ": " + std::to_string(n) + " items are more than the rest of the file holds");
    return static_cast<index_t>(n);
  }

  // A vertex id as the file counts it (from 1), returned from 0.
  index_t vertex(const std::string& what) {
    const long long id = number<long long>(what);
    if (mesh_.positions.rows == 0) fail(what + " before any Vertices");
    if (id < 1 || id > mesh_.positions.rows)
      fail(what + ": vertex " + std::to_string(id) + " out of range (1 to " +
           std::to_string(mesh_.positions.rows) + "; ids count from 1)");
    return static_cast<index_t>(id - 1);
  }

  void cells(const std::string& keyword, int corners) {
    const index_t n = count(keyword);
    for (index_t c = 0; c < n; ++c) {
      const std::string item = keyword + " " + std::to_string(c + 1);
      for (int k = 0; k < corners; ++k) cell_indices_.push_back(vertex(item));
      mesh_.cell_refs.push_back(number<index_t>("the reference of " + item));
      cell_offsets_.push_back(index_t(cell_indices_.size()));
    }
  }

  void section(std::string_view token) {
    if (ended_) fail("data after End ('" + std::string(token) + "')");
    std::string keyword(token);
    std::string lower = keyword;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (lower == "meshversionformatted") {
      const int version = number<int>("the format version");
      if (version < 1 || version > 4) fail("MeshVersionFormatted " + std::to_string(version) + " (spmesh reads 1 to 4)");
    } else if (lower == "dimension") {
      const int dimension = number<int>("the dimension");
      if (dimension != 3) fail("Dimension " + std::to_string(dimension) + ": a volume mesh has dimension 3");
    } else if (lower == "vertices") {
      if (mesh_.positions.rows > 0) fail("a second Vertices section");
      const index_t n = count(keyword);
      mesh_.positions = linalg::Dense<double>(n, 3);
      for (index_t v = 0; v < n; ++v) {
        const std::string item = "vertex " + std::to_string(v + 1);
        for (index_t c = 0; c < 3; ++c) mesh_.positions(v, c) = number<double>("coordinate " + std::to_string(c) + " of " + item);
        number<long long>("the reference of " + item);
      }
    } else if (lower == "edges") {
      const index_t n = count(keyword);
      for (index_t e = 0; e < n; ++e) {
        const std::string item = "edge " + std::to_string(e + 1);
        const index_t a = vertex(item), b = vertex(item);
        number<long long>("the reference of " + item);
        mesh_.line_edges.push_back({a, b});
      }
    } else if (lower == "triangles" || lower == "quadrilaterals") {
      const index_t n = count(keyword);
      const int corners = lower == "triangles" ? 3 : 4;
      for (index_t f = 0; f < n; ++f) {
        const std::string item = keyword + " " + std::to_string(f + 1);
        for (int k = 0; k < corners; ++k) vertex(item);
        number<long long>("the reference of " + item);
      }
    } else if (lower == "tetrahedra") {
      cells(keyword, 4);
    } else if (lower == "prisms") {
      cells(keyword, 6);
    } else if (lower == "hexahedra") {
      cells(keyword, 8);
    } else if (lower == "pyramids") {
      fail("Pyramids: a pyramid does not subdivide into hexahedra (spmesh refines tetrahedra, "
           "prisms and hexahedra)");
    } else if (lower == "ridges") {
      const index_t n = count(keyword);
      for (index_t r = 0; r < n; ++r) {
        const long long id = number<long long>("ridge " + std::to_string(r + 1));
        if (id < 1 || id > static_cast<long long>(mesh_.line_edges.size()))
          fail("ridge " + std::to_string(r + 1) + ": edge " + std::to_string(id) + " out of range (1 to " +
               std::to_string(mesh_.line_edges.size()) + " Edges read so far; ids count from 1)");
        mesh_.ridges.push_back(mesh_.line_edges[std::size_t(id - 1)]);
      }
    } else if (lower == "corners") {
      const index_t n = count(keyword);
      for (index_t k = 0; k < n; ++k) mesh_.corners.push_back(vertex("corner " + std::to_string(k + 1)));
    } else if (lower == "requiredvertices" || lower == "requirededges") {
      const index_t n = count(keyword);
      for (index_t k = 0; k < n; ++k) number<long long>(keyword + " item " + std::to_string(k + 1));
    } else if (lower == "normals" || lower == "tangents") {
      const index_t n = count(keyword);
      for (index_t k = 0; k < 3 * n; ++k) number<double>(keyword + " item " + std::to_string(k / 3 + 1));
    } else if (lower == "normalatvertices" || lower == "tangentatedges") {
      const index_t n = count(keyword);
      for (index_t k = 0; k < 2 * n; ++k) number<long long>(keyword + " item " + std::to_string(k / 2 + 1));
    } else if (lower == "end") {
      ended_ = true;
    } else {
      fail("unknown keyword '" + keyword + "'");
    }
  }

  static linalg::Array<index_t> to_array(const std::vector<index_t>& v) {
    linalg::Array<index_t> a(index_t(v.size()));
    std::copy(v.begin(), v.end(), a.begin());
    return a;
  }

  std::string_view text_, rest_;
  std::string name_;
  std::size_t pos_ = 0;
  int line_ = 0;
  bool ended_ = false;
  VolumeMesh mesh_;
  std::vector<index_t> cell_offsets_{0}, cell_indices_;
};

}  // namespace

VolumeMesh parse_medit(std::string_view text, const std::string& name) { return Parser(text, name).parse(); }

VolumeMesh read_medit(const std::string& path) { return parse_medit(meshops::read_file(path), path); }

}  // namespace spmesh::solids
