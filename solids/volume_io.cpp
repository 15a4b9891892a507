// VTK legacy and gmsh 4.1 readers (volume_io.hpp) over one cursor that reads text tokens with
// their line numbers and binary values with their byte offsets, and the reader by extension.
#include "solids/volume_io.hpp"

#include "meshops/io.hpp"
#include "solids/medit.hpp"
#include "solids/vtk_cells.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace spmesh::solids {

namespace {

class Cursor {
public:
  Cursor(std::string_view bytes, std::string name) : bytes_(bytes), name_(std::move(name)) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(name_ + (binary_at_ >= 0 ? ": byte " + std::to_string(binary_at_) : ":" + std::to_string(line_)) +
                     ": " + what);
  }

  // A problem of an item found after reading (a cell, an element): named by the item alone.
  [[noreturn]] void fail_item(const std::string& what) const { throw InputError(name_ + ": " + what); }

  bool at_end() {
    skip_space();
    return pos_ >= bytes_.size();
  }

  // The rest of the current line from here, and past its end.
  std::string_view line() {
    binary_at_ = -1;
    const std::size_t end = std::min(bytes_.find('\n', pos_), bytes_.size());
    std::string_view text = bytes_.substr(pos_, end - pos_);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    pos_ = end < bytes_.size() ? end + 1 : end;
    ++line_;
    return text;
  }

  // The next whitespace-separated token, across lines; "" at the end.
  std::string_view token() {
    binary_at_ = -1;
    skip_space();
    const std::size_t begin = pos_;
    while (pos_ < bytes_.size() && !std::isspace(static_cast<unsigned char>(bytes_[pos_]))) ++pos_;
    return bytes_.substr(begin, pos_ - begin);
  }

  template <class N>
  N number(const std::string& what) {
    const std::string_view t = token();
    if (t.empty()) fail("truncated: the file ends before " + what);
    N value{};
    if (!meshops::parse_number(t, value)) fail("expected " + what + ", found '" + std::string(t) + "'");
    return value;
  }

  // A binary value of `bytes` bytes (an integer or an IEEE float of that size), in the given
  // byte order, as N.
  template <class N>
  N binary(int bytes, bool is_float, bool big_endian, const std::string& what) {
    binary_at_ = static_cast<std::int64_t>(pos_);
    if (bytes_.size() - pos_ < std::size_t(bytes)) fail("truncated: the file ends before " + what);
    unsigned char raw[8] = {};
    std::memcpy(raw, bytes_.data() + pos_, std::size_t(bytes));
    if (big_endian == (std::endian::native == std::endian::little)) std::reverse(raw, raw + bytes);
    pos_ += std::size_t(bytes);
    std::uint32_t word = 0;
    std::uint64_t wide = 0;
    std::memcpy(&word, raw, sizeof word);
    std::memcpy(&wide, raw, sizeof wide);
    if (is_float) return bytes == 4 ? static_cast<N>(std::bit_cast<float>(word)) : static_cast<N>(std::bit_cast<double>(wide));
    return bytes == 4 ? static_cast<N>(std::bit_cast<std::int32_t>(word)) : static_cast<N>(std::bit_cast<std::int64_t>(wide));
  }

  // Past one line break that ends a binary block, where there is one.
  void end_binary() {
    if (pos_ < bytes_.size() && bytes_[pos_] == '\r') ++pos_;
    if (pos_ < bytes_.size() && bytes_[pos_] == '\n') ++pos_;
    binary_at_ = -1;
  }

  // Skips to just past the line that is `marker` (for sections not read); false if none.
  bool skip_past_line(std::string_view marker) {
    for (std::size_t at = pos_; (at = bytes_.find(marker, at)) != std::string_view::npos; at += marker.size()) {
      if (at == 0 || bytes_[at - 1] == '\n') {
        line_ += int(std::count(bytes_.begin() + std::ptrdiff_t(pos_), bytes_.begin() + std::ptrdiff_t(at), '\n'));
        pos_ = at;
        line();
        return true;
      }
    }
    return false;
  }

  // Counts no larger than what the rest of the file could hold (each item at least `bytes`).
  std::int64_t bounded(std::int64_t n, std::int64_t bytes, const std::string& what) {
    if (n < 0 || n > std::int64_t(bytes_.size() - pos_) / std::max<std::int64_t>(bytes, 1) + 1)
      fail(what + ": " + std::to_string(n) + " is more than the rest of the file holds");
    return n;
  }

private:
  void skip_space() {
    while (pos_ < bytes_.size() && std::isspace(static_cast<unsigned char>(bytes_[pos_]))) {
      if (bytes_[pos_] == '\n') ++line_;
      ++pos_;
    }
  }

  std::string_view bytes_;
  std::string name_;
  std::size_t pos_ = 0;
  int line_ = 1;
  std::int64_t binary_at_ = -1;  // the binary value being read, for messages
};

// The cells read from a file, in cells.hpp's order, each checked (its ids in range, counted from
// 0) as it is added.
struct CellList {
  std::vector<index_t> offsets{0}, indices;

  void add(Cursor& at, const std::vector<std::int64_t>& ids, std::int64_t vertices, const std::string& item) {
    for (std::int64_t id : ids) {
      if (id < 0 || id >= vertices)
        at.fail_item(item + ": vertex " + std::to_string(id) + " out of range (0 to " +
                     std::to_string(vertices - 1) + "; ids count from 0)");
      indices.push_back(index_t(id));
    }
    offsets.push_back(index_t(indices.size()));
  }

  void into(VolumeMesh& mesh) {
    mesh.cells.vertices = mesh.positions.rows;
    mesh.cells.offsets = linalg::Array<index_t>(offsets);
    mesh.cells.indices = linalg::Array<index_t>(indices);
    mesh.cell_refs.assign(offsets.size() - 1, 0);
  }
};

}  // namespace

VolumeMesh parse_vtk(std::string_view bytes, const std::string& name) {
  Cursor at(meshops::skip_bom(bytes), name);
  const std::string_view header = at.line();
  if (!header.starts_with("# vtk DataFile Version"))
    at.fail("not a VTK legacy file (its first line is not '# vtk DataFile Version ...')");
  const int major = std::atoi(std::string(header.substr(22)).c_str());
  at.line();  // the title
  const std::string_view mode = at.token();
  if (mode != "ASCII" && mode != "BINARY") at.fail("expected ASCII or BINARY, found '" + std::string(mode) + "'");
  const bool binary = mode == "BINARY";
  if (at.token() != "DATASET") at.fail("expected DATASET");
  if (const auto kind = at.token(); kind != "UNSTRUCTURED_GRID")
    at.fail("DATASET " + std::string(kind) + ": spmesh reads volume meshes, DATASET UNSTRUCTURED_GRID");

  VolumeMesh mesh;
  std::vector<std::int64_t> offsets{0}, connectivity, types;
  bool have_points = false, have_cells = false;
  // n values of a type the file names (float, double, int, vtktypeint64, ...) into out.
  auto values = [&](std::int64_t n, std::string_view type, const std::string& what, auto* out) {
    using N = std::remove_pointer_t<decltype(out)>;
    const bool is_float = type == "float" || type == "double";
    const int size = type == "double" || type == "vtktypeint64" || type == "long" ? 8 : 4;
    if ((!is_float && type != "int" && type != "vtktypeint64" && type != "long" && type != "vtktypeint32") ||
        (is_float && std::is_integral_v<N>))
      at.fail(what + ": values of type '" + std::string(type) + "' are not read here");
    for (std::int64_t i = 0; i < n; ++i)
      out[i] = binary ? at.binary<N>(size, is_float, true, what) : at.number<N>(what);
    if (binary) at.end_binary();
  };
  auto integers = [&](std::int64_t n, std::string_view type, const std::string& what) {
    std::vector<std::int64_t> v(std::size_t(at.bounded(n, binary ? 4 : 2, what)));
    values(n, type, what, v.data());
    return v;
  };
  while (!at.at_end()) {
    const std::string keyword(at.token());
    if (keyword == "POINTS") {
      const auto n = at.bounded(at.number<std::int64_t>("the number of POINTS"), binary ? 12 : 6, "POINTS");
      const std::string type(at.token());
      at.line();
      mesh.positions = linalg::Dense<double>(index_t(n), 3);
      values(3 * n, type, "POINTS", mesh.positions.data.data());
      have_points = true;
    } else if (keyword == "CELLS" && major >= 5) {  // OFFSETS and CONNECTIVITY
      const auto n = at.number<std::int64_t>("the number of OFFSETS"), m = at.number<std::int64_t>("the CONNECTIVITY size");
      at.line();
      if (at.token() != "OFFSETS") at.fail("expected OFFSETS (a version 5 file)");
      const std::string type(at.token());
      at.line();
      offsets = integers(n, type, "OFFSETS");
      if (at.token() != "CONNECTIVITY") at.fail("expected CONNECTIVITY after OFFSETS");
      const std::string connectivity_type(at.token());
      at.line();
      connectivity = integers(m, connectivity_type, "CONNECTIVITY");
      have_cells = true;
    } else if (keyword == "CELLS") {  // each cell's vertex count, then its ids
      const auto n = at.number<std::int64_t>("the number of CELLS"), size = at.number<std::int64_t>("the CELLS size");
      at.line();
      const auto flat = integers(size, "int", "CELLS");
      at.bounded(n, 1, "CELLS");
      std::size_t p = 0;
      for (std::int64_t c = 0; c < n; ++c) {
        const std::int64_t count = p < flat.size() ? flat[p] : -1;
        if (count < 0 || std::size_t(count) > flat.size() - p - 1)
          at.fail("CELLS: cell " + std::to_string(c) + " runs past the list's " + std::to_string(size) + " values");
        connectivity.insert(connectivity.end(), flat.begin() + std::ptrdiff_t(p + 1), flat.begin() + std::ptrdiff_t(p + 1 + std::size_t(count)));
        offsets.push_back(std::int64_t(connectivity.size()));
        p += std::size_t(count) + 1;
      }
      if (p != flat.size()) at.fail("CELLS: " + std::to_string(n) + " cells use " + std::to_string(p) + " of its " + std::to_string(size) + " values");
      have_cells = true;
    } else if (keyword == "CELL_TYPES") {
      const auto n = at.number<std::int64_t>("the number of CELL_TYPES");
      at.line();
      types = integers(n, "int", "CELL_TYPES");
    } else if (keyword == "METADATA") {  // version 5's information blocks, up to an empty line
      at.line();
      while (!at.at_end() && !at.line().empty()) {
      }
    } else if (keyword == "POINT_DATA" || keyword == "CELL_DATA" || keyword == "FIELD") {
      break;
    } else {
      at.fail("unknown keyword '" + keyword + "'");
    }
  }
  if (!have_points || !have_cells) at.fail("no POINTS or no CELLS (not a volume mesh)");
  if (types.size() + 1 != offsets.size())
    at.fail(std::to_string(types.size()) + " CELL_TYPES for " + std::to_string(offsets.size() - 1) + " CELLS");
  vtk::CellLists cells;
  const std::span<const std::int64_t> all(connectivity);
  auto fail = [&](const std::string& what) { at.fail_item(what); };
  for (std::size_t c = 0; c < types.size(); ++c) {
    const std::string item = "cell " + std::to_string(c);
    const std::int64_t begin = offsets[c], end = offsets[c + 1];
    if (begin < 0 || end < begin || end > std::int64_t(connectivity.size()))
      at.fail_item(item + ": its OFFSETS run outside the CONNECTIVITY");
    const auto ids = all.subspan(std::size_t(begin), std::size_t(end - begin));
    // A polyhedron's entry, in CELLS (versions 2 to 4) as in CONNECTIVITY (version 5, as VTK's
    // own writer lays it out), is its face stream: its face count, then each face's count and ids.
    vtk::add_cell(cells, types[c], ids, types[c] == 42 ? ids : std::span<const std::int64_t>{}, mesh.positions, item,
                  fail);
  }
  mesh.cells = cells.mesh(mesh.positions.rows);
  mesh.cell_refs.assign(cells.offsets.size() - 1, 0);
  return mesh;
}

VolumeMesh parse_msh(std::string_view bytes, const std::string& name) {
  Cursor at(meshops::skip_bom(bytes), name);
  bool binary = false, big_endian = false, have_format = false;
  // Integers (4 bytes in binary), sizes (8) and coordinates (8).
  auto integer = [&](const std::string& what) {
    return binary ? at.binary<std::int64_t>(4, false, big_endian, what) : at.number<std::int64_t>(what);
  };
  auto size = [&](const std::string& what) {
    return binary ? at.binary<std::int64_t>(8, false, big_endian, what) : at.number<std::int64_t>(what);
  };
  auto coordinate = [&](const std::string& what) {
    return binary ? at.binary<double>(8, true, big_endian, what) : at.number<double>(what);
  };
  auto end_of = [&](const std::string& section) {
    if (binary) at.end_binary();
    if (at.token() != "$End" + section) at.fail("expected $End" + section);
  };
  std::vector<double> points;
  std::unordered_map<std::int64_t, index_t> node;  // node tag -> vertex
  CellList cells;
  std::vector<std::pair<std::int64_t, std::vector<std::int64_t>>> elements;  // tag, node tags
  while (!at.at_end()) {
    const std::string section(at.token());
    if (section == "$MeshFormat") {
      const std::string version(at.token());
      const int type = at.number<int>("the file type"), data_size = at.number<int>("the data size");
      if (version != "4.1") at.fail("gmsh format " + version + ": spmesh reads version 4.1 (gmsh -format msh41)");
      if (type != 0 && type != 1) at.fail("file type " + std::to_string(type) + " (0 ASCII, 1 binary)");
      if (data_size != 8) at.fail("data size " + std::to_string(data_size) + " (spmesh reads 8)");
      at.line();
      binary = type == 1;
      if (binary) {
        const auto one = at.binary<std::int64_t>(4, false, false, "the byte-order mark");
        if (one != 1 && one != 16777216) at.fail("the byte-order mark is not 1");
        big_endian = one != 1;
      }
      end_of("MeshFormat");
      have_format = true;
    } else if (section == "$Nodes") {
      if (!have_format) at.fail("$Nodes before $MeshFormat");
      at.line();
      const auto blocks = size("the number of node blocks"), count = size("the number of nodes");
      size("the smallest node tag"), size("the largest node tag");
      at.bounded(count, binary ? 32 : 8, "$Nodes");
      at.bounded(blocks, binary ? 20 : 8, "node blocks");
      for (std::int64_t b = 0; b < blocks; ++b) {
        const auto dim = integer("a node block's dimension");
        integer("a node block's entity");
        const auto parametric = integer("whether a node block is parametric");
        const auto n = at.bounded(size("a node block's size"), binary ? 32 : 8, "a node block");
        const std::size_t first = node.size();
        for (std::int64_t i = 0; i < n; ++i) {
          const auto tag = size("a node tag");
          if (!node.emplace(tag, index_t(first + std::size_t(i))).second) at.fail("node " + std::to_string(tag) + " appears twice");
        }
        for (std::int64_t i = 0; i < n; ++i) {
          for (int x = 0; x < 3; ++x) points.push_back(coordinate("a node's coordinate"));
          for (std::int64_t u = 0; u < (parametric ? dim : 0); ++u) coordinate("a node's parameter");
        }
      }
      end_of("Nodes");
    } else if (section == "$Elements") {
      at.line();
      const auto blocks = size("the number of element blocks");
      size("the number of elements"), size("the smallest element tag"), size("the largest element tag");
      at.bounded(blocks, binary ? 20 : 8, "element blocks");
      for (std::int64_t b = 0; b < blocks; ++b) {
        integer("an element block's dimension"), integer("an element block's entity");
        const auto type = integer("an element block's type");
        const auto n = at.bounded(size("an element block's size"), binary ? 16 : 4, "an element block");
        const int nodes = type == 15 ? 1 : type == 1 ? 2 : type == 2 ? 3 : type == 3 || type == 4 ? 4 : type == 5 ? 8
                          : type == 6 ? 6 : 0;
        if (type == 7) at.fail("pyramids (element type 7): a pyramid does not subdivide into hexahedra");
        if (nodes == 0)
          at.fail("element type " + std::to_string(type) +
                  ": spmesh reads tetrahedra (4), hexahedra (5) and prisms (6), and skips points, lines, "
                  "triangles and quadrangles");
        for (std::int64_t e = 0; e < n; ++e) {
          const auto tag = size("an element tag");
          std::vector<std::int64_t> tags(static_cast<std::size_t>(nodes));
          for (auto& t : tags) t = size("an element's node");
          if (type >= 4) elements.push_back({tag, std::move(tags)});
        }
      }
      end_of("Elements");
    } else if (section.starts_with("$") && section.size() > 1) {  // a section not used
      at.line();
      if (!at.skip_past_line("$End" + section.substr(1))) at.fail(section + " has no $End" + section.substr(1));
    } else {
      at.fail("expected a section ($Name), found '" + section + "'");
    }
  }
  if (!have_format) at.fail("no $MeshFormat (not a gmsh .msh file)");
  VolumeMesh mesh;
  mesh.positions = linalg::Dense<double>(index_t(points.size() / 3), 3);
  std::copy(points.begin(), points.end(), mesh.positions.data.begin());
  std::vector<std::int64_t> ids;
  for (const auto& [tag, tags] : elements) {
    ids.clear();
    for (std::int64_t t : tags) {
      const auto found = node.find(t);
      if (found == node.end())
        at.fail_item("element " + std::to_string(tag) + " names node " + std::to_string(t) + ", which $Nodes does not have");
      ids.push_back(found->second);
    }
    cells.add(at, ids, mesh.positions.rows, "element " + std::to_string(tag));
  }
  cells.into(mesh);
  return mesh;
}

bool is_volume_file(const std::string& path) {
  const std::string extension = meshops::extension(path);
  return extension == ".mesh" || extension == ".vtk" || extension == ".vtu" || extension == ".msh";
}

VolumeMesh read_volume(const std::string& path) {
  const std::string extension = meshops::extension(path);
  if (extension == ".mesh") return read_medit(path);
  const std::string bytes = meshops::read_file(path);
  if (extension == ".vtk") return parse_vtk(bytes, path);
  if (extension == ".vtu") return parse_vtu(bytes, path);
  if (extension == ".msh") return parse_msh(bytes, path);
  throw InputError(path + ": spmesh reads volume meshes from .mesh, .vtk, .vtu and .msh files");
}

}  // namespace spmesh::solids
