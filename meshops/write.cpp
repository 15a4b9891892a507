// The OBJ writer (vertex and face lines formatted in parallel and written in order) and
// write_mesh, by format, with faces formatted anew or encoded once (encode_faces).
#include "meshops/io.hpp"

#include "meshops/checks.hpp"
#include "meshops/emit.hpp"
#include "meshops/output.hpp"


#include <algorithm>
#include <charconv>
#include <filesystem>
#include <limits>
#include <string_view>

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

// The longest `v x y z` line: 1 + 3 * (1 + 25) + 1 characters.
constexpr std::size_t vertex_line_bytes = 80;

// `v x y z` lines (or `vn`, `kind`) of vertices [begin, end).
template <class T>
void format_vertices(std::string& text, const linalg::Dense<T>& positions, index_t begin, index_t end,
                     std::string_view kind = "v") {
  text.reserve(text.size() + vertex_line_bytes * std::size_t(end - begin));
  for (index_t v = begin; v < end; ++v) {
    text += kind;
    for (index_t c = 0; c < 3; ++c) text += ' ', put_real(text, positions(v, c));
    text += '\n';
  }
}

// `f` lines of faces [begin, end), 1-based as OBJ counts; with `normals`, each corner naming its
// vertex's normal too (`f 1//1 2//2 3//3`).
void format_faces(std::string& text, const linalg::MeshMatrix<>& M, index_t begin, index_t end, bool normals = false) {
  text.reserve(text.size() + 2 * std::size_t(end - begin) +
               (normals ? 24 : 12) * std::size_t(M.offsets[end] - M.offsets[begin]));
  for (index_t f = begin; f < end; ++f) {
    text += 'f';
    for (index_t p = M.offsets[f]; p < M.offsets[f + 1]; ++p) {
      text += ' ', put_index(text, M.indices[p] + 1);
      if (normals) text += "//", put_index(text, M.indices[p] + 1);
    }
    text += '\n';
  }
}

template <class T>
void emit_vertices(std::ostream& out, const linalg::Dense<T>& positions, std::string_view kind = "v") {
  emit_in_parallel(out, positions.rows, vertex_line_bytes,
                   [&](std::string& text, index_t begin, index_t end) {
                     format_vertices(text, positions, begin, end, kind);
                   });
}

// An OBJ file: the vertices, their normals where given, the faces.
template <class T>
void emit_obj(std::ostream& out, const linalg::Dense<T>& positions, const linalg::MeshMatrix<>& M,
              const linalg::Dense<T>* normals = nullptr) {
  emit_vertices(out, positions);
  if (normals) emit_vertices(out, *normals, "vn");
  // A face line takes up to 12 bytes a corner (24 with normals), and 2 more.
  const std::size_t face_line_bytes =
      2 + (normals ? 24 : 12) * std::size_t(M.nnz() / std::max<index_t>(1, M.faces) + 1);
  emit_in_parallel(out, M.faces, face_line_bytes, [&](std::string& text, index_t begin, index_t end) {
    format_faces(text, M, begin, end, normals != nullptr);
  });
}

EncodedFaces encode_obj_faces(const linalg::MeshMatrix<>& M) {
  EncodedFaces out;
  out.format = MeshFormat::obj, out.vertices = M.vertices, out.faces = M.faces;
  const index_t blocks = (M.faces + tuning::obj_lines_per_block - 1) / tuning::obj_lines_per_block;
  out.blocks.resize(static_cast<std::size_t>(blocks));
#pragma omp parallel for schedule(dynamic)
  for (index_t b = 0; b < blocks; ++b)
    format_faces(out.blocks[static_cast<std::size_t>(b)], M, b * tuning::obj_lines_per_block,
                 std::min(M.faces, (b + 1) * tuning::obj_lines_per_block));
  return out;
}

template <class T>
void write_obj_file(const std::string& path, const linalg::Dense<T>& positions,
                    const linalg::MeshMatrix<>& M) {
  check_mesh_matrix(path, M, positions.rows, positions.cols);  // before any file exists
  check_finite(path, positions);
  write_atomically(path, [&](std::ostream& out) { emit_obj(out, positions, M); });
}

// The checks before an encoded file is written: positions that fit the faces, all finite.
template <class T>
void check_encoded(const std::string& source, const linalg::Dense<T>& positions, const EncodedFaces& faces) {
  if (positions.rows != faces.vertices || positions.cols != 3)
    throw DimensionError(source + ": positions are " + std::to_string(positions.rows) + " x " +
                         std::to_string(positions.cols) + ", the faces need " +
                         std::to_string(faces.vertices) + " x 3");
  check_finite(source, positions);
}

template <class T>
void emit_encoded_obj(std::ostream& out, const linalg::Dense<T>& positions, const EncodedFaces& faces) {
  emit_vertices(out, positions);
  for (const auto& block : faces.blocks) out.write(block.data(), static_cast<std::streamsize>(block.size()));
}

template <class T>
void write_encoded(std::ostream& out, const std::string& source, const linalg::Dense<T>& positions,
                   const EncodedFaces& faces) {
  check_encoded(source, positions, faces);
  if (faces.format == MeshFormat::ply) write_layout(out, ply_layout(positions, faces));
  else emit_encoded_obj(out, positions, faces);
}

template <class T>
void write_encoded(OutputFiles& outputs, const std::string& path, const std::string& source,
                   const linalg::Dense<T>& positions, const EncodedFaces& faces) {
  check_encoded(source, positions, faces);
  if (faces.format == MeshFormat::ply)
    outputs.write(path, ply_layout(positions, faces));
  else
    outputs.write(path, [&](std::ostream& out) { emit_encoded_obj(out, positions, faces); });
}

// A mesh file among a command's outputs: checked before its file is opened, PLY laid out
// (OutputFiles::write reserves its size, then fills its map), OBJ streamed.
template <class T>
void write_mesh_output(OutputFiles& outputs, const std::string& path, MeshFormat format,
                       const std::string& source, const linalg::Dense<T>& positions,
                       const linalg::MeshMatrix<>& M) {
  check_mesh_matrix(source, M, positions.rows, positions.cols);
  check_finite(source, positions);
  if (format == MeshFormat::ply)
    outputs.write(path, ply_layout(positions, M));
  else
    outputs.write(path, [&](std::ostream& out) { emit_obj(out, positions, M); });
}

template <class T>
void write_mesh_with_normals(OutputFiles& outputs, const std::string& path, MeshFormat format,
                             const std::string& source, const linalg::Dense<T>& positions,
                             const linalg::Dense<T>& normals, const linalg::MeshMatrix<>& M) {
  check_mesh_matrix(source, M, positions.rows, positions.cols);
  if (normals.rows != positions.rows || normals.cols != positions.cols)
    throw DimensionError(source + ": " + std::to_string(normals.rows) + " x " + std::to_string(normals.cols) +
                         " normals for " + std::to_string(positions.rows) + " x " +
                         std::to_string(positions.cols) + " positions");
  check_finite(source, positions);
  check_finite(source, normals);
  if (format == MeshFormat::ply)
    outputs.write(path, ply_layout(positions, normals, M));
  else
    outputs.write(path, [&](std::ostream& out) { emit_obj(out, positions, M, &normals); });
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
  const std::string ext = extension(path);
  if (ext == ".obj") return MeshFormat::obj;
  if (ext == ".ply") return MeshFormat::ply;
  // A device or pipe named without an extension (/dev/stdout, /dev/null) gets OBJ text.
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ext.empty() && (path.starts_with("/dev/") || path.starts_with("/proc/self/fd/") ||
                      std::filesystem::is_character_file(status) || std::filesystem::is_fifo(status)))
    return MeshFormat::obj;
  throw InputError(path + ": cannot write a mesh file with " + describe_extension(ext) +
                   " (spmesh writes .obj and .ply)");
}

template <class T>
void write_mesh_file(const std::string& path, const linalg::Dense<T>& positions,
                     const linalg::MeshMatrix<>& M) {
  if (output_format(path) == MeshFormat::obj)
    write_obj(path, positions, M);
  else
    write_ply(path, positions, M);
}

void write_mesh(const std::string& path, const linalg::Dense<double>& positions,
                const linalg::MeshMatrix<>& M) {
  write_mesh_file(path, positions, M);
}
void write_mesh(const std::string& path, const linalg::Dense<float>& positions,
                const linalg::MeshMatrix<>& M) {
  write_mesh_file(path, positions, M);
}

void write_mesh(std::ostream& out, MeshFormat format, const std::string& source,
                const linalg::Dense<double>& positions, const linalg::MeshMatrix<>& M) {
  write_mesh_to(out, format, source, positions, M);
}
void write_mesh(std::ostream& out, MeshFormat format, const std::string& source,
                const linalg::Dense<float>& positions, const linalg::MeshMatrix<>& M) {
  write_mesh_to(out, format, source, positions, M);
}

void write_mesh(OutputFiles& outputs, const std::string& path, MeshFormat format,
                const std::string& source, const linalg::Dense<double>& positions,
                const linalg::MeshMatrix<>& M) {
  write_mesh_output(outputs, path, format, source, positions, M);
}
void write_mesh(OutputFiles& outputs, const std::string& path, MeshFormat format,
                const std::string& source, const linalg::Dense<float>& positions,
                const linalg::MeshMatrix<>& M) {
  write_mesh_output(outputs, path, format, source, positions, M);
}

void write_mesh(OutputFiles& outputs, const std::string& path, const std::string& source,
                const linalg::Dense<double>& positions, const EncodedFaces& faces) {
  write_encoded(outputs, path, source, positions, faces);
}
void write_mesh(OutputFiles& outputs, const std::string& path, const std::string& source,
                const linalg::Dense<float>& positions, const EncodedFaces& faces) {
  write_encoded(outputs, path, source, positions, faces);
}

EncodedFaces encode_faces(MeshFormat format, const std::string& source, const linalg::MeshMatrix<>& M) {
  check_mesh_matrix(source, M, M.vertices, 3);
  return format == MeshFormat::ply ? encode_ply_faces(M) : encode_obj_faces(M);
}

void write_mesh(std::ostream& out, const std::string& source, const linalg::Dense<double>& positions,
                const EncodedFaces& faces) {
  write_encoded(out, source, positions, faces);
}
void write_mesh(std::ostream& out, const std::string& source, const linalg::Dense<float>& positions,
                const EncodedFaces& faces) {
  write_encoded(out, source, positions, faces);
}

void write_mesh(OutputFiles& outputs, const std::string& path, MeshFormat format, const std::string& source,
                const linalg::Dense<double>& positions, const linalg::Dense<double>& normals,
                const linalg::MeshMatrix<>& M) {
  write_mesh_with_normals(outputs, path, format, source, positions, normals, M);
}
void write_mesh(OutputFiles& outputs, const std::string& path, MeshFormat format, const std::string& source,
                const linalg::Dense<float>& positions, const linalg::Dense<float>& normals,
                const linalg::MeshMatrix<>& M) {
  write_mesh_with_normals(outputs, path, format, source, positions, normals, M);
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
