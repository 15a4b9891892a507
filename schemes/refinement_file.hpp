// A refinement saved for replay (design.md "Build, eval, replay"): the refinement matrix R with
// the base mesh it applies to and the refined mesh it produces, in a versioned binary file, so
// an animation pipeline builds once and replays every frame as P_L = R P_0.
//
// File layout (little endian), version 1:
//   magic "SPMESH-R" (8 bytes), u32 version, u32 scalar bytes (4 float, 8 double),
//   u32 scheme length, scheme name, u32 levels, u32 boundary, u32 crease method,
//   R: i32 rows, i32 cols, i32 nnz, offsets (rows + 1 i32), indices (nnz i32), values (nnz),
//   base and refined mesh matrices: i32 vertices, i32 faces, i32 nnz, offsets, indices,
//   u64 FNV-1a hash of every byte before it.
// Loading checks the magic, version, sizes against the file length, the hash, and that R's
// offsets and indices and both meshes are well formed, naming the file and the problem.
#pragma once

#include "linalg/formats.hpp"
#include "linalg/mesh_matrix.hpp"
#include "schemes/creasing.hpp"

#include <string>

namespace spmesh::schemes {

template <class T>
struct Refinement {
  std::string scheme;  // "catmark", ...
  int levels = 0;
  Options options;
  linalg::Csr<T> R;            // refined vertices x base vertices
  linalg::MeshMatrix<> base;   // the topology R applies to
  linalg::MeshMatrix<> refined;
};

// Writes to a temporary file next to `path` and renames it into place: a failed save leaves no
// file behind. Throws Error naming the path.
template <class T>
void save_refinement(const std::string& path, const Refinement<T>& r);

// Reads a file written by save_refinement with either scalar type, converting values to T.
template <class T>
Refinement<T> load_refinement(const std::string& path);

}  // namespace spmesh::schemes
