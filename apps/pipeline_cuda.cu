// The GPU commands: pipeline.hpp instantiated for cuda::Executor, with explicit transfers and
// the Device space's peak-memory count.
#include "apps/commands.hpp"
#include "linalg/cuda/executor.cuh"

#include <future>
#include <string>
#include <type_traits>
#include <variant>

namespace spmesh::apps {

template <>
struct Transfer<linalg::cuda::Executor> {
  template <class X>
  static auto up(const X& x) { return linalg::cuda::to_device(x); }
  template <class X>
  static auto down(const X& x) { return linalg::cuda::to_host(x); }
  static std::size_t peak_bytes() { return linalg::Device::peak_bytes(); }
};

template <class T>
Subdivided<T> subdivide_on_gpu(const std::string& scheme, const meshops::PolyMesh& mesh, const schemes::Sharpness<>& C,
                               const schemes::Options& options, int levels, Stages& stages) {
  linalg::cuda::Executor exec;
  linalg::Device::reset_peak();
  return with_scheme(scheme, [&]<class Scheme>() {
    return subdivide<T, Scheme>(exec, mesh, C, options, levels, stages);
  });
}

template <class T>
Limits<T> limits_on_gpu(const std::string& scheme, const meshops::PolyMesh& mesh, const schemes::Sharpness<>& C,
                        const schemes::Options& options, int levels, Stages& stages) {
  linalg::cuda::Executor exec;
  linalg::Device::reset_peak();
  return with_scheme(scheme, [&]<class Scheme>() { return limits<T, Scheme>(exec, mesh, C, options, levels, stages); });
}

template <class T>
schemes::SampleLimits<T> sample_limits_on_gpu(const std::string& scheme, const meshops::PolyMesh& mesh,
                                              const schemes::Sharpness<>& C, const schemes::Options& options,
                                              const meshops::Samples& samples, int depth, bool approximate,
                                              bool adaptive, Stages& stages) {
  linalg::cuda::Executor exec;
  linalg::Device::reset_peak();
  return sample_limits<T>(exec, scheme, mesh, C, options, samples, depth, approximate, adaptive, stages);
}

template <class T>
Limits<T> tessellation_on_gpu(const std::string& scheme, const meshops::PolyMesh& mesh, const schemes::Sharpness<>& C,
                              const schemes::Options& options, int rate, int depth, bool approximate,
                              bool adaptive, Stages& stages) {
  linalg::cuda::Executor exec;
  linalg::Device::reset_peak();
  return tessellation<T>(exec, scheme, mesh, C, options, rate, depth, approximate, adaptive, stages);
}

template <class T>
PatchSet<T> adaptive_patch_set_on_gpu(const meshops::PolyMesh& mesh, const schemes::Sharpness<>& C,
                                      const schemes::Options& options, int isolation,
                                      const std::vector<std::uint8_t>& selected, int rings, Stages& stages) {
  linalg::cuda::Executor exec;
  linalg::Device::reset_peak();
  return adaptive_patch_set<T>(exec, mesh, C, options, isolation, selected, rings, stages);
}

template <class T>
Limits<T> selective_on_gpu(const meshops::PolyMesh& mesh, const schemes::Sharpness<>& C, const schemes::Options& options,
                           int levels, const std::vector<std::uint8_t>& selected, bool approximate, Stages& stages) {
  linalg::cuda::Executor exec;
  linalg::Device::reset_peak();
  return selective<T>(exec, mesh, C, options, levels, selected, approximate, stages);
}

template <class T>
schemes::Refinement<T> build_on_gpu(const std::string& scheme, const meshops::PolyMesh& mesh, const schemes::Sharpness<>& C,
                                    const schemes::Options& options, int levels, Stages& stages) {
  linalg::cuda::Executor exec;
  linalg::Device::reset_peak();
  return with_scheme(scheme, [&]<class Scheme>() {
    return build_refinement<T, Scheme>(exec, mesh, C, options, levels, stages);
  });
}

template <class T>
linalg::MeshMatrix<> rebuild_refined_on_gpu(const schemes::Refinement<T>& r,
                                            const schemes::RefinedMeshCheck& check, Stages& stages) {
  linalg::cuda::Executor exec;
  return rebuild_refined(exec, r, check, stages);
}

template <class T>
void replay_on_gpu(const schemes::RefinementMatrix<T>& R, const std::vector<linalg::Dense<T>>& poses,
                   const std::function<void(std::size_t, linalg::Dense<T>&&)>& done, Stages& stages) {
  linalg::cuda::Executor exec;
  linalg::Device::reset_peak();
  std::visit(
      [&](const auto& A) {
        using linalg::cuda::to_device;
        const auto t = std::chrono::steady_clock::now();
        using Column = std::remove_cvref_t<decltype(*A.columns.data())>;
        const linalg::StencilCsr<T, Column, linalg::Device> R_d{
            A.rows, A.cols, A.stencils, to_device(A.offsets), to_device(A.columns),
            to_device(A.shift), to_device(A.table)};
        exec.synchronize();
        stages.upload += elapsed_ms(t);  // R once, for every pose
        replay(exec, R_d, poses, done, stages);
      },
      R);
}

template <class T>
solids::SolidResult<T> refine_solid_on_gpu(const solids::CellMesh<>& mesh, const linalg::Dense<T>& P0, int levels,
                                    const solids::RefineOptions& options,
                                    const std::optional<solids::SolidSharpness<>>& sharpness, Stages& stages) {
  linalg::cuda::Executor exec;
  linalg::Device::reset_peak();
  return refine_solid(exec, mesh, P0, levels, options, sharpness, stages);
}

template <class T>
schemes::Refinement<T> build_solid_on_gpu(const solids::CellMesh<>& mesh, const solids::BoundaryOperators<>& ops,
                                          const solids::RefineOptions& options,
                                          const std::optional<solids::SolidSharpness<>>& sharpness, int levels,
                                          Stages& stages) {
  linalg::cuda::Executor exec;
  linalg::Device::reset_peak();
  return build_solid_refinement<T>(exec, mesh, ops, options, sharpness, levels, stages);
}

template <class T>
solids::CellMesh<> rebuild_solid_on_gpu(const schemes::Refinement<T>& r, const schemes::RefinedMeshCheck& check,
                                        Stages& stages) {
  linalg::cuda::Executor exec;
  return rebuild_solid_cells(exec, r, check, stages);
}

template <class T>
SolidSampleLimits<T> solid_limit_on_gpu(const solids::CellMesh<>& mesh, const linalg::Dense<T>& P0,
                                        const std::optional<solids::SolidSharpness<>>& sharpness, int levels,
                                        const solids::RefineOptions& options, const SampleChoice& choose,
                                        Stages& stages) {
  linalg::cuda::Executor exec;
  linalg::Device::reset_peak();
  return solid_limit_at(exec, mesh, P0, sharpness, levels, options, choose, stages);
}

std::future<void> start_gpu() {
  return std::async(std::launch::async, [] { (void)cudaFree(nullptr); });
}

std::int64_t device_free_bytes() {
  std::size_t free = 0, total = 0;
  linalg::cuda::check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return static_cast<std::int64_t>(free);
}

void check_device_memory(std::int64_t bytes) {
  const std::int64_t free = device_free_bytes();
  if (bytes > free)
    throw CapacityError("the GPU has " + std::to_string(free >> 20) + " MiB free; these levels need about " +
                        std::to_string(bytes >> 20) + " MiB");
}

SPMESH_APPS_INSTANTIATE_GPU(float)
SPMESH_APPS_INSTANTIATE_GPU(double)

}  // namespace spmesh::apps
