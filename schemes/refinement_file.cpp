// The refinement file format (see refinement_file.hpp): a byte buffer written in one go and read
// back with every size checked before it is used.
#include "schemes/refinement_file.hpp"

#include "meshops/io.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace spmesh::schemes {

namespace {

constexpr char magic[8] = {'S', 'P', 'M', 'E', 'S', 'H', '-', 'R'};
constexpr std::uint32_t version = 1;

std::uint64_t fnv1a(const char* p, std::size_t n) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ static_cast<unsigned char>(p[i])) * 1099511628211ull;
  return h;
}

struct Writer {
  std::vector<char> bytes;
  template <class X>
  void put(const X& x) {
    static_assert(std::is_trivially_copyable_v<X>);
    const char* p = reinterpret_cast<const char*>(&x);
    bytes.insert(bytes.end(), p, p + sizeof(X));
  }
  template <class X>
  void put(const linalg::Array<X>& a) {
    const char* p = reinterpret_cast<const char*>(a.data());
    bytes.insert(bytes.end(), p, p + sizeof(X) * a.size());
  }
  void mesh(const linalg::MeshMatrix<>& M) {
    put(M.vertices), put(M.faces), put(M.nnz()), put(M.offsets), put(M.indices);
  }
};

class Reader {
public:
  Reader(std::string path, const std::string& bytes)
      : path_(std::move(path)), bytes_(bytes.begin(), bytes.end()) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(path_ + ": " + what);
  }

  template <class X>
  X get(const char* what) {
    X x;
    take(&x, sizeof(X), what);
    return x;
  }
  template <class X>
  linalg::Array<X> array(index_t n, const char* what) {
    if (n < 0) fail(std::string("negative size of ") + what);
    linalg::Array<X> a(n);
    take(a.data(), sizeof(X) * static_cast<std::size_t>(n), what);
    return a;
  }
  std::size_t position() const { return pos_; }
  std::size_t size() const { return bytes_.size(); }
  const char* data() const { return bytes_.data(); }

  // Offsets that start at 0, never decrease and end at nnz; indices in [0, bound).
  void check_compressed(const char* what, const linalg::Array<index_t>& offsets,
                        const linalg::Array<index_t>& indices, index_t bound) const {
    const index_t n = offsets.size() - 1;
    if (offsets[0] != 0 || offsets[n] != indices.size())
      fail(std::string(what) + ": offsets do not span its " + std::to_string(indices.size()) +
           " entries");
    for (index_t o = 0; o < n; ++o)
      if (offsets[o + 1] < offsets[o])
        fail(std::string(what) + ": offsets decrease at line " + std::to_string(o));
    for (index_t p = 0; p < indices.size(); ++p)
      if (indices[p] < 0 || indices[p] >= bound)
        fail(std::string(what) + ": index " + std::to_string(indices[p]) + " at entry " +
             std::to_string(p) + " is outside [0, " + std::to_string(bound) + ")");
  }

  linalg::MeshMatrix<> mesh(const char* what) {
    const auto vertices = get<index_t>(what), faces = get<index_t>(what), nnz = get<index_t>(what);
    if (vertices < 0 || faces < 0) fail(std::string(what) + ": negative size");
    auto offsets = array<index_t>(faces + 1, what);
    auto indices = array<index_t>(nnz, what);
    check_compressed(what, offsets, indices, vertices);
    return linalg::MeshMatrix<>(vertices, std::move(offsets), std::move(indices));
  }

private:
  void take(void* out, std::size_t n, const char* what) {
    if (n > bytes_.size() - pos_)
      fail(std::string("truncated: ") + what + " needs " + std::to_string(n) + " bytes at offset " +
           std::to_string(pos_) + ", the file has " + std::to_string(bytes_.size() - pos_) +
           " left");
    std::memcpy(out, bytes_.data() + pos_, n);
    pos_ += n;
  }

  std::string path_;
  std::vector<char> bytes_;
  std::size_t pos_ = 0;
};

template <class From, class To>
linalg::Array<To> convert(const linalg::Array<From>& a) {
  linalg::Array<To> out(a.size());
  for (index_t i = 0; i < a.size(); ++i) out[i] = static_cast<To>(a[i]);
  return out;
}

}  // namespace

template <class T>
void save_refinement(const std::string& path, const Refinement<T>& r) {
  Writer w;
  for (char c : magic) w.put(c);
  w.put(version), w.put(std::uint32_t(sizeof(T)));
  w.put(std::uint32_t(r.scheme.size()));
  for (char c : r.scheme) w.put(c);
  w.put(std::uint32_t(r.levels)), w.put(std::uint32_t(r.options.boundary));
  w.put(std::uint32_t(r.options.crease));
  w.put(r.R.rows), w.put(r.R.cols), w.put(r.R.nnz());
  w.put(r.R.offsets), w.put(r.R.indices), w.put(r.R.values);
  w.mesh(r.base), w.mesh(r.refined);
  w.put(fnv1a(w.bytes.data(), w.bytes.size()));

  meshops::write_atomically(path, [&](std::ostream& out) {
    out.write(w.bytes.data(), static_cast<std::streamsize>(w.bytes.size()));
  });
}

template <class T>
Refinement<T> load_refinement(const std::string& path) {
  Reader r(path, meshops::read_file(path));
  char m[sizeof magic];
  for (char& c : m) c = r.get<char>("the magic number");
  if (std::memcmp(m, magic, sizeof magic) != 0) r.fail("not an spmesh refinement file");
  const auto v = r.get<std::uint32_t>("the version");
  if (v != version)
    r.fail("version " + std::to_string(v) + "; this spmesh reads version " + std::to_string(version));
  if (r.size() < sizeof(std::uint64_t) + r.position()) r.fail("truncated: no checksum");
  std::uint64_t stored;
  std::memcpy(&stored, r.data() + r.size() - sizeof stored, sizeof stored);
  if (fnv1a(r.data(), r.size() - sizeof stored) != stored)
    r.fail("checksum mismatch: the file is corrupt or was cut short");

  Refinement<T> out;
  const auto scalar = r.get<std::uint32_t>("the scalar size");
  if (scalar != 4 && scalar != 8) r.fail("scalar size " + std::to_string(scalar) + " (4 or 8)");
  const auto name_length = r.get<std::uint32_t>("the scheme name");
  if (name_length > 64) r.fail("scheme name of " + std::to_string(name_length) + " bytes");
  for (std::uint32_t i = 0; i < name_length; ++i) out.scheme += r.get<char>("the scheme name");
  out.levels = static_cast<int>(r.get<std::uint32_t>("the level count"));
  const auto boundary = r.get<std::uint32_t>("the boundary mode");
  const auto crease = r.get<std::uint32_t>("the crease method");
  if (boundary > 1 || crease > 1) r.fail("unknown boundary mode or crease method");
  out.options = {static_cast<Boundary>(boundary), static_cast<CreaseMethod>(crease)};

  const auto rows = r.get<index_t>("R's shape"), cols = r.get<index_t>("R's shape"),
             nnz = r.get<index_t>("R's shape");
  if (rows < 0 || cols < 0) r.fail("R has a negative shape");
  auto offsets = r.array<index_t>(rows + 1, "R's offsets");
  auto indices = r.array<index_t>(nnz, "R's indices");
  r.check_compressed("R", offsets, indices, cols);
  linalg::Array<T> values = scalar == sizeof(T) ? r.array<T>(nnz, "R's values")
                            : scalar == 4       ? convert<float, T>(r.array<float>(nnz, "R's values"))
                                                : convert<double, T>(r.array<double>(nnz, "R's values"));
  out.R = linalg::Csr<T>(rows, cols, std::move(offsets), std::move(indices), std::move(values));
  out.base = r.mesh("the base mesh");
  out.refined = r.mesh("the refined mesh");
  if (out.base.vertices != cols || out.refined.vertices != rows)
    r.fail("R is " + out.R.shape() + " but the meshes have " + std::to_string(out.base.vertices) +
           " and " + std::to_string(out.refined.vertices) + " vertices");
  if (r.position() + sizeof(std::uint64_t) != r.size())
    r.fail(std::to_string(r.size() - r.position() - sizeof(std::uint64_t)) +
           " unexpected bytes before the checksum");
  return out;
}

template void save_refinement(const std::string&, const Refinement<float>&);
template void save_refinement(const std::string&, const Refinement<double>&);
template Refinement<float> load_refinement(const std::string&);
template Refinement<double> load_refinement(const std::string&);

}  // namespace spmesh::schemes
