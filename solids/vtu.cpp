// The VTK XML unstructured-grid reader (volume_io.hpp's parse_vtu): the file's tags scanned in
// order (no general XML parser: the VTK XML layout is fixed), each DataArray decoded from ASCII
// text, inline base64 or the appended data (raw or base64), zlib-compressed where the file says
// so and spmesh has zlib, then the cells turned into cells.hpp's kinds (vtk_cells.hpp).
#include "solids/volume_io.hpp"

#include "meshops/io.hpp"
#include "solids/vtk_cells.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#if defined(SPMESH_HAVE_ZLIB)
#include <zlib.h>
#endif

namespace spmesh::solids {

namespace {

// One tag: its name, its attribute text, where it starts, and where the text after it starts.
struct Tag {
  std::string_view name, attributes;
  bool closing = false, empty = false;  // </name>, <name ... />
  std::size_t at = 0, after = 0;
};

class Scanner {
public:
  Scanner(std::string_view bytes, std::string name) : bytes_(bytes), name_(std::move(name)) {}

  [[noreturn]] void fail(std::size_t at, const std::string& what) const {
    throw InputError(name_ + ": byte " + std::to_string(at) + ": " + what);
  }
  [[noreturn]] void fail(const std::string& what) const { throw InputError(name_ + ": " + what); }

  // The next tag from `pos`, skipping text, comments and declarations; none at the end.
  std::optional<Tag> next() {
    while (true) {
      const std::size_t open = bytes_.find('<', pos_);
      if (open == std::string_view::npos) return std::nullopt;
      if (bytes_.substr(open, 4) == "<!--") {
        const std::size_t end = bytes_.find("-->", open);
        if (end == std::string_view::npos) fail(open, "a comment that does not end");
        pos_ = end + 3;
        continue;
      }
      const std::size_t close = bytes_.find('>', open);
      if (close == std::string_view::npos) fail(open, "a tag that does not end");
      pos_ = close + 1;
      if (bytes_[open + 1] == '?' || bytes_[open + 1] == '!') continue;
      Tag tag;
      tag.at = open, tag.after = close + 1;
      std::string_view inside = bytes_.substr(open + 1, close - open - 1);
      if (!inside.empty() && inside.front() == '/') tag.closing = true, inside.remove_prefix(1);
      if (!inside.empty() && inside.back() == '/') tag.empty = true, inside.remove_suffix(1);
      const std::size_t space = std::min(inside.find_first_of(" \t\r\n"), inside.size());
      tag.name = inside.substr(0, space), tag.attributes = inside.substr(space);
      return tag;
    }
  }

  // The text from `from` to the next '<' (an element's content), and past it.
  std::string_view text(std::size_t from) {
    const std::size_t end = std::min(bytes_.find('<', from), bytes_.size());
    pos_ = end;
    return bytes_.substr(from, end - from);
  }

  std::string_view bytes() const { return bytes_; }

private:
  std::string_view bytes_;
  std::string name_;
  std::size_t pos_ = 0;
};

// The value of attribute `key` in a tag's attribute text, if it has it.
std::optional<std::string_view> attribute(std::string_view attributes, std::string_view key) {
  for (std::size_t at = 0; (at = attributes.find(key, at)) != std::string_view::npos; at += key.size()) {
    if (at > 0 && !std::isspace(static_cast<unsigned char>(attributes[at - 1]))) continue;
    std::size_t p = at + key.size();
    while (p < attributes.size() && std::isspace(static_cast<unsigned char>(attributes[p]))) ++p;
    if (p >= attributes.size() || attributes[p] != '=') continue;
    ++p;
    while (p < attributes.size() && std::isspace(static_cast<unsigned char>(attributes[p]))) ++p;
    if (p >= attributes.size() || (attributes[p] != '"' && attributes[p] != '\'')) continue;
    const std::size_t end = attributes.find(attributes[p], p + 1);
    if (end == std::string_view::npos) return std::nullopt;
    return attributes.substr(p + 1, end - p - 1);
  }
  return std::nullopt;
}

// A DataArray as its tag describes it.
struct DataArray {
  std::string name, type, format;
  std::int64_t components = 1, offset = 0;
  std::string_view text;  // ascii and binary: the element's content
  std::size_t at = 0;
};

// Base64 text (whitespace ignored) decoded from `pos` until `count` bytes are out, each group of
// four characters at a time, so that streams encoded one after another (VTK encodes a binary
// array's header apart from its data, each padded) decode as one. nullopt where the text ends first
// or holds a character that is no base64.
struct Base64 {
  std::string_view text;
  std::size_t pos = 0;
  unsigned char left[3] = {};  // a group's bytes decoded but not yet taken
  int left_count = 0, left_at = 0;

  static int value(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : c == '=' ? 64 : -1;
  }

  bool take(std::size_t count, std::string& out) {
    for (; count > 0 && left_at < left_count; --count) out.push_back(char(left[left_at++]));
    while (count > 0) {
      int group[4], n = 0;
      while (n < 4) {
        if (pos >= text.size()) return false;
        const char c = text[pos++];
        if (std::isspace(static_cast<unsigned char>(c))) continue;
        if ((group[n++] = value(c)) < 0) return false;
      }
      if (group[0] == 64 || group[1] == 64) return false;
      const unsigned bits = unsigned(group[0]) << 18 | unsigned(group[1]) << 12 |
                            unsigned(group[2] & 63) << 6 | unsigned(group[3] & 63);
      left_count = group[2] == 64 ? 1 : group[3] == 64 ? 2 : 3, left_at = 0;
      for (int b = 0; b < left_count; ++b) left[b] = static_cast<unsigned char>(bits >> (16 - 8 * b) & 0xff);
      for (; count > 0 && left_at < left_count; --count) out.push_back(char(left[left_at++]));
    }
    return true;
  }
};

struct Layout {
  bool big_endian = false, compressed = false;
  int header_bytes = 4;  // header_type UInt32 or UInt64
};

std::uint64_t unsigned_value(const char* p, int bytes, bool big_endian) {
  unsigned char raw[8] = {};
  std::memcpy(raw, p, std::size_t(bytes));
  if (big_endian) std::reverse(raw, raw + bytes);
  std::uint64_t v = 0;
  for (int b = bytes - 1; b >= 0; --b) v = v << 8 | raw[b];
  return v;
}

// An array's data bytes, from a source of bytes (raw appended data, or base64 text) read in
// order: the header (the byte count, or the compressed blocks' table) then the data.
template <class Take>
std::string array_bytes(const Layout& layout, Take take, const std::function<void(const std::string&)>& fail) {
  const int h = layout.header_bytes;
  std::string head;
  if (!take(std::size_t(h), head)) fail("its header is cut short");
  const std::uint64_t first = unsigned_value(head.data(), h, layout.big_endian);
  std::string data;
  if (!layout.compressed) {
    if (!take(std::size_t(first), data)) fail("its " + std::to_string(first) + " bytes run past the file's end");
    return data;
  }
  // Compressed: [blocks, block size, last block's size, each block's compressed size].
  const std::uint64_t blocks = first;
  if (blocks > (std::uint64_t(1) << 32)) fail("its header names " + std::to_string(blocks) + " compressed blocks");
  if (!take(std::size_t(h) * std::size_t(2 + blocks), head)) fail("its compressed blocks' table is cut short");
  const std::uint64_t block = unsigned_value(head.data() + h, h, layout.big_endian),
                      last = unsigned_value(head.data() + 2 * h, h, layout.big_endian);
  auto compressed_size = [&](std::uint64_t b) {
    return unsigned_value(head.data() + (3 + b) * std::size_t(h), h, layout.big_endian);
  };
  auto inflated_size = [&](std::uint64_t b) { return b + 1 == blocks && last != 0 ? last : block; };
  // Deflate inflates at most 1032 to 1 (zlib's technical notes), so a table that claims more is
  // refused before any memory is taken for it (a header naming a 2 GiB block over a few bytes of
  // data had this reader allocate 2 GiB; found by fuzz_vtu).
  for (std::uint64_t b = 0; b < blocks; ++b)
    if (compressed_size(b) > (std::uint64_t(1) << 40) || inflated_size(b) > 1032 * compressed_size(b) + 64)
      fail("its compressed block " + std::to_string(b) + " of " + std::to_string(compressed_size(b)) +
           " bytes cannot inflate to the " + std::to_string(inflated_size(b)) + " bytes its header names");
  std::string compressed;
#if defined(SPMESH_HAVE_ZLIB)
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t size = compressed_size(b), expected = inflated_size(b);
    compressed.clear();
    if (!take(std::size_t(size), compressed)) fail("its compressed block " + std::to_string(b) + " is cut short");
    const std::size_t start = data.size();
    data.resize(start + std::size_t(expected));
    uLongf out = uLongf(expected);
    if (uncompress(reinterpret_cast<Bytef*>(data.data() + start), &out,
                   reinterpret_cast<const Bytef*>(compressed.data()), uLong(size)) != Z_OK ||
        out != expected)
      fail("its compressed block " + std::to_string(b) + " does not inflate to " + std::to_string(expected) + " bytes");
  }
  return data;
#else
  fail("it is zlib-compressed and this spmesh was built without zlib (Debian zlib1g-dev)");
  return data;
#endif
}

int type_bytes(std::string_view type) {
  if (type == "Int8" || type == "UInt8") return 1;
  if (type == "Int16" || type == "UInt16") return 2;
  if (type == "Int32" || type == "UInt32" || type == "Float32") return 4;
  if (type == "Int64" || type == "UInt64" || type == "Float64") return 8;
  return 0;
}

// n values of `type` from raw bytes as N.
template <class N>
std::vector<N> convert(const std::string& raw, std::string_view type, bool big_endian,
                       const std::function<void(const std::string&)>& fail) {
  const int size = type_bytes(type);
  if (size == 0 || raw.size() % std::size_t(size) != 0)
    fail("its " + std::to_string(raw.size()) + " bytes are no whole number of " + std::string(type) + " values");
  std::vector<N> out(raw.size() / std::size_t(size));
  const bool is_float = type.starts_with("Float"), is_signed = type.starts_with("Int");
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::uint64_t bits = unsigned_value(raw.data() + i * std::size_t(size), size, big_endian);
    if (is_float) {
      out[i] = size == 4 ? N(std::bit_cast<float>(std::uint32_t(bits))) : N(std::bit_cast<double>(bits));
    } else if (is_signed) {
      const int shift = 64 - 8 * size;  // sign-extended
      out[i] = N(std::int64_t(bits << shift) >> shift);
    } else {
      out[i] = N(bits);
    }
  }
  return out;
}

// VTK 9.4's layout of polyhedra (face_connectivity and face_offsets: every face's points and the
// end of each; polyhedron_to_faces and polyhedron_offsets: each cell's faces and the end of its
// list, one entry a cell) as the older layout's face streams (faces: per polyhedron its face
// count, then per face its size and points; faceoffsets: per cell the end of its stream, -1 for
// other cells), from which the cells are read.
void polyhedra_as_face_streams(const std::vector<std::int64_t>& face_points, const std::vector<std::int64_t>& face_ends,
                               const std::vector<std::int64_t>& cell_faces, const std::vector<std::int64_t>& cell_ends,
                               const std::vector<std::int64_t>& types, std::vector<std::int64_t>& faces,
                               std::vector<std::int64_t>& face_offsets, const Scanner& scan) {
  if (cell_ends.size() != types.size())
    scan.fail("polyhedron_offsets has " + std::to_string(cell_ends.size()) + " entries for " +
              std::to_string(types.size()) + " cells (one a cell)");
  faces.clear();
  face_offsets.assign(types.size(), -1);
  std::vector<std::uint8_t> uses(face_ends.size(), 0);  // a face bounds two cells at most
  std::int64_t cell_begin = 0;
  for (std::size_t c = 0; c < types.size(); ++c) {
    const std::string item = "cell " + std::to_string(c);
    const std::int64_t cell_end = cell_ends[c];
    if (cell_end < cell_begin || cell_end > std::int64_t(cell_faces.size()))
      scan.fail(item + ": its polyhedron_offsets entry runs outside polyhedron_to_faces");
    if (types[c] == 42) {
      faces.push_back(cell_end - cell_begin);
      for (std::int64_t k = cell_begin; k < cell_end; ++k) {
        const std::int64_t f = cell_faces[std::size_t(k)];
        if (f < 0 || f >= std::int64_t(face_ends.size()))
          scan.fail(item + ": face " + std::to_string(f) + " is not one of face_offsets' " +
                    std::to_string(face_ends.size()));
        if (++uses[std::size_t(f)] > 2) scan.fail(item + ": face " + std::to_string(f) + " bounds a third cell");
        const std::int64_t begin = f == 0 ? 0 : face_ends[std::size_t(f - 1)], end = face_ends[std::size_t(f)];
        if (begin < 0 || end < begin || end > std::int64_t(face_points.size()))
          scan.fail(item + ": face " + std::to_string(f) + "'s face_offsets entry runs outside face_connectivity");
        faces.push_back(end - begin);
        faces.insert(faces.end(), face_points.begin() + begin, face_points.begin() + end);
      }
      face_offsets[c] = std::int64_t(faces.size());
    }
    cell_begin = cell_end;
  }
}

}  // namespace

VolumeMesh parse_vtu(std::string_view bytes, const std::string& name) {
  Scanner scan(meshops::skip_bom(bytes), name);
  Layout layout;
  std::optional<std::size_t> appended;  // where the appended data's first byte is
  bool appended_base64 = false, in_points = false, in_cells = false, grid = false;
  int pieces = 0;
  std::int64_t points = -1, cell_count = -1;
  std::vector<DataArray> arrays;  // the Cells arrays
  std::optional<DataArray> point_array;
  while (const auto tag = scan.next()) {
    const std::string_view t = tag->name;
    if (t == "VTKFile" && !tag->closing) {
      if (attribute(tag->attributes, "type") != "UnstructuredGrid")
        scan.fail(tag->at, "a VTK XML file of type '" + std::string(attribute(tag->attributes, "type").value_or("")) +
                               "': spmesh reads volume meshes, type UnstructuredGrid (.vtu)");
      const auto order = attribute(tag->attributes, "byte_order").value_or("LittleEndian");
      if (order != "LittleEndian" && order != "BigEndian") scan.fail(tag->at, "byte_order '" + std::string(order) + "'");
      layout.big_endian = order == "BigEndian";
      const auto header = attribute(tag->attributes, "header_type").value_or("UInt32");
      if (header != "UInt32" && header != "UInt64") scan.fail(tag->at, "header_type '" + std::string(header) + "'");
      layout.header_bytes = header == "UInt64" ? 8 : 4;
      if (const auto compressor = attribute(tag->attributes, "compressor")) {
        if (*compressor != "vtkZLibDataCompressor")
          scan.fail(tag->at, "compressor " + std::string(*compressor) + ": spmesh reads zlib-compressed and uncompressed data");
        layout.compressed = true;
      }
    } else if (t == "UnstructuredGrid" && !tag->closing) {
      grid = true;
    } else if (t == "Piece" && !tag->closing) {
      if (++pieces > 1) scan.fail(tag->at, "a second Piece: spmesh reads .vtu files of one piece");
      auto count = [&](const char* key) {
        std::int64_t n = -1;
        const auto v = attribute(tag->attributes, key);
        if (!v || !meshops::parse_number(*v, n) || n < 0) scan.fail(tag->at, std::string("Piece has no valid ") + key);
        return n;
      };
      points = count("NumberOfPoints"), cell_count = count("NumberOfCells");
    } else if (t == "Points" || t == "Cells") {
      (t == "Points" ? in_points : in_cells) = !tag->closing && !tag->empty;
    } else if (t == "DataArray" && !tag->closing && (in_points || in_cells)) {
      DataArray a;
      a.at = tag->at;
      a.name = std::string(attribute(tag->attributes, "Name").value_or(in_points ? "Points" : ""));
      a.type = std::string(attribute(tag->attributes, "type").value_or(""));
      a.format = std::string(attribute(tag->attributes, "format").value_or("ascii"));
      if (const auto c = attribute(tag->attributes, "NumberOfComponents"))
        if (!meshops::parse_number(*c, a.components)) scan.fail(tag->at, "NumberOfComponents '" + std::string(*c) + "'");
      if (a.format == "appended") {
        const auto o = attribute(tag->attributes, "offset");
        if (!o || !meshops::parse_number(*o, a.offset) || a.offset < 0)
          scan.fail(tag->at, "DataArray '" + a.name + "' in the appended data has no valid offset");
      } else if (!tag->empty) {
        a.text = scan.text(tag->after);
      }
      if (in_points && !point_array) point_array = a;
      if (in_cells) arrays.push_back(a);
    } else if (t == "AppendedData" && !tag->closing) {
      const auto encoding = attribute(tag->attributes, "encoding").value_or("raw");
      if (encoding != "raw" && encoding != "base64") scan.fail(tag->at, "AppendedData encoding '" + std::string(encoding) + "'");
      appended_base64 = encoding == "base64";
      const std::size_t underscore = scan.bytes().find('_', tag->after);
      if (underscore == std::string_view::npos) scan.fail(tag->at, "AppendedData without its '_' mark");
      appended = underscore + 1;
      break;  // raw data follows: no more tags are read
    }
  }
  if (!grid || pieces == 0) scan.fail("no UnstructuredGrid Piece (not a .vtu volume mesh)");
  if (!point_array) scan.fail("no Points DataArray");

  // An array's values as N.
  auto values = [&]<class N>(const DataArray& a, N*) {
    auto fail = [&](const std::string& what) { scan.fail(a.at, "DataArray '" + a.name + "': " + what); };
    if (type_bytes(a.type) == 0) fail("values of type '" + a.type + "' are not read here");
    if (std::is_integral_v<N> && a.type.starts_with("Float"))
      fail("holds " + a.type + " values where integers (indices, offsets, cell types) belong");
    if (a.format == "ascii") {
      std::vector<N> out;
      std::string_view text = a.text;
      while (true) {
        const std::size_t begin = text.find_first_not_of(" \t\r\n");
        if (begin == std::string_view::npos) break;
        const std::size_t end = std::min(text.find_first_of(" \t\r\n", begin), text.size());
        N value{};
        if (!meshops::parse_number(text.substr(begin, end - begin), value))
          fail("expected a number, found '" + std::string(text.substr(begin, std::min<std::size_t>(end - begin, 32))) + "'");
        out.push_back(value);
        text.remove_prefix(end);
      }
      return out;
    }
    std::string raw;
    if (a.format == "binary") {
      Base64 source{a.text};
      raw = array_bytes(layout, [&](std::size_t n, std::string& out) { return source.take(n, out); }, fail);
    } else if (a.format == "appended") {
      if (!appended) fail("its data is appended, but the file has no AppendedData");
      const std::string_view rest = scan.bytes().substr(*appended);
      if (std::uint64_t(a.offset) > rest.size()) fail("its offset " + std::to_string(a.offset) + " is past the file's end");
      if (appended_base64) {
        Base64 source{rest, std::size_t(a.offset)};
        raw = array_bytes(layout, [&](std::size_t n, std::string& out) { return source.take(n, out); }, fail);
      } else {
        std::size_t pos = std::size_t(a.offset);
        raw = array_bytes(layout, [&](std::size_t n, std::string& out) {
          if (n > rest.size() - pos) return false;
          out.append(rest.substr(pos, n));
          pos += n;
          return true;
        }, fail);
      }
    } else {
      fail("format '" + a.format + "' (ascii, binary or appended)");
    }
    return convert<N>(raw, a.type, layout.big_endian, fail);
  };
  auto find = [&](const char* wanted) -> const DataArray* {
    for (const auto& a : arrays)
      if (a.name == wanted) return &a;
    return nullptr;
  };

  VolumeMesh mesh;
  const auto coordinates = values(*point_array, static_cast<double*>(nullptr));
  if (point_array->components != 3 || std::int64_t(coordinates.size()) != 3 * points)
    scan.fail(point_array->at, "Points: " + std::to_string(coordinates.size()) + " values for " +
                                   std::to_string(points) + " points of 3 coordinates");
  mesh.positions = linalg::Dense<double>(index_t(points), 3);
  std::copy(coordinates.begin(), coordinates.end(), mesh.positions.data.begin());

  const DataArray *connectivity_array = find("connectivity"), *offsets_array = find("offsets"),
                  *types_array = find("types");
  if (!connectivity_array || !offsets_array || !types_array)
    scan.fail("Cells needs DataArrays named connectivity, offsets and types");
  auto* as_int = static_cast<std::int64_t*>(nullptr);
  const auto connectivity = values(*connectivity_array, as_int), offsets = values(*offsets_array, as_int),
             types = values(*types_array, as_int);
  std::vector<std::int64_t> faces, face_offsets;
  if (const DataArray* f = find("faces")) faces = values(*f, as_int);
  if (const DataArray* f = find("faceoffsets")) face_offsets = values(*f, as_int);
  if (std::int64_t(offsets.size()) != cell_count || std::int64_t(types.size()) != cell_count)
    scan.fail(types_array->at, std::to_string(cell_count) + " cells, but " + std::to_string(offsets.size()) +
                                   " offsets and " + std::to_string(types.size()) + " types");
  if (const DataArray* f = find("polyhedron_offsets")) {  // VTK 9.4's polyhedra
    auto required = [&](const char* wanted) {
      const DataArray* a = find(wanted);
      if (!a) scan.fail(std::string("Cells has polyhedron_offsets but no DataArray named ") + wanted);
      return values(*a, as_int);
    };
    polyhedra_as_face_streams(required("face_connectivity"), required("face_offsets"), required("polyhedron_to_faces"),
                              values(*f, as_int), types, faces, face_offsets, scan);
  }

  vtk::CellLists cells;
  auto fail = [&](const std::string& what) { scan.fail(what); };
  std::int64_t begin = 0, face_begin = 0;
  const std::span<const std::int64_t> all(connectivity), all_faces(faces);
  for (std::size_t c = 0; c < types.size(); ++c) {
    const std::string item = "cell " + std::to_string(c);
    const std::int64_t end = offsets[c];  // .vtu offsets are each cell's end
    if (end < begin || end > std::int64_t(connectivity.size())) scan.fail(item + ": its offset runs outside the connectivity");
    std::span<const std::int64_t> stream;
    if (types[c] == 42) {
      const std::int64_t face_end = c < face_offsets.size() ? face_offsets[c] : -1;
      if (face_end < face_begin || face_end > std::int64_t(faces.size()))
        scan.fail(item + " is a polyhedron whose faceoffsets entry runs outside the faces array");
      stream = all_faces.subspan(std::size_t(face_begin), std::size_t(face_end - face_begin));
      face_begin = face_end;
    }
    vtk::add_cell(cells, types[c], all.subspan(std::size_t(begin), std::size_t(end - begin)), stream, mesh.positions,
                  item, fail);
    begin = end;
  }
  mesh.cells = cells.mesh(mesh.positions.rows);
  mesh.cell_refs.assign(cells.offsets.size() - 1, 0);
  return mesh;
}

}  // namespace spmesh::solids
