// Mesh files by extension (read_mesh, write_mesh), the OBJ writer, whole-file reading and the
// atomic file writing every writer goes through; includes each format's reader and writer.
#pragma once

#include "meshops/mesh.hpp"
#include "meshops/obj.hpp"
#include "meshops/off.hpp"
#include "meshops/ply.hpp"

#include <charconv>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace spmesh::meshops {

// Reads .obj, .off or .ply (the extension decides, in any letter case). Throws InputError for
// another extension and whatever the format's reader throws on malformed input.
PolyMesh read_mesh(const std::string& path);

// Writes .obj or .ply (the extension decides, in any letter case); double positions keep every
// bit, float positions are written as float (9 significant digits in OBJ, float32 in PLY).
void write_mesh(const std::string& path, const linalg::Dense<double>& positions,
                const linalg::MeshMatrix<>& M);
void write_mesh(const std::string& path, const linalg::Dense<float>& positions,
                const linalg::MeshMatrix<>& M);

// OBJ text: `v x y z` lines with max_digits10 significant digits (17 for double, 9 for float,
// so that reading back gives the same value), then `f` lines with 1-based indices. Throws
// DimensionError unless positions are M.vertices x 3, InputError for a face index out of range.
void write_obj(const std::string& path, const linalg::Dense<double>& positions,
               const linalg::MeshMatrix<>& M);
void write_obj(const std::string& path, const linalg::Dense<float>& positions,
               const linalg::MeshMatrix<>& M);
void write_obj(std::ostream& out, const linalg::Dense<double>& positions,
               const linalg::MeshMatrix<>& M);
void write_obj(std::ostream& out, const linalg::Dense<float>& positions,
               const linalg::MeshMatrix<>& M);

// The whole file as bytes; InputError naming the path if it is a directory or cannot be read.
std::string read_file(const std::string& path);

// Runs `body` on a stream into "path.tmp-XXXXXX" beside `path` and renames that over `path`
// only when everything was written, so `path` is never left half-written: any failure (an
// exception from `body`, a write error, a failed rename) removes the temporary file and throws.
// A directory that cannot be written to gives spmesh::Error naming the path.
void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& body);

// Pieces the text readers share.

// Splits off the next whitespace-separated token of `s`; empty when none is left.
std::string_view next_token(std::string_view& s);

// Parses all of `tok` as a number of type N; false if it is not one or does not fit.
template <class N>
bool parse_number(std::string_view tok, N& value) {
  auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), value);
  return ec == std::errc() && p == tok.data() + tok.size() && !tok.empty();
}

}  // namespace spmesh::meshops
