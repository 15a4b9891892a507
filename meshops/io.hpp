// Mesh files by extension (read_mesh, write_mesh), the OBJ writer, whole-file reading and the
// atomic file writing every writer goes through; includes each format's reader and writer.
#pragma once

#include "meshops/mesh.hpp"
#include "meshops/obj.hpp"
#include "meshops/off.hpp"
#include "meshops/output.hpp"
#include "meshops/ply.hpp"

#include <charconv>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

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

// A path's extension in lower case, with its dot (".obj"); "" when there is none.
std::string extension(const std::string& path);
// For messages: "extension '.stl'" or "no extension".
std::string describe_extension(const std::string& ext);

// The mesh formats spmesh writes.
enum class MeshFormat { obj, ply };

// The format `path`'s extension names, in any letter case (OBJ for a device or pipe without
// one, like /dev/stdout): a command asks before any work. InputError naming the path for
// another extension.
MeshFormat output_format(const std::string& path);

// Writes `format` to a stream (the caller owns the file: OutputFiles). Throws as write_obj and
// write_ply do, and InputError naming `source` and the first vertex with a coordinate that is
// not finite (nothing is written then).
void write_mesh(std::ostream& out, MeshFormat format, const std::string& source,
                const linalg::Dense<double>& positions, const linalg::MeshMatrix<>& M);
void write_mesh(std::ostream& out, MeshFormat format, const std::string& source,
                const linalg::Dense<float>& positions, const linalg::MeshMatrix<>& M);

// A mesh's faces in one format, encoded once for many files with the same faces (every pose of
// a replay): PLY's face element bytes or OBJ's `f` lines, in blocks to write in order.
struct EncodedFaces {
  MeshFormat format = MeshFormat::obj;
  index_t vertices = 0, faces = 0;  // the mesh they belong to
  bool wide_counts = false;         // PLY: int face sizes (a face of more than 255 vertices)
  std::vector<std::string> blocks;

  std::size_t bytes() const {
    std::size_t n = 0;
    for (const auto& b : blocks) n += b.size();
    return n;
  }
};

// M's faces in `format`, encoded in parallel. InputError naming `source` for a face index out
// of range.
EncodedFaces encode_faces(MeshFormat format, const std::string& source, const linalg::MeshMatrix<>& M);

// The same file as write_mesh(out, faces.format, source, positions, M) for the M `faces` was
// encoded from, with the faces' bytes copied, not formatted again. DimensionError unless
// positions are faces.vertices x 3; InputError naming `source` and the first vertex with a
// coordinate that is not finite (nothing is written then).
void write_mesh(std::ostream& out, const std::string& source, const linalg::Dense<double>& positions,
                const EncodedFaces& faces);
void write_mesh(std::ostream& out, const std::string& source, const linalg::Dense<float>& positions,
                const EncodedFaces& faces);

// Writes the output `path` of a command (added to `outputs` before) in `format`, checked as
// write_mesh(out, ...) checks before its file is opened: PLY through a layout (its size reserved
// first, then made with every thread and copied into the file's map: OutputFiles::write), OBJ
// as a stream.
void write_mesh(OutputFiles& outputs, const std::string& path, MeshFormat format,
                const std::string& source, const linalg::Dense<double>& positions,
                const linalg::MeshMatrix<>& M);
void write_mesh(OutputFiles& outputs, const std::string& path, MeshFormat format,
                const std::string& source, const linalg::Dense<float>& positions,
                const linalg::MeshMatrix<>& M);
// The same with a normal a vertex: OBJ's `vn` lines after the `v` lines, each face corner naming
// its vertex's (`f 1//1 2//2 3//3`); PLY's nx, ny, nz after each vertex's x, y, z. InputError
// naming `source` and the first vertex whose position or normal is not finite (nothing is
// written then).
void write_mesh(OutputFiles& outputs, const std::string& path, MeshFormat format, const std::string& source,
                const linalg::Dense<double>& positions, const linalg::Dense<double>& normals,
                const linalg::MeshMatrix<>& M);
void write_mesh(OutputFiles& outputs, const std::string& path, MeshFormat format, const std::string& source,
                const linalg::Dense<float>& positions, const linalg::Dense<float>& normals,
                const linalg::MeshMatrix<>& M);
// The same with the faces encoded once (encode_faces), for many outputs with the same faces.
void write_mesh(OutputFiles& outputs, const std::string& path, const std::string& source,
                const linalg::Dense<double>& positions, const EncodedFaces& faces);
void write_mesh(OutputFiles& outputs, const std::string& path, const std::string& source,
                const linalg::Dense<float>& positions, const EncodedFaces& faces);

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
// The whole of a regular file as bytes, read by its size. InputError naming the path for
// anything else: a directory, FIFO, socket or device (refused before any read, so a FIFO never
// blocks), an open or read error, a short read or a file that changed while being read, and
// an allocation failure (with the bytes needed). Never a shortened string.
std::string read_file(const std::string& path);

// Pieces the text readers share.

// Splits off the next whitespace-separated token of `s`; empty when none is left.
std::string_view next_token(std::string_view& s);

// `text` without the UTF-8 byte order mark some editors write at its start.
std::string_view skip_bom(std::string_view text);

// The line of `text` that starts at `pos`, without its end, and moves `pos` past that end: "\n",
// "\r\n" or a lone "\r" (old Mac OS), so line numbers are right for all three. Needs
// pos <= text.size(); the last line (possibly empty) leaves pos == text.size() + 1.
std::string_view next_line(std::string_view text, std::size_t& pos);

// Parses all of `tok` as a number of type N; false if it is not one or does not fit.
template <class N>
bool parse_number(std::string_view tok, N& value) {
  auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), value);
  return ec == std::errc() && p == tok.data() + tok.size() && !tok.empty();
}

}  // namespace spmesh::meshops
