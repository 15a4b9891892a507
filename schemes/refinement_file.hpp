// A refinement saved for replay (design.md "Build, eval, replay"): the refinement matrix R as a
// stencil table (linalg/stencil_csr.hpp) with the base mesh, its sharpness and the options it
// was built with, in a versioned binary file, so an animation pipeline builds once and replays
// every frame as P_L = R P_0.
//
// File layout, versions 2 to 4 (little endian; every section starts at a multiple of 8 bytes, its
// padding zero):
//   header, 176 bytes:
//     magic "SPMESH-R" (8), u32 version (2), u32 scalar bytes (4 float, 8 double),
//     char scheme[32] (zero padded), u32 levels, u32 boundary, u32 crease method,
//     u32 column bytes (2 where R has at most 65536 columns, else 4),
//     u32 stencil id bytes (2 where there are at most 65536 stencils, else 4),
//     u32 vertex rule (Catmull-Clark solids' solids::VertexRule; 0 for surfaces),
//     i64 R's rows, cols, nnz, stencils, table length,
//     i64 base vertices, faces, face corners, sharp edges, u64 refined mesh hash,
//     i64 refined vertices, faces, face corners;
//     versions 3 and 4 (184 bytes): i64 face stream length; version 4 (192 bytes): i64 hole
//     flags (the base faces).
// Version 3 is a Catmull-Clark solid whose base cells include polyhedra given by their faces
// (solids/cells.hpp's face arrays), version 4 a surface with holes (schemes/holes.hpp); every
// other refinement is written as version 2.
//   sections, in this order:
//     stencil lengths   i32[stencils]     stencil s is table[start_s, start_s + length_s),
//                                         start_s the sum of the lengths before it
//     table             scalar[table length]
//     stencil ids       u16|u32[rows]     row o's stencil
//     columns           u16|u32[nnz]      row o's columns, in its stencil's order
//     base offsets      i32[faces + 1], base indices i32[face corners]
//     (version 3 only)  face offsets i32[faces + 1], face streams i32[face stream length]
//     (version 4 only)  hole flags u8[faces], 1 for a hole
//     sharp edges       i32 rows[n], i32 cols[n], f32 values[n]; vertex sharpness f32[vertices]
//   u64 checksum: the header's and each section's 64-bit hash (content_hash) combined in order.
// Loading reads each section straight into its array; R's row offsets and shifts are one prefix
// sum over the stencil ids. The refined mesh is not stored: load rebuilds it from the base mesh,
// its sharpness and the options (the scheme's build, deterministic) and refuses the file if its
// hash differs from the stored one (a file from another spmesh version).
//
// Checks on load, each an InputError naming the file and the place: magic and version (version
// 1 files: rebuild with this spmesh), every size against the file length before anything is
// allocated, the checksum, stencil lengths, ids, columns and mesh indices in range, every
// weight and sharpness finite, and the rebuilt refined mesh's hash.
#pragma once

#include "linalg/formats.hpp"
#include "linalg/mesh_matrix.hpp"
#include "linalg/stencil_csr.hpp"
#include "schemes/creasing.hpp"
#include "schemes/tags.hpp"

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace spmesh::schemes {

// R as a stencil table: 16-bit columns where R has at most 65536 columns, else 32-bit.
template <class T, class S = linalg::Host>
using RefinementMatrix = std::variant<linalg::StencilCsr<T, std::uint16_t, S>,
                                      linalg::StencilCsr<T, std::uint32_t, S>>;

// R (any CSR) encoded on `exec` with the narrowest column type that numbers its columns.
template <class Exec, class T, class S>
RefinementMatrix<T, S> encode_refinement(Exec& exec, const linalg::Csr<T, S>& R) {
  if (R.cols <= 65536) return linalg::encode_stencils<std::uint16_t>(exec, R);
  return linalg::encode_stencils<std::uint32_t>(exec, R);
}

// The scheme name of Catmull-Clark solids' refinements: the base and refined "faces" are cells,
// the sharp edges vertex pairs on the boundary surface, and solids/refinement_file.hpp checks
// and rebuilds the refined cells.
inline constexpr const char* solid_scheme = "ccsolid";

template <class T>
struct Refinement {
  std::string scheme;  // "catmark", ..., solid_scheme
  int levels = 0;
  Options options;
  RefinementMatrix<T> R;         // refined vertices x base vertices
  linalg::MeshMatrix<> base;     // the topology R applies to
  Sharpness<> sharpness;         // the base mesh's creases and corners
  linalg::MeshMatrix<> refined;  // the topology R produces
  int vertex_rule = 0;           // solid_scheme's solids::VertexRule
  // A solid's polyhedra (solids::CellMesh's face arrays of the base cells); empty without.
  linalg::Array<index_t> base_face_offsets{}, base_face_streams{};
  // A surface's holes (TagSettings::holes, a flag a base face); empty without. `refined` keeps
  // the holes' descendants (R's rows are every refined vertex); without_holes leaves them out.
  std::vector<char> holes{};
};

// R's shape, whichever its column type.
template <class T, class S>
index_t rows(const RefinementMatrix<T, S>& R) {
  return std::visit([](const auto& A) { return A.rows; }, R);
}
template <class T, class S>
index_t cols(const RefinementMatrix<T, S>& R) {
  return std::visit([](const auto& A) { return A.cols; }, R);
}
template <class T, class S>
index_t nnz(const RefinementMatrix<T, S>& R) {
  return std::visit([](const auto& A) { return A.nnz(); }, R);
}

// A 64-bit hash of a mesh's topology (vertex count, offsets, indices): the refined mesh's
// fingerprint in the file.
std::uint64_t topology_hash(const linalg::MeshMatrix<>& M);

// The checksum a version 2, 3 or 4 file's last 8 bytes must hold, from its header and sections (for
// tools and tests that edit a file's bytes). InputError if the header is not a valid one.
std::uint64_t refinement_checksum(std::string_view bytes);

// The file's bytes for r.
template <class T>
std::size_t refinement_file_size(const Refinement<T>& r);

// The file's bytes for r, written to a stream in large blocks (the caller owns the file:
// meshops::OutputFiles). Throws Error for an r no file can hold (a too long scheme name).
template <class T>
void write_refinement(std::ostream& out, const Refinement<T>& r);

// Writes to a temporary file next to `path` and renames it into place (meshops::
// write_atomically): a failed save leaves no file behind. Throws Error naming the path.
template <class T>
void save_refinement(const std::string& path, const Refinement<T>& r);

// Reads a file written by save_refinement with either scalar type, converting weights to T,
// and rebuilds its refined mesh on the CPU (load_refinement_parts, then rebuild_refined);
// InputError naming the path and the problem for anything but such a file.
template <class T>
Refinement<T> load_refinement(const std::string& path);

// The same from the bytes of a whole file; `name` stands for the file in messages.
template <class T>
Refinement<T> parse_refinement(std::string_view bytes, const std::string& name);

// What a file stores of the refined mesh R produces: its sizes and hash, enough to check a
// mesh rebuilt from the base mesh wherever that runs (the CPU, or a GPU's build).
struct RefinedMeshCheck {
  std::string file;  // the file, for messages
  std::int64_t vertices = 0, faces = 0, corners = 0;
  std::uint64_t hash = 0;

  // Throws InputError naming the file unless `refined` is the mesh the file was saved with.
  void check(const linalg::MeshMatrix<>& refined) const;
};

// A file's scheme and sizes from its header alone (checked as load checks it), for a caller
// that picks its path and sizes its work before loading: R's rows, columns, non-zeros, table length and scalar bytes, and
// the base and refined meshes' vertices, faces and face corners.
struct RefinementShape {
  std::string scheme;
  std::int64_t rows = 0, cols = 0, nnz = 0, table = 0;
  int scalar_bytes = 0, column_bytes = 0;
  std::int64_t base_vertices = 0, base_faces = 0, base_corners = 0;
  std::int64_t refined_vertices = 0, refined_faces = 0, refined_corners = 0;
  std::int64_t file_bytes = 0;
};
RefinementShape refinement_shape(const std::string& path);

// A file's parts as stored and checked, its refined mesh not yet rebuilt (r.refined is empty):
// for a caller that rebuilds it elsewhere or alongside other work, then calls refined.check.
template <class T>
struct StoredRefinement {
  Refinement<T> r;
  RefinedMeshCheck refined;
};

template <class T>
StoredRefinement<T> load_refinement_parts(const std::string& path);
template <class T>
StoredRefinement<T> parse_refinement_parts(std::string_view bytes, const std::string& name);

// r's refined mesh rebuilt on the CPU by the scheme's build from r's base mesh, its sharpness
// and the options, and checked: InputError naming check.file if the build fails or its result
// is not the mesh the file was saved with (a file from another spmesh version).
template <class T>
linalg::MeshMatrix<> rebuild_refined(const Refinement<T>& r, const RefinedMeshCheck& check);

}  // namespace spmesh::schemes
