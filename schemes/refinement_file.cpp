// The refinement file format, version 2 (see refinement_file.hpp): sections written in large
// blocks and read straight into their arrays, every size checked against the file length
// before anything is allocated, a checksum hashed in parallel 64-bit words.
#include "schemes/refinement_file.hpp"

#include "meshops/info.hpp"
#include "meshops/io.hpp"
#include "schemes/schemes.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>

#include <sys/stat.h>

namespace spmesh::schemes {

static_assert(std::endian::native == std::endian::little,
              "the refinement file is little endian, as this host must be");

namespace {

constexpr char magic[8] = {'S', 'P', 'M', 'E', 'S', 'H', '-', 'R'};
constexpr std::uint32_t version = 2;
// A solid whose base has polyhedra: version 2 with the length of the base's face streams after
// the header, and the face sections after the base indices.
constexpr std::uint32_t polyhedra_version = 3;
// A surface with holes: version 3's header with the count of hole flags after it, and a byte a
// base face (1: a hole) after the base indices.
constexpr std::uint32_t holes_version = 4;

struct Header {
  char magic[8];
  std::uint32_t version, scalar_bytes;
  char scheme[32];
  // rule: a solid's vertex rule (solids::VertexRule), a surface's triangle rule (TriangleRule).
  std::uint32_t levels, boundary, crease, column_bytes, id_bytes, rule;
  std::int64_t rows, cols, nnz, stencils, table;
  std::int64_t base_vertices, base_faces, base_corners, sharp_edges;
  std::uint64_t refined_hash;
  std::int64_t refined_vertices, refined_faces, refined_corners;
  std::int64_t face_streams;  // versions 3 and 4 (0 there)
  std::int64_t holes;         // version 4 only: the hole flags, one a base face
};
static_assert(sizeof(Header) == 192 && std::is_trivially_copyable_v<Header>);

// The version a file of these counts is written as: 2 unless it has polyhedra (3) or holes (4).
std::uint32_t file_version(std::int64_t face_streams, std::int64_t holes) {
  return holes > 0 ? holes_version : face_streams > 0 ? polyhedra_version : version;
}

// The header's bytes in the file: version 2 ends before face_streams, version 3 before holes.
std::size_t header_bytes(const Header& h) {
  return h.version == holes_version ? sizeof(Header) : h.version == polyhedra_version ? 184 : 176;
}

// ---- The checksum: 64-bit words in four independent lanes per chunk, chunks in parallel. ----

constexpr std::uint64_t prime1 = 0x9E3779B185EBCA87ull, prime2 = 0xC2B2AE3D27D4EB4Full;

std::uint64_t finish(std::uint64_t x) {  // splitmix64's finaliser: a bijection
  x ^= x >> 30, x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27, x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Each lane step is a bijection in the lane and in the word, so any one changed word changes
// the chunk's hash.
std::uint64_t chunk_hash(const unsigned char* p, std::size_t n) {
  std::uint64_t lane[4] = {prime1, prime2, ~prime1, ~prime2};
  auto step = [&](const unsigned char* q) {
    for (int k = 0; k < 4; ++k) {
      std::uint64_t w;
      std::memcpy(&w, q + 8 * k, 8);
      lane[k] = std::rotl((lane[k] ^ w) * prime1, 31);
    }
  };
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) step(p + i);
  unsigned char tail[32] = {};
  std::memcpy(tail, p + i, n - i);
  step(tail);
  return finish(lane[0] ^ std::rotl(lane[1], 17) ^ std::rotl(lane[2], 31) ^
                std::rotl(lane[3], 47) ^ (n * prime2));
}

// The hash of n bytes: 4 MiB chunks hashed in parallel, combined in order with the length.
std::uint64_t content_hash(const void* data, std::size_t n) {
  constexpr std::size_t chunk = std::size_t(4) << 20;
  const auto* p = static_cast<const unsigned char*>(data);
  const std::int64_t chunks = static_cast<std::int64_t>((n + chunk - 1) / chunk);
  std::vector<std::uint64_t> h(static_cast<std::size_t>(chunks));
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::size_t begin = static_cast<std::size_t>(c) * chunk;
    h[static_cast<std::size_t>(c)] = chunk_hash(p + begin, std::min(chunk, n - begin));
  }
  std::uint64_t out = finish(n ^ prime1);
  for (std::uint64_t x : h) out = finish((out ^ x) * prime2);
  return out;
}

// The file's checksum: the hashes of the header and each section, in order.
struct Checksum {
  std::uint64_t value = prime2;
  void add(const void* data, std::size_t n) { value = finish((value ^ content_hash(data, n)) * prime1); }
};

constexpr std::size_t padding(std::size_t bytes) { return (8 - bytes % 8) % 8; }

// ---- Saving ----

// R's stencils renumbered in order of first use by a row, each with its weights once: the ids
// and lists the file stores (a StencilCsr holds per row only a position in its table).
template <class T, class Column>
struct StencilList {
  std::vector<std::int32_t> length;
  std::vector<T> table;
  std::vector<std::uint32_t> id;  // per row
};

template <class T, class Column>
StencilList<T, Column> stencil_list(const linalg::StencilCsr<T, Column>& R) {
  StencilList<T, Column> out;
  out.id.resize(static_cast<std::size_t>(R.rows));
  std::vector<std::uint32_t> id_at(static_cast<std::size_t>(R.table.size()),
                                   std::numeric_limits<std::uint32_t>::max());
  constexpr auto none = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t empty = none;
  for (index_t o = 0; o < R.rows; ++o) {
    const index_t begin = R.offsets[o], length = R.offsets[o + 1] - begin;
    const index_t start = R.shift[o] + begin;
    std::uint32_t& id = length == 0 ? empty : id_at[static_cast<std::size_t>(start)];
    if (id == none) {
      id = static_cast<std::uint32_t>(out.length.size());
      out.length.push_back(length);
      out.table.insert(out.table.end(), R.table.data() + start, R.table.data() + start + length);
    } else if (out.length[id] != length) {
      throw Error("save_refinement: rows of R share table position " + std::to_string(start) +
                  " with different lengths; not a table encode_stencils made");
    }
    out.id[static_cast<std::size_t>(o)] = id;
  }
  return out;
}

template <class X>
std::vector<X> narrowed(const std::vector<std::uint32_t>& v) {
  std::vector<X> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = static_cast<X>(v[i]);
  return out;
}

// The sections in file order, as pointers and byte counts.
struct Section {
  const void* data;
  std::size_t bytes;
};

template <class X>
Section section(const X* data, std::int64_t n) {
  return {data, sizeof(X) * static_cast<std::size_t>(n)};
}

void put_name(char (&field)[32], const std::string& name) {
  if (name.size() >= sizeof field) throw Error("save_refinement: scheme name '" + name + "' too long");
  std::memset(field, 0, sizeof field);
  std::memcpy(field, name.data(), name.size());
}

template <class T, class Column>
void write_as(std::ostream& out, const Refinement<T>& r, const linalg::StencilCsr<T, Column>& R) {
  const auto list = stencil_list(R);
  const bool narrow_ids = list.length.size() <= 65536;
  const auto ids16 = narrow_ids ? narrowed<std::uint16_t>(list.id) : std::vector<std::uint16_t>{};
  const auto& C = r.sharpness;
  if (C.vertices.size() != r.base.vertices)
    throw Error("save_refinement: vertex sharpness for " + std::to_string(C.vertices.size()) +
                " vertices, the base mesh has " + std::to_string(r.base.vertices));

  Header h{};
  std::memcpy(h.magic, magic, sizeof magic);
  h.face_streams = r.base_face_streams.size(), h.holes = std::int64_t(r.holes.size());
  h.version = file_version(h.face_streams, h.holes), h.scalar_bytes = sizeof(T);
  put_name(h.scheme, r.scheme);
  h.levels = static_cast<std::uint32_t>(r.levels);
  h.boundary = static_cast<std::uint32_t>(r.options.boundary);
  h.crease = static_cast<std::uint32_t>(r.options.crease);
  h.rule = static_cast<std::uint32_t>(r.scheme == solid_scheme ? r.vertex_rule : int(r.options.triangles));
  h.column_bytes = sizeof(Column), h.id_bytes = narrow_ids ? 2 : 4;
  h.rows = R.rows, h.cols = R.cols, h.nnz = R.nnz();
  h.stencils = static_cast<std::int64_t>(list.length.size());
  h.table = static_cast<std::int64_t>(list.table.size());
  h.base_vertices = r.base.vertices, h.base_faces = r.base.faces, h.base_corners = r.base.nnz();
  h.sharp_edges = C.edges.nnz();
  h.refined_hash = topology_hash(r.refined);
  h.refined_vertices = r.refined.vertices, h.refined_faces = r.refined.faces;
  h.refined_corners = r.refined.nnz();

  if (h.holes > 0 && (h.holes != r.base.faces || h.face_streams > 0))
    throw Error("save_refinement: hole flags for " + std::to_string(h.holes) + " faces, the base has " +
                std::to_string(r.base.faces) + (h.face_streams > 0 ? " cells (a solid keeps no holes)" : ""));
  if (h.face_streams > 0 && r.base_face_offsets.size() != r.base.faces + 1)
    throw Error("save_refinement: face offsets for " + std::to_string(r.base_face_offsets.size() - 1) +
                " cells, the base has " + std::to_string(r.base.faces));
  std::vector<Section> sections = {
      section(list.length.data(), h.stencils),
      section(list.table.data(), h.table),
      narrow_ids ? section(ids16.data(), h.rows) : section(list.id.data(), h.rows),
      section(R.columns.data(), h.nnz),
      section(r.base.offsets.data(), r.base.offsets.size()),
      section(r.base.indices.data(), h.base_corners),
  };
  if (h.face_streams > 0)
    sections.insert(sections.end(), {section(r.base_face_offsets.data(), r.base_face_offsets.size()),
                                     section(r.base_face_streams.data(), h.face_streams)});
  if (h.holes > 0) sections.push_back(section(r.holes.data(), h.holes));
  sections.insert(sections.end(), {section(C.edges.row_indices.data(), h.sharp_edges),
                                   section(C.edges.col_indices.data(), h.sharp_edges),
                                   section(C.edges.values.data(), h.sharp_edges),
                                   section(C.vertices.data(), C.vertices.size())});
  Checksum sum;
  sum.add(&h, header_bytes(h));
  for (const auto& s : sections) sum.add(s.data, s.bytes);

  static constexpr char zeros[8] = {};
  out.write(reinterpret_cast<const char*>(&h), static_cast<std::streamsize>(header_bytes(h)));
  for (const auto& s : sections) {
    out.write(static_cast<const char*>(s.data), static_cast<std::streamsize>(s.bytes));
    out.write(zeros, static_cast<std::streamsize>(padding(s.bytes)));
  }
  out.write(reinterpret_cast<const char*>(&sum.value), sizeof sum.value);
}

// ---- Loading ----

// The file's bytes in order, from memory or straight from the file into the caller's arrays;
// every read's size was checked against the length before.
class Source {
public:
  Source(std::string name, std::string_view bytes) : name_(std::move(name)), bytes_(bytes) {}
  Source(std::string name, std::FILE* file) : name_(std::move(name)), file_(file) {}

  [[noreturn]] void fail(const std::string& what) const { throw InputError(name_ + ": " + what); }

  void read(void* out, std::size_t n) {
    if (file_) {
      if (std::fread(out, 1, n, file_) != n)
        fail("could not read " + std::to_string(n) + " bytes at byte " + std::to_string(pos_) +
             " (the file changed or a read failed)");
    } else if (n > 0) {
      std::memcpy(out, bytes_.data() + pos_, n);
    }
    pos_ += n;
  }
  std::size_t position() const { return pos_; }
  const std::string& name() const { return name_; }

private:
  std::string name_;
  std::string_view bytes_;
  std::FILE* file_ = nullptr;
  std::size_t pos_ = 0;
};

// The section reader: each array allocated at its size, filled from the source, hashed into
// the checksum, its padding checked; `at` remembers where each section begins, for messages.
struct Loader {
  Source& src;
  Checksum sum;

  template <class X>
  linalg::Array<X> array(std::int64_t n, const char* what, std::size_t* at = nullptr) {
    if (at) *at = src.position();
    linalg::Array<X> a(static_cast<index_t>(n));
    const std::size_t bytes = sizeof(X) * static_cast<std::size_t>(n);
    src.read(a.data(), bytes);
    sum.add(a.data(), bytes);
    char pad[8];
    src.read(pad, padding(bytes));
    for (std::size_t i = 0; i < padding(bytes); ++i)
      if (pad[i] != 0) src.fail(std::string("non-zero padding after ") + what);
    return a;
  }
};

// The first i in [0, n) with bad(i), or n; in parallel.
template <class F>
std::int64_t first_where(std::int64_t n, F bad) {
  std::int64_t first = n;
#pragma omp parallel for schedule(static) reduction(min : first) if (n > (1 << 16))
  for (std::int64_t i = 0; i < n; ++i)
    if (i < first && bad(i)) first = i;
  return first;
}

std::string describe(double w) { return std::isnan(w) ? "nan" : w > 0 ? "inf" : "-inf"; }

// The header's counts, checked so that every section's size is known and fits index_t.
void check_counts(const Source& src, const Header& h) {
  const std::int64_t counts[] = {h.rows,          h.cols,          h.nnz,
                                 h.stencils,      h.table,         h.base_vertices,
                                 h.base_faces,    h.base_corners,  h.sharp_edges,
                                 h.refined_vertices, h.refined_faces, h.refined_corners,
                                 h.face_streams,    h.holes};
  const char* names[] = {"R's rows", "R's columns", "R's non-zeros", "the stencil count",
                         "the table length", "the base vertices", "the base faces",
                         "the base face corners", "the sharp edge count", "the refined vertices",
                         "the refined faces", "the refined face corners", "the face stream length",
                         "the hole flags"};
  for (std::size_t i = 0; i < std::size(counts); ++i)
    if (counts[i] < 0 || counts[i] >= std::numeric_limits<index_t>::max())
      src.fail(std::string(names[i]) + " in the header, " + std::to_string(counts[i]) +
               ", is outside [0, 2^31 - 1)");
}

// Each section's bytes (without padding), in file order, for a header whose counts are checked.
std::vector<std::size_t> section_bytes(const Header& h) {
  const std::size_t scalar = h.scalar_bytes;
  std::vector<std::size_t> out = {4 * std::size_t(h.stencils),       scalar * std::size_t(h.table),
                                  h.id_bytes * std::size_t(h.rows),  h.column_bytes * std::size_t(h.nnz),
                                  4 * std::size_t(h.base_faces + 1), 4 * std::size_t(h.base_corners)};
  if (h.face_streams > 0) out.insert(out.end(), {4 * std::size_t(h.base_faces + 1), 4 * std::size_t(h.face_streams)});
  if (h.holes > 0) out.push_back(std::size_t(h.holes));
  out.insert(out.end(), {4 * std::size_t(h.sharp_edges), 4 * std::size_t(h.sharp_edges), 4 * std::size_t(h.sharp_edges),
                         4 * std::size_t(h.base_vertices)});
  return out;
}

std::size_t expected_size(const Header& h) {
  std::size_t total = header_bytes(h) + sizeof(std::uint64_t);
  for (std::size_t b : section_bytes(h)) total += b + padding(b);
  return total;
}

void check_header(const Source& src, const Header& h) {
  check_counts(src, h);
  if (h.scalar_bytes != 4 && h.scalar_bytes != 8)
    src.fail("scalar size " + std::to_string(h.scalar_bytes) + " in the header (4 or 8)");
  if ((h.column_bytes != 2 && h.column_bytes != 4) || (h.id_bytes != 2 && h.id_bytes != 4))
    src.fail("column or stencil id size in the header is not 2 or 4 bytes");
  if (h.boundary > 1 || h.crease > 1 || h.rule > 1)
    src.fail("unknown boundary mode, crease method, vertex rule or triangle rule");
  if (h.levels > 16) src.fail(std::to_string(h.levels) + " levels in the header (at most 16)");
  if (std::memchr(h.scheme, 0, sizeof h.scheme) == nullptr)
    src.fail("the scheme name in the header is not terminated");
  if (h.column_bytes == 2 && h.cols > 65536)
    src.fail(std::to_string(h.cols) + " columns do not fit the header's 16-bit columns");
  if (h.id_bytes == 2 && h.stencils > 65536)
    src.fail(std::to_string(h.stencils) + " stencils do not fit the header's 16-bit ids");
  if ((h.version == polyhedra_version) != (h.face_streams > 0) ||
      (h.face_streams > 0 && std::string_view(h.scheme) != solid_scheme))
    src.fail("version " + std::to_string(h.version) + " with " + std::to_string(h.face_streams) +
             " face stream entries (version 3 holds a solid's polyhedra, version 2 none)");
  if ((h.version == holes_version) != (h.holes > 0) || (h.holes > 0 && h.holes != h.base_faces))
    src.fail("version " + std::to_string(h.version) + " with " + std::to_string(h.holes) + " hole flags for " +
             std::to_string(h.base_faces) + " base faces (version 4 flags every base face, the others none)");
  if (h.base_vertices != h.cols || h.refined_vertices != h.rows)
    src.fail("R is " + std::to_string(h.rows) + " x " + std::to_string(h.cols) +
             " but the meshes have " + std::to_string(h.base_vertices) + " and " +
             std::to_string(h.refined_vertices) + " vertices");
}

// Offsets that start at 0, never decrease and end at the index count; indices in [0, bound).
void check_compressed(const Source& src, const char* what, const linalg::Array<index_t>& offsets,
                      const linalg::Array<index_t>& indices, index_t bound, std::size_t at) {
  const index_t n = offsets.size() - 1;
  if (offsets[0] != 0 || offsets[n] != indices.size())
    src.fail(std::string(what) + ": offsets do not span its " + std::to_string(indices.size()) +
             " indices");
  for (index_t o = 0; o < n; ++o)
    if (offsets[o + 1] < offsets[o])
      src.fail(std::string(what) + ": offsets decrease at face " + std::to_string(o) + " (0-based)");
  const auto* idx = indices.data();
  const auto p = first_where(indices.size(), [&](std::int64_t i) { return idx[i] < 0 || idx[i] >= bound; });
  if (p < indices.size())
    src.fail(std::string(what) + ": vertex " + std::to_string(idx[p]) + " at corner " +
             std::to_string(p) + " (byte " + std::to_string(at + 4 * p) + ") is outside [0, " +
             std::to_string(bound) + ")");
}

template <class T, class F>
linalg::Array<T> converted(const linalg::Array<F>& a) {
  linalg::Array<T> out(a.size());
  for (index_t i = 0; i < a.size(); ++i) out[i] = static_cast<T>(a[i]);
  return out;
}

// Everything the file stores, as read, before any check of its content.
template <class F, class Id, class Column>
struct Stored {
  linalg::Array<std::int32_t> length;
  linalg::Array<F> table;
  linalg::Array<Id> id;
  linalg::Array<Column> columns;
  linalg::Array<index_t> offsets, indices, face_offsets, face_streams, edge_rows, edge_cols;
  linalg::Array<char> holes;
  linalg::Array<float> edge_sharpness, vertex_sharpness;
  std::size_t at_lengths = 0, at_ids = 0, at_columns = 0, at_indices = 0, at_edges = 0;
};

template <class F, class Id, class Column>
Stored<F, Id, Column> read_sections(Loader& in, const Header& h) {
  Stored<F, Id, Column> s;
  s.length = in.array<std::int32_t>(h.stencils, "the stencil lengths", &s.at_lengths);
  s.table = in.array<F>(h.table, "the weight table");
  s.id = in.array<Id>(h.rows, "the stencil ids", &s.at_ids);
  s.columns = in.array<Column>(h.nnz, "R's columns", &s.at_columns);
  s.offsets = in.array<index_t>(h.base_faces + 1, "the base mesh's offsets");
  s.indices = in.array<index_t>(h.base_corners, "the base mesh's indices", &s.at_indices);
  if (h.face_streams > 0) {
    s.face_offsets = in.array<index_t>(h.base_faces + 1, "the base cells' face offsets");
    s.face_streams = in.array<index_t>(h.face_streams, "the base cells' face streams");
  }
  if (h.holes > 0) s.holes = in.array<char>(h.holes, "the hole flags");
  s.edge_rows = in.array<index_t>(h.sharp_edges, "the sharp edges", &s.at_edges);
  s.edge_cols = in.array<index_t>(h.sharp_edges, "the sharp edges");
  s.edge_sharpness = in.array<float>(h.sharp_edges, "the edge sharpness");
  s.vertex_sharpness = in.array<float>(h.base_vertices, "the vertex sharpness");
  std::uint64_t stored;
  in.src.read(&stored, sizeof stored);
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION  // fuzz/: mutated bytes reach the checks below
  if (stored != in.sum.value) in.src.fail("checksum mismatch: the file is corrupt");
#endif
  return s;
}

// R from the stored lists: offsets and shifts by one prefix sum over the rows' stencil ids;
// lengths, ids, columns in range and every weight finite.
template <class T, class F, class Id, class Column>
linalg::StencilCsr<T, Column> stencil_matrix(const Source& src, const Header& h,
                                             Stored<F, Id, Column>& s) {
  const auto& length = s.length;
  const auto& table = s.table;
  const auto& id = s.id;
  const auto& columns = s.columns;
  std::vector<std::int64_t> start(static_cast<std::size_t>(h.stencils) + 1, 0);
  for (std::int64_t k = 0; k < h.stencils; ++k) {
    if (length[k] < 0)
      src.fail("stencil " + std::to_string(k) + " has negative length " +
               std::to_string(length[k]) + " (byte " + std::to_string(s.at_lengths + 4 * k) + ")");
    start[k + 1] = start[k] + length[k];
  }
  if (start.back() != h.table)
    src.fail("the stencil lengths sum to " + std::to_string(start.back()) +
             ", the table holds " + std::to_string(h.table) + " weights");
  const std::int64_t bad_id =
      first_where(h.rows, [&](std::int64_t o) { return std::int64_t(id[o]) >= h.stencils; });
  if (bad_id < h.rows)
    src.fail("row " + std::to_string(bad_id) + " of R names stencil " +
             std::to_string(id[bad_id]) + " (byte " +
             std::to_string(s.at_ids + sizeof(Id) * bad_id) + "); there are " +
             std::to_string(h.stencils));

  linalg::StencilCsr<T, Column> R;
  R.rows = static_cast<index_t>(h.rows), R.cols = static_cast<index_t>(h.cols);
  R.stencils = static_cast<index_t>(h.stencils);
  R.offsets = linalg::Array<index_t>(R.rows + 1);
  R.shift = linalg::Array<index_t>(R.rows);
  std::int64_t offset = 0;
  for (index_t o = 0; o < R.rows && offset <= h.nnz; ++o) {
    R.offsets[o] = static_cast<index_t>(offset);
    R.shift[o] = static_cast<index_t>(start[id[o]] - offset);
    offset += length[id[o]];
  }
  if (offset != h.nnz)
    src.fail("the rows' stencils hold " + std::string(offset > h.nnz ? "more than " : "") +
             std::to_string(offset) + " entries, R has " + std::to_string(h.nnz));
  R.offsets[R.rows] = static_cast<index_t>(offset);

  const auto bad_weight = first_where(h.table, [&](std::int64_t p) { return !std::isfinite(table[p]); });
  if (bad_weight < h.table) {
    const auto k = std::upper_bound(start.begin(), start.end(), bad_weight) - start.begin() - 1;
    const auto row = first_where(h.rows, [&](std::int64_t o) { return std::int64_t(id[o]) == k; });
    src.fail("R's weight " + std::to_string(bad_weight - start[k]) + " of stencil " +
             std::to_string(k) + (row < h.rows ? " (first used by row " + std::to_string(row) + ")"
                                               : std::string(" (used by no row)")) +
             " is " + describe(double(table[bad_weight])));
  }
  const auto bad_column =
      first_where(h.nnz, [&](std::int64_t p) { return std::int64_t(columns[p]) >= h.cols; });
  if (bad_column < h.nnz) {
    const auto row = std::upper_bound(R.offsets.data(), R.offsets.data() + R.rows + 1, bad_column) -
                     R.offsets.data() - 1;
    src.fail("R's column " + std::to_string(columns[bad_column]) + " at entry " +
             std::to_string(bad_column) + " (row " + std::to_string(row) + ", byte " +
             std::to_string(s.at_columns + sizeof(Column) * bad_column) + ") is outside [0, " +
             std::to_string(h.cols) + ")");
  }
  if constexpr (std::is_same_v<T, F>)
    R.table = std::move(s.table);
  else
    R.table = converted<T>(table);
  R.columns = std::move(s.columns);
  return R;
}

// The base mesh and its sharpness, checked.
template <class T, class F, class Id, class Column>
void base_mesh(const Source& src, const Header& h, Stored<F, Id, Column>& s, Refinement<T>& r) {
  check_compressed(src, "the base mesh", s.offsets, s.indices,
                   static_cast<index_t>(h.base_vertices), s.at_indices);
  const index_t V = static_cast<index_t>(h.base_vertices);
  for (index_t e = 0; e < s.edge_rows.size(); ++e) {
    const index_t a = s.edge_rows[e], b = s.edge_cols[e];
    const float w = s.edge_sharpness[e];
    if (a < 0 || a >= V || b < 0 || b >= V || !std::isfinite(w) || w < 0)
      src.fail("sharp edge " + std::to_string(e) + " (byte " + std::to_string(s.at_edges + 4 * e) +
               ") is (" + std::to_string(a) + ", " + std::to_string(b) + ") with sharpness " +
               std::to_string(w) + ": not two of " + std::to_string(V) +
               " vertices with a finite sharpness >= 0");
  }
  for (index_t v = 0; v < V; ++v)
    if (!std::isfinite(s.vertex_sharpness[v]) || s.vertex_sharpness[v] < 0)
      src.fail("vertex " + std::to_string(v) + " (0-based) has sharpness " +
               std::to_string(s.vertex_sharpness[v]));
  r.base = linalg::MeshMatrix<>(V, std::move(s.offsets), std::move(s.indices));
  if (h.face_streams > 0) {  // what the streams say is checked where the cells are rebuilt
    const auto& at = s.face_offsets;
    bool ordered = at[0] == 0 && at[h.base_faces] == h.face_streams;
    for (index_t c = 0; c < h.base_faces && ordered; ++c) ordered = at[c] <= at[c + 1];
    if (!ordered) src.fail("the base cells' face offsets do not span their face streams in order");
    r.base_face_offsets = std::move(s.face_offsets), r.base_face_streams = std::move(s.face_streams);
  }
  if (h.holes > 0) {
    for (index_t f = 0; f < h.base_faces; ++f)
      if (s.holes[f] != 0 && s.holes[f] != 1)
        src.fail("base face " + std::to_string(f) + "'s hole flag is " + std::to_string(int(s.holes[f])) + " (0 or 1)");
    r.holes = s.holes.to_vector();
  }
  r.sharpness = {{V, V, std::move(s.edge_rows), std::move(s.edge_cols), std::move(s.edge_sharpness)},
                 std::move(s.vertex_sharpness)};
}

template <class T, class F, class Id, class Column>
void read_body(Loader& in, const Header& h, Refinement<T>& r) {
  auto s = read_sections<F, Id, Column>(in, h);
  r.R = stencil_matrix<T>(in.src, h, s);
  base_mesh(in.src, h, s, r);
}

// The stored types, from the header, as template arguments.
template <class T, class F, class Id>
void read_body(Loader& in, const Header& h, Refinement<T>& r) {
  if (h.column_bytes == 2) return read_body<T, F, Id, std::uint16_t>(in, h, r);
  read_body<T, F, Id, std::uint32_t>(in, h, r);
}
template <class T, class F>
void read_body(Loader& in, const Header& h, Refinement<T>& r) {
  if (h.id_bytes == 2) return read_body<T, F, std::uint16_t>(in, h, r);
  read_body<T, F, std::uint32_t>(in, h, r);
}

// The header, read and checked, its sizes against the file's.
Header header(Source& src, std::size_t file_size) {
  Header h{};
  const std::size_t front = std::min(file_size, std::size_t(16));
  src.read(&h, front);
  if (front < 8 || std::memcmp(h.magic, magic, sizeof magic) != 0)
    src.fail("not an spmesh refinement file (no SPMESH-R magic number)");
  if (front < 16) src.fail("truncated: the header needs 176 bytes, the file has " + std::to_string(file_size));
  if (h.version == 1)
    src.fail("version 1, an earlier spmesh's format (R as CSR); rebuild it with this spmesh's "
             "`spmesh build` (version " + std::to_string(version) + ")");
  if (h.version != version && h.version != polyhedra_version && h.version != holes_version)
    src.fail("version " + std::to_string(h.version) + "; this spmesh reads versions " + std::to_string(version) +
             " to " + std::to_string(holes_version));
  if (file_size < header_bytes(h))
    src.fail("truncated: the header needs " + std::to_string(header_bytes(h)) + " bytes, the file has " +
             std::to_string(file_size));
  src.read(reinterpret_cast<char*>(&h) + 16, header_bytes(h) - 16);
  check_header(src, h);
  const std::size_t expected = expected_size(h);
  if (expected != file_size)
    src.fail(std::string(file_size < expected ? "truncated" : "unexpected bytes at the end") +
             ": the header's sizes need " + std::to_string(expected) + " bytes, the file has " +
             std::to_string(file_size));
  return h;
}

// The refined mesh's sizes in the header are those `levels` levels of the stored base mesh
// make (schemes/size_estimate.hpp counts them exactly): checked before any rebuild, so that a
// file cannot ask the rebuild for more work than its own size accounts for.
template <class T>
void check_refined_sizes(const Source& src, const Refinement<T>& r, const Header& h) {
  cpu::Executor exec;
  meshops::PolyMesh mesh;
  mesh.M = r.base.clone();
  mesh.positions = linalg::Dense<double>(r.base.vertices, 3);
  const auto info = meshops::mesh_info(exec, mesh);
  const auto size = with_scheme(r.scheme, [&]<class Scheme>() {
    return estimate_size<Scheme>(
        {info.vertices, info.faces, r.base.nnz(), info.edges, info.boundary_edges}, r.levels);
  });
  const auto& last = size.levels.back();
  if (last.vertices != h.refined_vertices || last.faces != h.refined_faces)
    src.fail(std::to_string(r.levels) + " levels of the stored base mesh make " +
             std::to_string(last.vertices) + " vertices and " + std::to_string(last.faces) +
             " faces, but the header says " + std::to_string(h.refined_vertices) + " and " +
             std::to_string(h.refined_faces));
}

template <class T>
StoredRefinement<T> parse(Source& src, std::size_t file_size) {
  const Header h = header(src, file_size);
  Loader in{src, {}};
  in.sum.add(&h, header_bytes(h));
  StoredRefinement<T> stored;
  stored.refined = {src.name(), h.refined_vertices, h.refined_faces, h.refined_corners,
                    h.refined_hash};
  Refinement<T>& r = stored.r;
  r.scheme = h.scheme;
  r.levels = static_cast<int>(h.levels);
  r.options = {static_cast<Boundary>(h.boundary), static_cast<CreaseMethod>(h.crease)};
  if (r.scheme == solid_scheme) r.vertex_rule = static_cast<int>(h.rule);
  else r.options.triangles = static_cast<TriangleRule>(h.rule);
  if (h.scalar_bytes == 4)
    read_body<T, float>(in, h, r);
  else
    read_body<T, double>(in, h, r);
  if (r.scheme != solid_scheme) check_refined_sizes(src, r, h);  // a solid's: solids/refinement_file.hpp
  return stored;
}

// The parts with the refined mesh rebuilt on the CPU and checked.
template <class T>
Refinement<T> with_refined(StoredRefinement<T>&& stored) {
  stored.r.refined = rebuild_refined(stored.r, stored.refined);
  return std::move(stored.r);
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

// A refinement file opened for reading, and its size; InputError naming the path for anything
// but a regular file that opens.
struct OpenFile {
  std::unique_ptr<std::FILE, FileCloser> file;
  std::size_t size = 0;
};

OpenFile open_regular(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw InputError(path + ": cannot open: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw InputError(path + ": not a regular file");
  OpenFile out{std::unique_ptr<std::FILE, FileCloser>(std::fopen(path.c_str(), "rb")),
               static_cast<std::size_t>(st.st_size)};
  if (!out.file) throw InputError(path + ": cannot open: " + std::strerror(errno));
  return out;
}

}  // namespace

std::uint64_t topology_hash(const linalg::MeshMatrix<>& M) {
  Checksum sum;
  const std::int64_t sizes[] = {M.vertices, M.faces, M.nnz()};
  sum.add(sizes, sizeof sizes);
  sum.add(M.offsets.data(), sizeof(index_t) * static_cast<std::size_t>(M.offsets.size()));
  sum.add(M.indices.data(), sizeof(index_t) * static_cast<std::size_t>(M.indices.size()));
  return sum.value;
}

std::uint64_t refinement_checksum(std::string_view bytes) {
  Header h{};
  if (bytes.size() < 176 + sizeof(std::uint64_t))
    throw InputError("refinement_checksum: " + std::to_string(bytes.size()) + " bytes hold no header");
  std::memcpy(&h, bytes.data(), 176);
  if (h.version == polyhedra_version || h.version == holes_version)
    std::memcpy(&h, bytes.data(), std::min(bytes.size(), header_bytes(h)));
  const Source src("refinement_checksum", bytes);
  check_header(src, h);
  if (expected_size(h) != bytes.size())
    throw InputError("refinement_checksum: the header's sizes need " +
                     std::to_string(expected_size(h)) + " bytes, there are " +
                     std::to_string(bytes.size()));
  Checksum sum;
  sum.add(bytes.data(), header_bytes(h));
  std::size_t at = header_bytes(h);
  for (std::size_t b : section_bytes(h)) sum.add(bytes.data() + at, b), at += b + padding(b);
  return sum.value;
}

void RefinedMeshCheck::check(const linalg::MeshMatrix<>& refined) const {
  if (refined.vertices != vertices || refined.faces != faces || refined.nnz() != corners ||
      topology_hash(refined) != hash)
    throw InputError(file + ": the refined mesh rebuilt from the stored base mesh differs from "
                     "the one R was built for (a file from another spmesh version?); rebuild it "
                     "with this spmesh's `spmesh build`");
}

template <class T>
linalg::MeshMatrix<> rebuild_refined(const Refinement<T>& r, const RefinedMeshCheck& check) {
  if (r.scheme == solid_scheme)
    throw InputError(check.file + ": a Catmull-Clark solid's refinement (load it with solids::load_refinement)");
  cpu::Executor exec;
  linalg::MeshMatrix<> refined;
  try {
    refined = with_scheme(r.scheme, [&]<class Scheme>() {
      Sharpness<> C{{r.sharpness.edges.rows, r.sharpness.edges.cols,
                     r.sharpness.edges.row_indices.clone(), r.sharpness.edges.col_indices.clone(),
                     r.sharpness.edges.values.clone()},
                    r.sharpness.vertices.clone()};
      return build<Scheme>(exec, r.base.clone(), std::move(C), r.levels, r.options).refined.mesh();
    });
  } catch (const Error& e) {
    throw InputError(check.file + ": rebuilding the refined mesh from the stored base mesh: " +
                     e.what());
  }
  check.check(refined);
  return refined;
}

template <class T>
std::size_t refinement_file_size(const Refinement<T>& r) {
  return std::visit(
      [&](const auto& R) {
        const auto list = stencil_list(R);
        Header h{};
        h.scalar_bytes = sizeof(T);
        h.column_bytes = sizeof(R.columns[0]), h.id_bytes = list.length.size() <= 65536 ? 2 : 4;
        h.rows = R.rows, h.cols = R.cols, h.nnz = R.nnz();
        h.stencils = static_cast<std::int64_t>(list.length.size());
        h.table = static_cast<std::int64_t>(list.table.size());
        h.base_vertices = r.base.vertices, h.base_faces = r.base.faces;
        h.base_corners = r.base.nnz(), h.sharp_edges = r.sharpness.edges.nnz();
        h.face_streams = r.base_face_streams.size(), h.holes = std::int64_t(r.holes.size());
        h.version = file_version(h.face_streams, h.holes);
        return expected_size(h);
      },
      r.R);
}

template <class T>
void write_refinement(std::ostream& out, const Refinement<T>& r) {
  std::visit([&](const auto& R) { write_as(out, r, R); }, r.R);
}

template <class T>
void save_refinement(const std::string& path, const Refinement<T>& r) {
  meshops::write_atomically(path, [&](std::ostream& out) { write_refinement(out, r); });
}

template <class T>
StoredRefinement<T> parse_refinement_parts(std::string_view bytes, const std::string& name) {
  Source src(name, bytes);
  return parse<T>(src, bytes.size());
}

template <class T>
Refinement<T> parse_refinement(std::string_view bytes, const std::string& name) {
  return with_refined(parse_refinement_parts<T>(bytes, name));
}

template <class T>
Refinement<T> load_refinement(const std::string& path) {
  return with_refined(load_refinement_parts<T>(path));
}

RefinementShape refinement_shape(const std::string& path) {
  const OpenFile in = open_regular(path);
  const auto file_size = in.size;
  Source src(path, in.file.get());
  const Header h = header(src, file_size);
  return {h.scheme, h.rows, h.cols, h.nnz, h.table, int(h.scalar_bytes), int(h.column_bytes),
          h.base_vertices, h.base_faces, h.base_corners, h.refined_vertices, h.refined_faces,
          h.refined_corners, static_cast<std::int64_t>(file_size)};
}

template <class T>
StoredRefinement<T> load_refinement_parts(const std::string& path) {
  const OpenFile in = open_regular(path);
  std::setvbuf(in.file.get(), nullptr, _IONBF, 0);  // large reads go straight into the arrays
  Source src(path, in.file.get());
  return parse<T>(src, in.size);
}

template std::size_t refinement_file_size(const Refinement<float>&);
template std::size_t refinement_file_size(const Refinement<double>&);
template void write_refinement(std::ostream&, const Refinement<float>&);
template void write_refinement(std::ostream&, const Refinement<double>&);
template void save_refinement(const std::string&, const Refinement<float>&);
template void save_refinement(const std::string&, const Refinement<double>&);
template Refinement<float> load_refinement(const std::string&);
template Refinement<double> load_refinement(const std::string&);
template Refinement<float> parse_refinement(std::string_view, const std::string&);
template Refinement<double> parse_refinement(std::string_view, const std::string&);
template StoredRefinement<float> load_refinement_parts(const std::string&);
template StoredRefinement<double> load_refinement_parts(const std::string&);
template StoredRefinement<float> parse_refinement_parts(std::string_view, const std::string&);
template StoredRefinement<double> parse_refinement_parts(std::string_view, const std::string&);
template linalg::MeshMatrix<> rebuild_refined(const Refinement<float>&, const RefinedMeshCheck&);
template linalg::MeshMatrix<> rebuild_refined(const Refinement<double>&, const RefinedMeshCheck&);

}  // namespace spmesh::schemes
