// The most host memory a command takes on its way (subdivide or build, on the CPU or the GPU),
// from the sizes of its levels, before any work: a term per buffer it holds, so the estimate
// stays a bound when a copy goes away. tests/apps/host_memory.sh checks it against the measured
// peak resident memory at every level of the benchmark meshes.
#pragma once

#include "linalg/mesh_matrix.hpp"
#include "schemes/size_estimate.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace spmesh::apps {

struct HostJob {
  bool build = false;            // build (a plan and R) or subdivide (build_and_eval)
  bool on_gpu = false;           // --device cuda: the executor's memory is the GPU's
  int scalar_bytes = 4;          // --precision: 4 or 8
  bool picture = false;          // --picture
  bool triangulated = false;     // --triangulate: the mesh is read, then made again
  std::int64_t file_bytes = 0;   // the input file, read whole
  std::int64_t crease_count = 0; // tagged edges (the sharpness matrix)
  int stencil_width = 0;         // the most base vertices one refined vertex depends on
};

// The bytes of each part; `bytes` is the bound: process + input + the largest phase + margin.
struct HostEstimate {
  std::int64_t bytes = 0;
  std::int64_t process = 0, input = 0, phase = 0, margin = 0;
  std::int64_t r_nonzeros = 0;  // build: the bound on R's non-zeros it assumed
};

// `size`: the executor's estimate of every level (estimate_size, not one_pass: both are used).
HostEstimate host_estimate(const schemes::SizeEstimate& size, const HostJob& job);

// The most base vertices a refined vertex can depend on, at any level: for Catmull-Clark and
// Loop, the vertices of the faces that share a vertex with the face it lies in (its patch: 2N+8
// for a quad at one vertex of valence N, 16 regular); sqrt3 flips edges, so a refined vertex
// can leave its face: `rings` 2 takes the faces that share a vertex with those.
int stencil_width(const linalg::MeshMatrix<>& M, int rings);

}  // namespace spmesh::apps
