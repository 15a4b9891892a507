// The PLY writer: binary little endian, the vertices in one write, the faces encoded in
// parallel into exactly sized blocks and written in order while the next block is encoded; or
// encoded once (encode_faces) for many files with the same faces.
#include "meshops/ply.hpp"

#include "meshops/checks.hpp"
#include "meshops/emit.hpp"
#include "meshops/io.hpp"
#include "meshops/output.hpp"

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

// Appends faces [begin, end) of M as the face element's bytes: the text grows once, to its
// exact size (each face's place is known from the offsets), and the faces fill it in parallel.
void append_faces(std::string& bytes, const linalg::MeshMatrix<>& M, bool wide, index_t begin,
                  index_t end) {
  const std::size_t count_bytes = wide ? 4 : 1, at = bytes.size();
  const auto place = [&](index_t f) {
    return count_bytes * std::size_t(f - begin) + 4 * std::size_t(M.offsets[f] - M.offsets[begin]);
  };
  bytes.resize(at + place(end));
  char* out = bytes.data() + at;
#pragma omp parallel for schedule(static) if (end - begin > (1 << 14))
  for (index_t f = begin; f < end; ++f) {
    char* p = out + place(f);
    const index_t order = M.offsets[f + 1] - M.offsets[f];
    p = wide ? store_le(p, static_cast<std::int32_t>(order)) : store_le(p, static_cast<std::uint8_t>(order));
    for (index_t c = M.offsets[f]; c < M.offsets[f + 1]; ++c)
      p = store_le(p, static_cast<std::int32_t>(M.indices[c]));
  }
}

template <class T>
std::string header(index_t vertices, index_t faces, bool wide) {
  const std::string type = std::is_same_v<T, float> ? "float" : "double";
  return "ply\nformat binary_little_endian 1.0\nelement vertex " + std::to_string(vertices) +
         "\nproperty " + type + " x\nproperty " + type + " y\nproperty " + type +
         " z\nelement face " + std::to_string(faces) + "\nproperty list " +
         (wide ? "int" : "uchar") + " int vertex_indices\nend_header\n";
}

// The vertex element: on a little-endian host the positions, row by row, are its bytes already.
template <class T>
void write_vertices(std::ostream& out, const linalg::Dense<T>& positions) {
  if constexpr (std::endian::native == std::endian::little) {
    out.write(reinterpret_cast<const char*>(positions.data.data()),
              static_cast<std::streamsize>(sizeof(T) * positions.data.size()));
  } else {
    emit_in_parallel(out, positions.rows, 3 * sizeof(T), [&](std::string& bytes, index_t begin, index_t end) {
      bytes.resize(3 * sizeof(T) * std::size_t(end - begin));
      char* p = bytes.data();
      for (index_t v = begin; v < end; ++v)
        for (index_t c = 0; c < 3; ++c) p = store_le(p, positions(v, c));
    });
  }
}

template <class T>
void emit_ply(std::ostream& out, const linalg::Dense<T>& positions, const linalg::MeshMatrix<>& M) {
  const bool wide = wide_counts(M);
  const std::string head = header<T>(positions.rows, M.faces, wide);
  out.write(head.data(), static_cast<std::streamsize>(head.size()));
  write_vertices(out, positions);
  // One block at a time, encoded with every thread while the one before is written.
  std::vector<std::string> blocks[2] = {std::vector<std::string>(1), std::vector<std::string>(1)};
  BackgroundWriter writer(out);
  int current = 0;
  for (index_t begin = 0; begin < M.faces; begin += tuning::ply_faces_per_block, current ^= 1) {
    std::string& block = blocks[current][0];
    block.clear();
    append_faces(block, M, wide, begin, std::min(M.faces, begin + tuning::ply_faces_per_block));
    writer.write(blocks[current], 1);
  }
  writer.wait();
}

template <class T>
void write_ply_file(const std::string& path, const linalg::Dense<T>& positions,
                    const linalg::MeshMatrix<>& M) {
  check_mesh_matrix(path, M, positions.rows, positions.cols);  // before any file exists
  check_finite(path, positions);
  write_atomically(path, [&](std::ostream& out) { emit_ply(out, positions, M); });
}

template <class T>
void write_encoded(std::ostream& out, const linalg::Dense<T>& positions, const EncodedFaces& faces) {
  const std::string head = header<T>(positions.rows, faces.faces, faces.wide_counts);
  out.write(head.data(), static_cast<std::streamsize>(head.size()));
  write_vertices(out, positions);
  for (const auto& block : faces.blocks) out.write(block.data(), static_cast<std::streamsize>(block.size()));
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

void write_ply(std::ostream& out, const linalg::Dense<double>& positions, const EncodedFaces& faces) {
  write_encoded(out, positions, faces);
}
void write_ply(std::ostream& out, const linalg::Dense<float>& positions, const EncodedFaces& faces) {
  write_encoded(out, positions, faces);
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
  emit_ply(out, positions, M);
}
void write_ply(std::ostream& out, const linalg::Dense<float>& positions,
               const linalg::MeshMatrix<>& M) {
  check_mesh_matrix("PLY output", M, positions.rows, positions.cols);
  emit_ply(out, positions, M);
}

}  // namespace spmesh::meshops
