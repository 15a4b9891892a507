// PLY: the header, then the body through an ascii or a binary little-endian source (one
// element reader serves both), and the binary little-endian writer.
#include "meshops/ply.hpp"

#include "meshops/checks.hpp"
#include "meshops/io.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace spmesh::meshops {

namespace {

enum class Type { i8, u8, i16, u16, i32, u32, f32, f64 };

struct TypeName {
  std::string_view name;
  Type type;
};

// The PLY 1.0 names and the sized aliases later writers use; the first of each is canonical.
constexpr TypeName type_names[] = {
    {"char", Type::i8},   {"uchar", Type::u8},   {"short", Type::i16},   {"ushort", Type::u16},
    {"int", Type::i32},   {"uint", Type::u32},   {"float", Type::f32},   {"double", Type::f64},
    {"int8", Type::i8},   {"uint8", Type::u8},   {"int16", Type::i16},   {"uint16", Type::u16},
    {"int32", Type::i32}, {"uint32", Type::u32}, {"float32", Type::f32}, {"float64", Type::f64}};

std::size_t size_of(Type t) {
  constexpr std::size_t sizes[] = {1, 1, 2, 2, 4, 4, 4, 8};
  return sizes[static_cast<int>(t)];
}
bool is_integer(Type t) { return t != Type::f32 && t != Type::f64; }
std::string type_name(Type t) { return std::string(type_names[static_cast<int>(t)].name); }

struct Property {
  std::string name;
  Type type = Type::f32;  // of the items, for a list
  bool list = false;
  Type count_type = Type::u8;
  int line = 0;
};

struct Element {
  std::string name;
  index_t count = 0;
  std::vector<Property> properties;
  int line = 0;

  int find(std::string_view property) const {
    for (std::size_t k = 0; k < properties.size(); ++k)
      if (properties[k].name == property) return static_cast<int>(k);
    return -1;
  }
  // The fewest bytes one item can take, so a count the data cannot hold fails before any
  // allocation: a binary item's scalars and list counts, a byte per token of an ascii item.
  std::size_t min_bytes(bool binary) const {
    std::size_t n = 0;
    for (const Property& p : properties) n += binary ? size_of(p.list ? p.count_type : p.type) : 1;
    return n;
  }
};

struct Header {
  bool binary = false;
  std::vector<Element> elements;
  std::size_t body = 0;  // byte offset of the data
  int lines = 0;         // header lines, end_header included
};

[[noreturn]] void fail_at(const std::string& name, int line, const std::string& what) {
  throw InputError(name + ":" + std::to_string(line) + ": " + what);
}

// Header lines up to end_header; errors name file:line.
class HeaderParser {
public:
  HeaderParser(std::string_view bytes, const std::string& name)
      : bytes_(bytes), name_(name), pos_(bytes.size() - skip_bom(bytes).size()) {}

  Header parse() {
    if (bytes_.empty()) throw InputError(name_ + ": empty file (not a PLY file)");
    bool has_format = false;
    for (;;) {
      if (pos_ >= bytes_.size())
        fail("header ends without 'end_header' (truncated, or not a PLY file)");
      std::string_view rest = line();
      if (line_ == 1) {
        if (rest != "ply") fail("not a PLY file (the first line is not 'ply')");
        continue;
      }
      const std::string_view keyword = next_token(rest);
      if (keyword == "end_header") break;
      if (keyword == "format")
        format(rest), has_format = true;
      else if (keyword == "element")
        element(rest);
      else if (keyword == "property")
        property(rest);
      else if (keyword != "comment" && keyword != "obj_info" && !keyword.empty())
        fail("unknown header line '" + shown(keyword) + "'");
    }
    if (!has_format) fail("the header has no format line");
    header_.body = std::min(pos_, bytes_.size());
    header_.lines = line_;
    return std::move(header_);
  }

private:
  [[noreturn]] void fail(const std::string& what) const { fail_at(name_, line_, what); }

  // A header line may sit before binary data: show at most 32 bytes of a bad token.
  static std::string shown(std::string_view tok) { return std::string(tok.substr(0, 32)); }

  // Binary data starts after end_header's "\n", "\r\n" or lone "\r".
  std::string_view line() {
    ++line_;
    return next_line(bytes_, pos_);
  }

  void format(std::string_view rest) {
    const std::string_view kind = next_token(rest), version = next_token(rest);
    if (kind == "binary_big_endian")
      fail("binary_big_endian PLY is unsupported (only ascii and binary_little_endian)");
    if (kind != "ascii" && kind != "binary_little_endian")
      fail("unknown format '" + shown(kind) + "' (expected ascii or binary_little_endian)");
    if (version != "1.0") fail("unsupported PLY version '" + shown(version) + "' (expected 1.0)");
    header_.binary = kind == "binary_little_endian";
  }

  void element(std::string_view rest) {
    Element e;
    e.name = std::string(next_token(rest));
    const std::string_view count = next_token(rest);
    long long n = 0;
    if (e.name.empty() || !parse_number(count, n) || n < 0)
      fail("element line needs a name and a count, e.g. 'element vertex 8'");
    if (n > max_index)
      throw CapacityError(name_ + ":" + std::to_string(line_) + ": element " + e.name + " count " +
                          std::to_string(n) + " exceeds the 32-bit index limit");
    e.count = static_cast<index_t>(n);
    e.line = line_;
    header_.elements.push_back(std::move(e));
  }

  void property(std::string_view rest) {
    if (header_.elements.empty()) fail("property before any element");
    Property p;
    p.line = line_;
    std::string_view tok = next_token(rest);
    if (tok == "list") {
      p.list = true;
      p.count_type = type(next_token(rest));
      if (!is_integer(p.count_type))
        fail("list count type " + type_name(p.count_type) + " is not an integer type");
      tok = next_token(rest);
    }
    p.type = type(tok);
    p.name = std::string(next_token(rest));
    if (p.name.empty()) fail("property line has no name");
    header_.elements.back().properties.push_back(std::move(p));
  }

  Type type(std::string_view tok) const {
    for (const TypeName& t : type_names)
      if (t.name == tok) return t.type;
    fail(tok.empty() ? "property line has no type" : "unknown property type '" + shown(tok) + "'");
  }

  std::string_view bytes_;
  const std::string& name_;
  std::size_t pos_;  // after the byte order mark, if any
  int line_ = 0;
  Header header_;
};

// For messages: the elements the header declares, "vertex 8, face 6".
std::string declared(const Header& h) {
  std::string s;
  for (const Element& e : h.elements)
    s += (s.empty() ? "" : ", ") + e.name + " " + std::to_string(e.count);
  return s;
}

// Where the mesh is among the elements.
struct Layout {
  int vertex = -1, face = -1;  // element numbers
  int xyz[3] = {-1, -1, -1};   // property numbers in the vertex element
  int indices = -1;            // the index list in the face element
};

int unique_element(const Header& h, const std::string& name, const char* wanted) {
  int found = -1;
  for (std::size_t i = 0; i < h.elements.size(); ++i)
    if (h.elements[i].name == wanted) {
      if (found >= 0)
        fail_at(name, h.elements[i].line, std::string("a second element '") + wanted + "'");
      found = static_cast<int>(i);
    }
  return found;
}

Layout locate(const Header& h, const std::string& name) {
  Layout at;
  at.vertex = unique_element(h, name, "vertex");
  at.face = unique_element(h, name, "face");
  if (at.vertex < 0) throw InputError(name + ": no vertices (the header has no element 'vertex')");
  if (at.face < 0) throw InputError(name + ": no faces (the header has no element 'face')");
  const Element& v = h.elements[at.vertex];
  const char* axes[] = {"x", "y", "z"};
  for (int c = 0; c < 3; ++c) {
    at.xyz[c] = v.find(axes[c]);
    if (at.xyz[c] < 0)
      fail_at(name, v.line, std::string("element vertex has no property '") + axes[c] + "'");
    if (v.properties[at.xyz[c]].list)
      fail_at(name, v.properties[at.xyz[c]].line,
              std::string(axes[c]) + " is a list, expected a number");
  }
  const Element& f = h.elements[at.face];
  at.indices = f.find("vertex_indices") >= 0 ? f.find("vertex_indices") : f.find("vertex_index");
  if (at.indices < 0 || !f.properties[at.indices].list)
    fail_at(name, f.line, "element face has no list property 'vertex_indices' or 'vertex_index'");
  const Property& list = f.properties[at.indices];
  if (!is_integer(list.type))
    fail_at(name, list.line,
            "face vertex indices have type " + type_name(list.type) + ", expected an integer type");
  if (v.count == 0) throw InputError(name + ": no vertices");
  if (f.count == 0) throw InputError(name + ": no faces");
  return at;
}

// The body's element and item being read, for messages: "face 7", or "element face" for a
// check of the whole element (item -1).
struct Cursor {
  const Element* element = nullptr;
  index_t item = -1;

  std::string str() const {
    if (!element) return "data";
    return item < 0 ? "element " + element->name : element->name + " " + std::to_string(item);
  }
};

// Ascii body: whitespace-separated tokens across lines; errors name file:line.
class AsciiSource {
public:
  AsciiSource(std::string_view text, int lines_before, const std::string& name)
      : text_(text), line_(lines_before), name_(name) {}

  void at(const Element& e, index_t item) { cursor_ = {&e, item}; }
  std::size_t left() const { return text_.size() - std::min(pos_, text_.size()) + rest_.size(); }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(name_ + ":" + std::to_string(line_) + ": " + cursor_.str() + ": " + what);
  }

  double real(Type) { return number<double>("number"); }
  long long integer(Type) { return number<long long>("integer"); }
  void skip(Type) { token(); }
  void skip_items(Type, long long n) {
    for (long long k = 0; k < n; ++k) token();
  }

  // Only whitespace may follow the last element's last item.
  void expect_end(const Header& h) {
    for (;;) {
      if (const std::string_view tok = next_token(rest_); !tok.empty())
        throw InputError(name_ + ":" + std::to_string(line_) + ": data after the last element ('" +
                         std::string(tok.substr(0, 32)) + "'): the header declares " +
                         declared(h));
      if (pos_ >= text_.size()) return;
      rest_ = next_line(text_, pos_);
      ++line_;
    }
  }

private:
  std::string_view token() {
    for (;;) {
      if (std::string_view tok = next_token(rest_); !tok.empty()) return tok;
      if (pos_ >= text_.size())
        fail("truncated: the data ends inside this item (element " + cursor_.element->name +
             " declares " + std::to_string(cursor_.element->count) + ")");
      rest_ = next_line(text_, pos_);
      ++line_;
    }
  }

  template <class N>
  N number(const char* what) {
    const std::string_view tok = token();
    N v{};
    if (!parse_number(tok, v)) fail("bad " + std::string(what) + " '" + std::string(tok) + "'");
    return v;
  }

  std::string_view text_, rest_;
  std::size_t pos_ = 0;
  int line_;
  const std::string& name_;
  Cursor cursor_;
};

// Reads a little-endian T at p, on any host.
template <class T>
T load_le(const char* p) {
  char b[sizeof(T)];
  std::memcpy(b, p, sizeof b);
  if constexpr (std::endian::native == std::endian::big) std::reverse(b, b + sizeof b);
  T v;
  std::memcpy(&v, b, sizeof v);
  return v;
}

template <class R>
R load_as(Type t, const char* p) {
  switch (t) {
    case Type::i8:
      return static_cast<R>(load_le<std::int8_t>(p));
    case Type::u8:
      return static_cast<R>(load_le<std::uint8_t>(p));
    case Type::i16:
      return static_cast<R>(load_le<std::int16_t>(p));
    case Type::u16:
      return static_cast<R>(load_le<std::uint16_t>(p));
    case Type::i32:
      return static_cast<R>(load_le<std::int32_t>(p));
    case Type::u32:
      return static_cast<R>(load_le<std::uint32_t>(p));
    case Type::f32:
      return static_cast<R>(load_le<float>(p));
    case Type::f64:
      return static_cast<R>(load_le<double>(p));
  }
  return R{};
}

// Binary little-endian body; errors name the file's byte offset.
class BinarySource {
public:
  BinarySource(std::string_view body, std::size_t offset, const std::string& name)
      : body_(body), offset_(offset), name_(name) {}

  void at(const Element& e, index_t item) { cursor_ = {&e, item}, item_start_ = pos_; }
  std::size_t left() const { return body_.size() - pos_; }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(name_ + ": " + cursor_.str() + " (byte " +
                     std::to_string(offset_ + item_start_) + "): " + what);
  }

  double real(Type t) { return load_as<double>(t, take(size_of(t))); }
  long long integer(Type t) { return load_as<long long>(t, take(size_of(t))); }
  void skip(Type t) { take(size_of(t)); }
  void skip_items(Type t, long long n) { take(static_cast<std::size_t>(n) * size_of(t)); }

  // Nothing may follow the last element's last item but one newline ("\n" or "\r\n"), which
  // some writers add after binary data.
  void expect_end(const Header& h) {
    const std::string_view rest = body_.substr(pos_);
    if (rest.empty() || rest == "\n" || rest == "\r\n") return;
    throw InputError(name_ + ": " + std::to_string(rest.size()) +
                     " bytes of data after the last element (from byte " +
                     std::to_string(offset_ + pos_) + "): the header declares " + declared(h));
  }

private:
  const char* take(std::size_t bytes) {
    if (bytes > left())
      fail("truncated at byte " + std::to_string(offset_ + pos_) + ": needs " +
           std::to_string(bytes) + " bytes, " + std::to_string(left()) + " available");
    const char* p = body_.data() + pos_;
    pos_ += bytes;
    return p;
  }

  std::string_view body_;
  std::size_t offset_, pos_ = 0, item_start_ = 0;
  const std::string& name_;
  Cursor cursor_;
};

template <class Source>
void skip_property(Source& in, const Property& p) {
  if (!p.list) return in.skip(p.type);
  const long long n = in.integer(p.count_type);
  if (n < 0) in.fail("negative list length " + std::to_string(n) + " in " + p.name);
  in.skip_items(p.type, n);
}

template <class Source>
void read_vertices(Source& in, const Element& e, const Layout& at, std::vector<double>& xyz) {
  std::vector<int> axis(e.properties.size(), -1);  // property -> coordinate, or -1
  for (int c = 0; c < 3; ++c) axis[at.xyz[c]] = c;
  xyz.resize(3 * static_cast<std::size_t>(e.count));
  for (index_t v = 0; v < e.count; ++v) {
    in.at(e, v);
    for (std::size_t k = 0; k < e.properties.size(); ++k)
      if (axis[k] >= 0)
        xyz[3 * static_cast<std::size_t>(v) + axis[k]] = in.real(e.properties[k].type);
      else
        skip_property(in, e.properties[k]);
  }
}

template <class Source>
void read_face(Source& in, const Property& list, index_t vertices, std::vector<index_t>& indices) {
  const long long n = in.integer(list.count_type);
  if (n < 3) in.fail("face has " + std::to_string(n) + " vertices, needs at least 3");
  for (long long k = 0; k < n; ++k) {
    const long long i = in.integer(list.type);
    if (i < 0 || i >= vertices)
      in.fail("vertex index " + std::to_string(i) + " out of range (the file has " +
              std::to_string(vertices) + " vertices, counted from 0)");
    indices.push_back(static_cast<index_t>(i));
  }
}

template <class Source>
void read_faces(Source& in, const Element& e, const Layout& at, index_t vertices,
                std::vector<index_t>& offsets, std::vector<index_t>& indices) {
  offsets.reserve(static_cast<std::size_t>(e.count) + 1);
  for (index_t f = 0; f < e.count; ++f) {
    in.at(e, f);
    for (std::size_t k = 0; k < e.properties.size(); ++k)
      if (static_cast<int>(k) == at.indices)
        read_face(in, e.properties[k], vertices, indices);
      else
        skip_property(in, e.properties[k]);
    offsets.push_back(checked_index(static_cast<std::int64_t>(indices.size()), "PLY face indices"));
  }
}

template <class Source>
void skip_element(Source& in, const Element& e) {
  for (index_t item = 0; item < e.count; ++item) {
    in.at(e, item);
    for (const Property& p : e.properties) skip_property(in, p);
  }
}

template <class Source>
PolyMesh read_body(Source in, const Header& h, const Layout& at, const std::string& name) {
  std::vector<double> xyz;
  std::vector<index_t> offsets{0}, indices;
  const index_t vertices = h.elements[at.vertex].count;
  for (std::size_t i = 0; i < h.elements.size(); ++i) {
    const Element& e = h.elements[i];
    in.at(e, -1);
    if (e.count * e.min_bytes(h.binary) > in.left())
      in.fail("truncated: " + std::to_string(e.count) + " items need at least " +
              std::to_string(e.count * e.min_bytes(h.binary)) + " bytes, " +
              std::to_string(in.left()) + " available");
    if (static_cast<int>(i) == at.vertex)
      read_vertices(in, e, at, xyz);
    else if (static_cast<int>(i) == at.face)
      read_faces(in, e, at, vertices, offsets, indices);
    else
      skip_element(in, e);
  }
  in.expect_end(h);
  PolyMesh mesh;
  mesh.positions = linalg::Dense<double>(vertices, 3, linalg::Array<double>(xyz));
  mesh.M = linalg::MeshMatrix<>(vertices, linalg::Array<index_t>(offsets),
                                linalg::Array<index_t>(indices));
  mesh.source = name;
  return mesh;
}

}  // namespace

PolyMesh parse_ply(std::string_view bytes, const std::string& name) {
  const Header h = HeaderParser(bytes, name).parse();
  const Layout at = locate(h, name);
  const std::string_view body = bytes.substr(h.body);
  if (h.binary) return read_body(BinarySource(body, h.body, name), h, at, name);
  return read_body(AsciiSource(body, h.lines, name), h, at, name);
}

PolyMesh read_ply(const std::string& path) { return parse_ply(read_file(path), path); }

}  // namespace spmesh::meshops
