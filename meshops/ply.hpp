// Stanford PLY reading (ascii and binary_little_endian 1.0) and writing (binary little endian).
#pragma once

#include "meshops/layout.hpp"
#include "meshops/mesh.hpp"

#include <ostream>
#include <string>
#include <string_view>

namespace spmesh::meshops {

// Reads element "vertex" (scalar properties x, y, z of any numeric type) and element "face"
// (a list property vertex_indices or vertex_index with integer count and index types); every
// other property and element, lists included, is skipped. Throws spmesh::InputError naming the
// file and where (header or ascii line, or binary byte offset, element and item) with the
// problem: bad header, binary_big_endian (unsupported), missing x/y/z or face list, truncated
// data (bytes needed and available), a face with fewer than 3 vertices, an index out of range,
// data after the last element (ascii: any token; binary: any byte but one final "\n" or "\r\n",
// which some writers add). A UTF-8 byte order mark is skipped; ascii lines end in "\n", "\r\n"
// or a lone "\r".
PolyMesh read_ply(const std::string& path);

// The same parser over bytes in memory; `name` stands in for the file name in messages.
PolyMesh parse_ply(std::string_view bytes, const std::string& name);

// Binary little endian PLY: "property double x" (float for Dense<float>) ..., then "property
// list uchar int vertex_indices", or "list int int" when a face has more than 255 vertices.
// Throws DimensionError unless positions are M.vertices x 3, InputError for an index out of
// range.
void write_ply(const std::string& path, const linalg::Dense<double>& positions,
               const linalg::MeshMatrix<>& M);
void write_ply(const std::string& path, const linalg::Dense<float>& positions,
               const linalg::MeshMatrix<>& M);
void write_ply(std::ostream& out, const linalg::Dense<double>& positions,
               const linalg::MeshMatrix<>& M);
void write_ply(std::ostream& out, const linalg::Dense<float>& positions,
               const linalg::MeshMatrix<>& M);

struct EncodedFaces;  // io.hpp

// M's face element, encoded once in parallel (encode_faces calls this for MeshFormat::ply).
EncodedFaces encode_ply_faces(const linalg::MeshMatrix<>& M);

// The file write_ply writes, as a layout over `positions` and `M` (or the encoded faces), which
// must outlive it; unchecked (write_mesh checks them).
FileLayout ply_layout(const linalg::Dense<double>& positions, const linalg::MeshMatrix<>& M);
FileLayout ply_layout(const linalg::Dense<float>& positions, const linalg::MeshMatrix<>& M);
// With a normal a vertex: "property double nx" ... after z, each vertex's normal after its position.
FileLayout ply_layout(const linalg::Dense<double>& positions, const linalg::Dense<double>& normals,
                      const linalg::MeshMatrix<>& M);
FileLayout ply_layout(const linalg::Dense<float>& positions, const linalg::Dense<float>& normals,
                      const linalg::MeshMatrix<>& M);
FileLayout ply_layout(const linalg::Dense<double>& positions, const EncodedFaces& faces);
FileLayout ply_layout(const linalg::Dense<float>& positions, const EncodedFaces& faces);

}  // namespace spmesh::meshops
