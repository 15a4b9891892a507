// The OBJ writer: vertex and face lines formatted in parallel and written in order.
#include "meshops/io.hpp"

#include "meshops/checks.hpp"
#include "meshops/emit.hpp"
#include "meshops/output.hpp"

#include <charconv>
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
  write_atomically(path, [&](std::ostream& out) { emit_obj(out, positions, M); });
}

}  // namespace

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
