// The GPU side of the command line, defined in pipeline_cuda.cu when spmesh is built with CUDA
// and by no_cuda.cpp (each throwing a clear Error) when it is not.
#pragma once

#include "apps/pipeline.hpp"
#include "apps/volume_pipeline.hpp"

#include <cstdint>
#include <future>

namespace spmesh::apps {

template <class T>
Subdivided<T> subdivide_on_gpu(const std::string& scheme, const meshops::PolyMesh& mesh, const schemes::Sharpness<>& C,
                               const schemes::Options& options, int levels, Stages& stages);
template <class T>
Limits<T> limits_on_gpu(const std::string& scheme, const meshops::PolyMesh& mesh, const schemes::Sharpness<>& C,
                        const schemes::Options& options, int levels, Stages& stages);
template <class T>
schemes::SampleLimits<T> sample_limits_on_gpu(const std::string& scheme, const meshops::PolyMesh& mesh,
                                              const schemes::Sharpness<>& C, const schemes::Options& options,
                                              const meshops::Samples& samples, int depth, bool approximate,
                                              bool adaptive, Stages& stages);
template <class T>
Limits<T> tessellation_on_gpu(const std::string& scheme, const meshops::PolyMesh& mesh, const schemes::Sharpness<>& C,
                              const schemes::Options& options, int rate, int depth, bool approximate,
                              bool adaptive, Stages& stages);
template <class T>
PatchSet<T> adaptive_patch_set_on_gpu(const meshops::PolyMesh& mesh, const schemes::Sharpness<>& C,
                                      const schemes::Options& options, int isolation,
                                      const std::vector<std::uint8_t>& selected, int rings, Stages& stages);
template <class T>
Limits<T> selective_on_gpu(const meshops::PolyMesh& mesh, const schemes::Sharpness<>& C, const schemes::Options& options,
                           int levels, const std::vector<std::uint8_t>& selected, bool approximate, Stages& stages);
template <class T>
schemes::Refinement<T> build_on_gpu(const std::string& scheme, const meshops::PolyMesh& mesh, const schemes::Sharpness<>& C,
                                    const schemes::Options& options, int levels, Stages& stages);
// A stored refinement's refined mesh built on the GPU, on the host and checked (pipeline.hpp's
// rebuild_refined).
template <class T>
linalg::MeshMatrix<> rebuild_refined_on_gpu(const schemes::Refinement<T>& r,
                                            const schemes::RefinedMeshCheck& check, Stages& stages);
// Replays every pose on the GPU: R uploaded once, then per pose upload, product, download and
// `done(k, P_L)` (pipeline.hpp's replay).
template <class T>
void replay_on_gpu(const schemes::RefinementMatrix<T>& R, const std::vector<linalg::Dense<T>>& poses,
                   const std::function<void(std::size_t, linalg::Dense<T>&&)>& done, Stages& stages);

// Catmull-Clark solids on the GPU (volume_pipeline.hpp's refine_solid).
template <class T>
solids::SolidResult<T> refine_solid_on_gpu(const solids::CellMesh<>& mesh, const linalg::Dense<T>& P0, int levels,
                                            const solids::RefineOptions& options,
                                            const std::optional<solids::SolidSharpness<>>& sharpness, Stages& stages);

// A solid's refinement matrix built on the GPU, and a stored one's refined cells rebuilt there
// (volume_pipeline.hpp's build_solid_refinement and rebuild_solid_cells).
template <class T>
schemes::Refinement<T> build_solid_on_gpu(const solids::CellMesh<>& mesh, const solids::BoundaryOperators<>& ops,
                                          const solids::RefineOptions& options,
                                          const std::optional<solids::SolidSharpness<>>& sharpness, int levels,
                                          Stages& stages);
template <class T>
solids::CellMesh<> rebuild_solid_on_gpu(const schemes::Refinement<T>& r, const schemes::RefinedMeshCheck& check,
                                        Stages& stages);

// A solid's limit at samples of its refined level on the GPU (volume_pipeline.hpp's solid_limit_at).
template <class T>
SolidSampleLimits<T> solid_limit_on_gpu(const solids::CellMesh<>& mesh, const linalg::Dense<T>& P0,
                                        const std::optional<solids::SolidSharpness<>>& sharpness, int levels,
                                        const solids::RefineOptions& options, const SampleChoice& choose,
                                        Stages& stages);

// Starts creating the GPU's context on another thread, so that its cost (a few tenths of a
// second) overlaps reading the input; errors are left to the executor, which reports them. A
// build without CUDA has nothing to start. Keep the future until the GPU work begins.
std::future<void> start_gpu();

// The GPU's free memory in bytes.
std::int64_t device_free_bytes();
// Throws CapacityError, before any work, when `bytes` exceed the GPU's free memory.
void check_device_memory(std::int64_t bytes);

// Explicit instantiations of the functions above for T (float and double are used).
#define SPMESH_APPS_INSTANTIATE_GPU(T)                                                     \
  template Subdivided<T> subdivide_on_gpu(const std::string&, const meshops::PolyMesh&,                        \
                                          const schemes::Sharpness<>&,                     \
                                          const schemes::Options&, int, Stages&);          \
  template Limits<T> limits_on_gpu(const std::string&, const meshops::PolyMesh&, const schemes::Sharpness<>&,   \
                                   const schemes::Options&, int, Stages&);                                      \
  template schemes::SampleLimits<T> sample_limits_on_gpu(                                                      \
      const std::string&, const meshops::PolyMesh&, const schemes::Sharpness<>&, const schemes::Options&,        \
      const meshops::Samples&, int, bool, bool, Stages&);                                                      \
  template Limits<T> tessellation_on_gpu(const std::string&, const meshops::PolyMesh&, const schemes::Sharpness<>&, \
                                         const schemes::Options&, int, int, bool, bool, Stages&);                  \
  template PatchSet<T> adaptive_patch_set_on_gpu(const meshops::PolyMesh&, const schemes::Sharpness<>&,             \
                                                 const schemes::Options&, int, const std::vector<std::uint8_t>&,  \
                                                 int, Stages&);                                                   \
  template Limits<T> selective_on_gpu(const meshops::PolyMesh&, const schemes::Sharpness<>&, const schemes::Options&, \
                                      int, const std::vector<std::uint8_t>&, bool, Stages&);                        \
  template schemes::Refinement<T> build_on_gpu(const std::string&, const meshops::PolyMesh&,                  \
                                               const schemes::Sharpness<>&,                \
                                               const schemes::Options&, int, Stages&);     \
  template linalg::MeshMatrix<> rebuild_refined_on_gpu(const schemes::Refinement<T>&,        \
                                                        const schemes::RefinedMeshCheck&,  \
                                                        Stages&);                          \
  template void replay_on_gpu(const schemes::RefinementMatrix<T>&,                          \
                              const std::vector<linalg::Dense<T>>&,                        \
                              const std::function<void(std::size_t, linalg::Dense<T>&&)>&, \
                              Stages&);                                                    \
  template solids::SolidResult<T> refine_solid_on_gpu(const solids::CellMesh<>&, const linalg::Dense<T>&, int, \
                                               const solids::RefineOptions&, \
                                               const std::optional<solids::SolidSharpness<>>&, Stages&);   \
  template schemes::Refinement<T> build_solid_on_gpu(const solids::CellMesh<>&, const solids::BoundaryOperators<>&, \
                                                     const solids::RefineOptions&,                                  \
                                                     const std::optional<solids::SolidSharpness<>>&, int, Stages&); \
  template solids::CellMesh<> rebuild_solid_on_gpu(const schemes::Refinement<T>&, const schemes::RefinedMeshCheck&, \
                                                   Stages&);                                                       \
  template SolidSampleLimits<T> solid_limit_on_gpu(const solids::CellMesh<>&, const linalg::Dense<T>&,           \
                                                   const std::optional<solids::SolidSharpness<>>&, int,          \
                                                   const solids::RefineOptions&, const SampleChoice&, Stages&);

}  // namespace spmesh::apps
