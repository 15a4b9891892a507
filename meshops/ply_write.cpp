// The PLY writer: binary little endian, vertices then faces.
#include "meshops/ply.hpp"

#include "meshops/checks.hpp"
#include "meshops/io.hpp"

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

template <class T>
void emit_ply(std::ostream& out, const linalg::Dense<T>& positions, const linalg::MeshMatrix<>& M) {
  index_t max_order = 0;
  for (index_t f = 0; f < M.faces; ++f)
    max_order = std::max(max_order, M.offsets[f + 1] - M.offsets[f]);
  const bool wide = max_order > 255;  // a uchar count holds up to 255
  const std::string type = std::is_same_v<T, float> ? "float" : "double";
  std::string buf = "ply\nformat binary_little_endian 1.0\nelement vertex " +
                    std::to_string(positions.rows) + "\nproperty " + type + " x\nproperty " + type +
                    " y\nproperty " + type + " z\nelement face " + std::to_string(M.faces) +
                    "\nproperty list " + (wide ? "int" : "uchar") +
                    " int vertex_indices\nend_header\n";
  // Data goes out in chunks of about 1 MiB so a large mesh is never held twice in memory.
  constexpr std::size_t chunk = 1 << 20;
  auto item_done = [&] {
    if (buf.size() >= chunk) out.write(buf.data(), buf.size()), buf.clear();
  };
  for (index_t v = 0; v < positions.rows; ++v) {
    for (index_t c = 0; c < 3; ++c) store_le(buf, positions(v, c));
    item_done();
  }
  for (index_t f = 0; f < M.faces; ++f) {
    const index_t order = M.offsets[f + 1] - M.offsets[f];
    if (wide)
      store_le(buf, static_cast<std::int32_t>(order));
    else
      store_le(buf, static_cast<std::uint8_t>(order));
    for (index_t p = M.offsets[f]; p < M.offsets[f + 1]; ++p)
      store_le(buf, static_cast<std::int32_t>(M.indices[p]));
    item_done();
  }
  out.write(buf.data(), buf.size());
}

template <class T>
void write_ply_file(const std::string& path, const linalg::Dense<T>& positions,
                    const linalg::MeshMatrix<>& M) {
  check_mesh_matrix(path, M, positions.rows, positions.cols);  // before any file exists
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
