// The OBJ writer: vertex and face lines formatted in parallel and written in order.
#include "meshops/io.hpp"

#include "meshops/checks.hpp"
#include "meshops/emit.hpp"
#include "meshops/output.hpp"


#include <cctype>
#include <charconv>
#include <filesystem>
#include <limits>

namespace spmesh::meshops {

namespace {

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

// Lines of a block of vertices or faces per task (about 3 MiB of text for vertices).
constexpr index_t lines_per_block = 1 << 16;

template <class T>
void emit_obj(std::ostream& out, const linalg::Dense<T>& positions, const linalg::MeshMatrix<>& M) {
  emit_in_parallel(out, positions.rows, lines_per_block, [&](std::string& text, index_t begin, index_t end) {
    for (index_t v = begin; v < end; ++v) {
      text += 'v';
      for (index_t c = 0; c < 3; ++c) text += ' ', put_real(text, positions(v, c));
      text += '\n';
    }
  });
  emit_in_parallel(out, M.faces, lines_per_block, [&](std::string& text, index_t begin, index_t end) {
    for (index_t f = begin; f < end; ++f) {
      text += 'f';
      for (index_t p = M.offsets[f]; p < M.offsets[f + 1]; ++p)
        text += ' ', put_index(text, M.indices[p] + 1);  // OBJ counts from 1
      text += '\n';
    }
  });
}

template <class T>
void write_obj_file(const std::string& path, const linalg::Dense<T>& positions,
                    const linalg::MeshMatrix<>& M) {
  check_mesh_matrix(path, M, positions.rows, positions.cols);  // before any file exists
  check_finite(path, positions);
  write_atomically(path, [&](std::ostream& out) { emit_obj(out, positions, M); });
}

template <class T>
void write_mesh_to(std::ostream& out, MeshFormat format, const std::string& source,
                   const linalg::Dense<T>& positions, const linalg::MeshMatrix<>& M) {
  check_finite(source, positions);
  if (format == MeshFormat::obj)
    write_obj(out, positions, M);
  else
    write_ply(out, positions, M);
}

}  // namespace

MeshFormat output_format(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".obj") return MeshFormat::obj;
  if (ext == ".ply") return MeshFormat::ply;
  // A device or pipe named without an extension (/dev/stdout, /dev/null) gets OBJ text.
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ext.empty() && (path.starts_with("/dev/") || path.starts_with("/proc/self/fd/") ||
                      std::filesystem::is_character_file(status) || std::filesystem::is_fifo(status)))
    return MeshFormat::obj;
  throw InputError(path + ": cannot write a mesh file with " +
                   (ext.empty() ? "no extension" : "extension '" + ext + "'") +
                   " (spmesh writes .obj and .ply)");
}

void write_mesh(std::ostream& out, MeshFormat format, const std::string& source,
                const linalg::Dense<double>& positions, const linalg::MeshMatrix<>& M) {
  write_mesh_to(out, format, source, positions, M);
}
void write_mesh(std::ostream& out, MeshFormat format, const std::string& source,
                const linalg::Dense<float>& positions, const linalg::MeshMatrix<>& M) {
  write_mesh_to(out, format, source, positions, M);
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
