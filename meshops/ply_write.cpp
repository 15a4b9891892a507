// The PLY writer: binary little endian, laid out (layout.hpp) as the header, the vertices (the
// positions' own bytes) and the faces, each face encoded where it lands in the file; or the faces
// encoded once (encode_faces) into blocks for many files with the same faces.
#include "meshops/ply.hpp"

#include "meshops/checks.hpp"
#include "meshops/layout.hpp"
#include "meshops/io.hpp"
#include "meshops/output.hpp"
#include "meshops/tuning.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

namespace spmesh::meshops {

namespace {

// Stores T's little-endian bytes at p, on any host.
template <class T>
char* store_le(char* p, T v) {
  std::memcpy(p, &v, sizeof v);
  if constexpr (std::endian::native == std::endian::big) std::reverse(p, p + sizeof v);
  return p + sizeof v;
}


// True when some face has more than 255 vertices: a uchar count does not hold it.
bool wide_counts(const linalg::MeshMatrix<>& M) {
  index_t max_order = 0;
#pragma omp parallel for reduction(max : max_order) schedule(static)
  for (index_t f = 0; f < M.faces; ++f) max_order = std::max(max_order, M.offsets[f + 1] - M.offsets[f]);
  return max_order > 255;
}

// Face f's record: its count (uchar or, wide, int), then its indices as int.
char* encode_face(char* p, const linalg::MeshMatrix<>& M, bool wide, index_t f) {
  const index_t order = M.offsets[f + 1] - M.offsets[f];
  p = wide ? store_le(p, static_cast<std::int32_t>(order)) : store_le(p, static_cast<std::uint8_t>(order));
  for (index_t c = M.offsets[f]; c < M.offsets[f + 1]; ++c) p = store_le(p, static_cast<std::int32_t>(M.indices[c]));
  return p;
}

// Where face f's record starts among faces [begin, ...): each face's place is known from the
// offsets, so faces can be encoded in parallel.
std::size_t face_place(const linalg::MeshMatrix<>& M, bool wide, index_t begin, index_t f) {
  return (wide ? 4 : 1) * std::size_t(f - begin) + 4 * std::size_t(M.offsets[f] - M.offsets[begin]);
}

// Appends faces [begin, end) of M as the face element's bytes: the text grows once, to its
// exact size, and the faces fill it in parallel.
void append_faces(std::string& bytes, const linalg::MeshMatrix<>& M, bool wide, index_t begin,
                  index_t end) {
  const std::size_t at = bytes.size();
  bytes.resize(at + face_place(M, wide, begin, end));
  char* out = bytes.data() + at;
#pragma omp parallel for schedule(static) if (end - begin > (1 << 14))
  for (index_t f = begin; f < end; ++f) encode_face(out + face_place(M, wide, begin, f), M, wide, f);
}

template <class T>
std::string header(index_t vertices, index_t faces, bool wide, bool normals) {
  const std::string type = std::is_same_v<T, float> ? "float" : "double";
  std::string properties;
  for (const char* name : {"x", "y", "z", "nx", "ny", "nz"}) {
    if (name[0] == 'n' && !normals) break;
    properties += "property " + type + " " + name + "\n";
  }
  return "ply\nformat binary_little_endian 1.0\nelement vertex " + std::to_string(vertices) + "\n" + properties +
         "element face " + std::to_string(faces) + "\nproperty list " + (wide ? "int" : "uchar") +
         " int vertex_indices\nend_header\n";
}

// The header and the vertex element: on a little-endian host the positions, row by row, are
// its bytes already; with normals, each vertex's position then its normal.
template <class T>
FileLayout header_and_vertices(const linalg::Dense<T>& positions, const linalg::Dense<T>* normals, index_t faces,
                               bool wide) {
  FileLayout layout;
  std::string head = header<T>(positions.rows, faces, wide, normals != nullptr);
  const std::size_t head_bytes = head.size();
  layout.add(head_bytes, [head = std::move(head)](char* out, std::size_t begin, std::size_t end) {
    std::memcpy(out, head.data() + begin, end - begin);
  });
  if (normals) {
    layout.add_records(
        positions.rows, [](index_t v) { return 6 * sizeof(T) * std::size_t(v); },
        [&positions, normals](char* out, index_t v) {
          for (const auto* block : {&positions, normals})
            for (index_t c = 0; c < 3; ++c) out = store_le(out, (*block)(v, c));
        });
  } else if constexpr (std::endian::native == std::endian::little) {
    layout.add_bytes(positions.data.data(), sizeof(T) * positions.data.size());
  } else {
    layout.add_records(
        positions.data.size(), [](index_t i) { return sizeof(T) * std::size_t(i); },
        [&positions](char* out, index_t i) { store_le(out, positions.data[i]); });
  }
  return layout;
}

template <class T>
FileLayout layout_ply(const linalg::Dense<T>& positions, const linalg::MeshMatrix<>& M,
                      const linalg::Dense<T>* normals = nullptr) {
  const bool wide = wide_counts(M);
  FileLayout layout = header_and_vertices(positions, normals, M.faces, wide);
  layout.add_records(
      M.faces, [&M, wide](index_t f) { return face_place(M, wide, 0, f); },
      [&M, wide](char* out, index_t f) { encode_face(out, M, wide, f); });
  return layout;
}

template <class T>
FileLayout layout_encoded(const linalg::Dense<T>& positions, const EncodedFaces& faces) {
  FileLayout layout = header_and_vertices<T>(positions, nullptr, faces.faces, faces.wide_counts);
  for (const auto& block : faces.blocks) layout.add_bytes(block.data(), block.size());
  return layout;
}

template <class T>
void write_ply_file(const std::string& path, const linalg::Dense<T>& positions,
                    const linalg::MeshMatrix<>& M) {
  check_mesh_matrix(path, M, positions.rows, positions.cols);  // before any file exists
  check_finite(path, positions);
  write_atomically(path, layout_ply(positions, M));
}

}  // namespace

EncodedFaces encode_ply_faces(const linalg::MeshMatrix<>& M) {
  EncodedFaces out;
  out.format = MeshFormat::ply, out.vertices = M.vertices, out.faces = M.faces;
  out.wide_counts = wide_counts(M);
  const index_t blocks = (M.faces + tuning::ply_faces_per_block - 1) / tuning::ply_faces_per_block;
  out.blocks.resize(static_cast<std::size_t>(blocks));
#pragma omp parallel for schedule(dynamic)
  for (index_t b = 0; b < blocks; ++b)
    append_faces(out.blocks[static_cast<std::size_t>(b)], M, out.wide_counts, b * tuning::ply_faces_per_block,
                 std::min(M.faces, (b + 1) * tuning::ply_faces_per_block));
  return out;
}

FileLayout ply_layout(const linalg::Dense<double>& positions, const linalg::MeshMatrix<>& M) {
  return layout_ply(positions, M);
}
FileLayout ply_layout(const linalg::Dense<float>& positions, const linalg::MeshMatrix<>& M) {
  return layout_ply(positions, M);
}
FileLayout ply_layout(const linalg::Dense<double>& positions, const linalg::Dense<double>& normals,
                      const linalg::MeshMatrix<>& M) {
  return layout_ply(positions, M, &normals);
}
FileLayout ply_layout(const linalg::Dense<float>& positions, const linalg::Dense<float>& normals,
                      const linalg::MeshMatrix<>& M) {
  return layout_ply(positions, M, &normals);
}
FileLayout ply_layout(const linalg::Dense<double>& positions, const EncodedFaces& faces) {
  return layout_encoded(positions, faces);
}
FileLayout ply_layout(const linalg::Dense<float>& positions, const EncodedFaces& faces) {
  return layout_encoded(positions, faces);
}

void write_ply(const std::string& path, const linalg::Dense<double>& positions,
               const linalg::MeshMatrix<>& M) {
  write_ply_file(path, positions, M);
}
void write_ply(const std::string& path, const linalg::Dense<float>& positions,
               const linalg::MeshMatrix<>& M) {
  write_ply_file(path, positions, M);
}

void write_ply(std::ostream& out, const linalg::Dense<double>& positions,
               const linalg::MeshMatrix<>& M) {
  check_mesh_matrix("PLY output", M, positions.rows, positions.cols);
  write_layout(out, layout_ply(positions, M));
}
void write_ply(std::ostream& out, const linalg::Dense<float>& positions,
               const linalg::MeshMatrix<>& M) {
  check_mesh_matrix("PLY output", M, positions.rows, positions.cols);
  write_layout(out, layout_ply(positions, M));
}

}  // namespace spmesh::meshops
