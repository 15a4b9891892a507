// Writing files: the temporary-file-and-rename that keeps every written file whole, and the
// OBJ writer.
#include "meshops/io.hpp"

#include "meshops/checks.hpp"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <system_error>

namespace spmesh::meshops {

namespace {

std::string random_suffix(std::random_device& rd) {
  static constexpr char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::uniform_int_distribution<int> pick(0, sizeof(digits) - 2);
  std::string s(6, ' ');
  for (char& c : s) c = digits[pick(rd)];
  return s;
}

// Creates "path.tmp-XXXXXX" with C11's exclusive "x" mode, so two writers never share one and
// the file gets the permissions a new file gets (mkstemp would make it 0600).
std::string create_temporary(const std::string& path) {
  std::random_device rd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string tmp = path + ".tmp-" + random_suffix(rd);
    if (std::FILE* f = std::fopen(tmp.c_str(), "wbx")) {
      std::fclose(f);
      return tmp;
    }
    const int err = errno;
    if (err != EEXIST)
      throw Error(path + ": cannot write (" + std::generic_category().message(err) + ")");
  }
  throw Error(path + ": cannot create a temporary file beside it (100 names taken)");
}

template <class T>
void put_real(std::string& buf, T x) {
  char s[40];
  // max_digits10 significant digits: the shortest fixed count that reads back as the same T.
  auto r = std::to_chars(s, s + sizeof s, x, std::chars_format::general,
                         std::numeric_limits<T>::max_digits10);
  buf.append(s, r.ptr);
}

void put_index(std::string& buf, index_t i) {
  char s[16];
  buf.append(s, std::to_chars(s, s + sizeof s, i).ptr);
}

// Text goes out in chunks of about 1 MiB so a large mesh is never held twice in memory.
template <class T>
void emit_obj(std::ostream& out, const linalg::Dense<T>& positions, const linalg::MeshMatrix<>& M) {
  constexpr std::size_t chunk = 1 << 20;
  std::string buf;
  auto line_done = [&] {
    buf += '\n';
    if (buf.size() >= chunk) out.write(buf.data(), buf.size()), buf.clear();
  };
  for (index_t v = 0; v < positions.rows; ++v) {
    buf += 'v';
    for (index_t c = 0; c < 3; ++c) buf += ' ', put_real(buf, positions(v, c));
    line_done();
  }
  for (index_t f = 0; f < M.faces; ++f) {
    buf += 'f';
    for (index_t p = M.offsets[f]; p < M.offsets[f + 1]; ++p)
      buf += ' ', put_index(buf, M.indices[p] + 1);  // OBJ counts from 1
    line_done();
  }
  out.write(buf.data(), buf.size());
}

template <class T>
void write_obj_file(const std::string& path, const linalg::Dense<T>& positions,
                    const linalg::MeshMatrix<>& M) {
  check_mesh_matrix(path, M, positions.rows, positions.cols);  // before any file exists
  write_atomically(path, [&](std::ostream& out) { emit_obj(out, positions, M); });
}

}  // namespace

void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& body) {
  const std::string tmp = create_temporary(path);
  try {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error(path + ": cannot open " + tmp + " for writing");
    body(out);
    out.close();
    if (!out) throw Error(path + ": write error in " + tmp + " (disk full?)");
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) throw Error(path + ": cannot replace it with the written file (" + ec.message() + ")");
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw;
  }
}

void write_obj(const std::string& path, const linalg::Dense<double>& positions,
               const linalg::MeshMatrix<>& M) {
  write_obj_file(path, positions, M);
}
void write_obj(const std::string& path, const linalg::Dense<float>& positions,
               const linalg::MeshMatrix<>& M) {
  write_obj_file(path, positions, M);
}

void write_obj(std::ostream& out, const linalg::Dense<double>& positions,
               const linalg::MeshMatrix<>& M) {
  check_mesh_matrix("OBJ output", M, positions.rows, positions.cols);
  emit_obj(out, positions, M);
}
void write_obj(std::ostream& out, const linalg::Dense<float>& positions,
               const linalg::MeshMatrix<>& M) {
  check_mesh_matrix("OBJ output", M, positions.rows, positions.cols);
  emit_obj(out, positions, M);
}

}  // namespace spmesh::meshops
