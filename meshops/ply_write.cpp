// The PLY writer: binary little endian, the vertices in one write, the faces formatted in
// parallel and written in order.
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

// Appends T's little-endian bytes, on any host.
template <class T>
void store_le(std::string& buf, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof b);
  if constexpr (std::endian::native == std::endian::big) std::reverse(b, b + sizeof b);
  buf.append(b, sizeof b);
}

// Faces of a block per task (about 1 MiB of quads).
constexpr index_t faces_per_block = 1 << 16;

template <class T>
void emit_ply(std::ostream& out, const linalg::Dense<T>& positions, const linalg::MeshMatrix<>& M) {
  index_t max_order = 0;
#pragma omp parallel for reduction(max : max_order) schedule(static)
  for (index_t f = 0; f < M.faces; ++f) max_order = std::max(max_order, M.offsets[f + 1] - M.offsets[f]);
  const bool wide = max_order > 255;  // a uchar count holds up to 255
  const std::string type = std::is_same_v<T, float> ? "float" : "double";
  const std::string header = "ply\nformat binary_little_endian 1.0\nelement vertex " +
                             std::to_string(positions.rows) + "\nproperty " + type +
                             " x\nproperty " + type + " y\nproperty " + type +
                             " z\nelement face " + std::to_string(M.faces) + "\nproperty list " +
                             (wide ? "int" : "uchar") + " int vertex_indices\nend_header\n";
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  // The positions, row by row, are already the vertex element's bytes on a little-endian host.
  if constexpr (std::endian::native == std::endian::little) {
    out.write(reinterpret_cast<const char*>(positions.data.data()),
              static_cast<std::streamsize>(sizeof(T) * positions.data.size()));
  } else {
    emit_in_parallel(out, positions.rows, faces_per_block, [&](std::string& bytes, index_t begin, index_t end) {
      for (index_t v = begin; v < end; ++v)
        for (index_t c = 0; c < 3; ++c) store_le(bytes, positions(v, c));
    });
  }
  emit_in_parallel(out, M.faces, faces_per_block, [&](std::string& bytes, index_t begin, index_t end) {
    for (index_t f = begin; f < end; ++f) {
      const index_t order = M.offsets[f + 1] - M.offsets[f];
      if (wide)
        store_le(bytes, static_cast<std::int32_t>(order));
      else
        store_le(bytes, static_cast<std::uint8_t>(order));
      for (index_t p = M.offsets[f]; p < M.offsets[f + 1]; ++p)
        store_le(bytes, static_cast<std::int32_t>(M.indices[p]));
    }
  });
}

template <class T>
void write_ply_file(const std::string& path, const linalg::Dense<T>& positions,
                    const linalg::MeshMatrix<>& M) {
  check_mesh_matrix(path, M, positions.rows, positions.cols);  // before any file exists
  check_finite(path, positions);
  write_atomically(path, [&](std::ostream& out) { emit_ply(out, positions, M); });
}

}  // namespace

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
