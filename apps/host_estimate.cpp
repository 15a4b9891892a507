// The host memory a command takes at most (host_estimate.hpp): each term names the buffer it
// counts and where it is made.
#include "apps/host_estimate.hpp"

#include "meshops/tuning.hpp"

#include <algorithm>
#include <vector>

namespace spmesh::apps {

namespace {

using Counts = schemes::SizeEstimate::Counts;
constexpr std::int64_t MiB = std::int64_t(1) << 20;

// A host mesh matrix: offsets per face and an index per corner (linalg::MeshMatrix).
std::int64_t mesh_bytes(const Counts& c) { return 4 * (c.faces + 1) + 4 * c.corners; }
// A CSR matrix of `rows` rows with `nnz` entries of `value_bytes` each (linalg::Csr).
std::int64_t csr_bytes(std::int64_t rows, std::int64_t nnz, int value_bytes) {
  return 4 * (rows + 1) + (4 + value_bytes) * nnz;
}

}  // namespace

HostEstimate host_estimate(const schemes::SizeEstimate& size, const HostJob& job) {
  const Counts& base = size.levels.front();
  const Counts& last = size.levels.back();
  const int s = job.scalar_bytes;
  HostEstimate e;
  // The spmesh binary, its libraries, stacks and stdio buffers (about 4 MiB measured, 8 kept).
  e.process = 8 * MiB;

  // The input, held to the end: the file read whole (meshops::read_file) and the arrays parsed
  // from it, up to twice while their vectors grow; the PolyMesh (double positions, M) and, with
  // --triangulate, the mesh before it; its sharpness (a COO entry per tagged edge, a float per
  // vertex); the float or double copy P0 of its positions.
  const std::int64_t poly_mesh = 24 * base.vertices + mesh_bytes(base);
  const std::int64_t sharpness = 12 * job.crease_count + 4 * base.vertices;
  const std::int64_t p0 = 3 * s * base.vertices;
  e.input = job.file_bytes + 2 * poly_mesh + (job.triangulated ? poly_mesh : 0) + poly_mesh +
            sharpness + p0;

  // subdivide's output: the refined mesh matrix and its vertex data (T, V x 3); the writers'
  // buffers (meshops/emit.hpp: two batches of emit_batch_bytes, whatever the thread count; PLY,
  // meshops/layout.hpp: a window made in memory and one of the file mapped, or two streamed; the
  // stream's 1 MiB); --picture's arrays (apps/picture.cpp: 48 bytes a vertex, 12 a face).
  const std::int64_t refined_mesh = mesh_bytes(last), data = 3 * s * last.vertices;
  const std::int64_t writer = 2 * std::int64_t(meshops::tuning::emit_batch_bytes) +
                              2 * std::int64_t(meshops::tuning::layout_window_bytes) + MiB;
  const std::int64_t picture = job.picture ? 48 * last.vertices + 12 * last.faces : 0;
  // The download (apps/pipeline.hpp: subdivide, refined_mesh): the data copied once, the mesh's
  // arrays copied to a host RefinedMesh and again by its mesh(); on the CPU the executor's
  // result is held beside them.
  const std::int64_t download = data + 2 * refined_mesh;
  const std::int64_t executor_result = data + refined_mesh;

  if (!job.build) {
    // subdivide (apps/pipeline.hpp). On the CPU: the executor's copies of M, the sharpness and
    // P (Transfer<cpu>::up), then build_and_eval (its one-pass estimate, with its margin), or
    // after it its result and the download. On the GPU only the download is on the host.
    const std::int64_t exec_phase =
        mesh_bytes(base) + sharpness + p0 +
        std::max(size.one_pass().bytes, executor_result + download);
    e.phase = (job.on_gpu ? download : exec_phase) + writer + picture;
  } else {
    // build: R = S_L ... S_1 composed in double. Its non-zeros at level l are at most a
    // stencil width per row (stencil_width), S_l's at most (1 + 2 c) per parent corner of a
    // face of order c (a face point per corner, the vertices of two faces per edge and vertex
    // point).
    const int levels = int(size.levels.size()) - 1;
    auto r_nnz = [&](int l) { return size.levels[l].vertices * std::int64_t(job.stencil_width); };
    e.r_nonzeros = levels == 0 ? last.vertices : r_nnz(levels);
    const std::int64_t r_final = csr_bytes(last.vertices, e.r_nonzeros, s);
    const std::int64_t meshes = mesh_bytes(base) + mesh_bytes(last);  // Refinement's base, refined
    // The file's bytes as written now (schemes/refinement_file.cpp: a header, R's arrays, both
    // meshes, a checksum), held whole while written and up to twice while its buffer grows; a
    // compressed R (a stencil table) only makes it smaller.
    const std::int64_t file = 256 + r_final + meshes + 2 * 12;
    const std::int64_t save = r_final + meshes + 2 * file;
    if (job.on_gpu) {
      e.phase = save;
    } else {
      // The plan: every level's operators and the refined mesh (estimate_size's bytes, with
      // its margin), and the executor's copy of M and the sharpness.
      const std::int64_t plan = size.bytes + mesh_bytes(base) + sharpness;
      std::int64_t compose = 0;
      for (int l = 1; l <= levels; ++l) {
        const Counts& parent = size.levels[l - 1];
        const std::int64_t order = l == 1 ? std::max<std::int64_t>(4, job.stencil_width) : 4;
        const std::int64_t s_nnz = parent.corners * (1 + 2 * order);
        compose = std::max(compose, csr_bytes(size.levels[l].vertices, s_nnz, 8) +
                                        (l > 1 ? csr_bytes(parent.vertices, r_nnz(l - 1), 8) : 0) +
                                        csr_bytes(size.levels[l].vertices, r_nnz(l), 8));
      }
      // After it: R in double while cast to T, R in T and its download copy
      // (Transfer<cpu>::down), the Refinement's meshes.
      const std::int64_t finish = csr_bytes(last.vertices, e.r_nonzeros, 8) + 2 * r_final + meshes;
      e.phase = std::max(plan + std::max(compose, finish), save);
    }
  }
  // Freed memory the allocator keeps (glibc returns blocks over its mmap threshold, which
  // grows up to 32 MiB, and keeps smaller ones): an eighth of the rest and 16 MiB.
  e.margin = (e.process + e.input + e.phase) / 8 + 16 * MiB;
  e.bytes = e.process + e.input + e.phase + e.margin;
  return e;
}

int stencil_width(const linalg::MeshMatrix<>& M, int rings) {
  const index_t V = M.vertices, F = M.faces;
  // The faces around each vertex (M transposed).
  std::vector<index_t> start(V + 1, 0), faces(M.nnz());
  for (index_t p = 0; p < M.nnz(); ++p) ++start[M.indices[p] + 1];
  for (index_t v = 0; v < V; ++v) start[v + 1] += start[v];
  std::vector<index_t> fill(start.begin(), start.end() - 1);
  for (index_t f = 0; f < F; ++f)
    for (index_t p = M.offsets[f]; p < M.offsets[f + 1]; ++p) faces[fill[M.indices[p]]++] = f;

  std::vector<index_t> seen(V, -1), ring, next;
  std::size_t widest = 0;
  for (index_t f = 0; f < F; ++f) {
    ring.assign(M.indices.begin() + M.offsets[f], M.indices.begin() + M.offsets[f + 1]);
    for (index_t v : ring) seen[v] = f;
    std::size_t count = ring.size();
    for (int r = 0; r < rings; ++r) {
      next.clear();
      for (index_t v : ring)
        for (index_t q = start[v]; q < start[v + 1]; ++q)
          for (index_t p = M.offsets[faces[q]]; p < M.offsets[faces[q] + 1]; ++p)
            if (const index_t w = M.indices[p]; seen[w] != f) seen[w] = f, next.push_back(w);
      count += next.size();
      ring.insert(ring.end(), next.begin(), next.end());
    }
    widest = std::max(widest, count);
  }
  return int(widest);
}

}  // namespace spmesh::apps
