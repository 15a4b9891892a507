// The GPU commands of a build without CUDA: each says so.
#include "apps/commands.hpp"

namespace spmesh::apps {

namespace {
[[noreturn]] void no_cuda() {
  throw Error("--device cuda: this spmesh was built without CUDA (use --device cpu)");
}
}  // namespace

template <class T>
Subdivided<T> subdivide_on_gpu(const std::string&, const meshops::PolyMesh&, const schemes::Sharpness<>&,
                               const schemes::Options&, int, Stages&) {
  no_cuda();
}
template <class T>
Limits<T> limits_on_gpu(const std::string&, const meshops::PolyMesh&, const schemes::Sharpness<>&,
                        const schemes::Options&, int, Stages&) {
  no_cuda();
}
template <class T>
schemes::SampleLimits<T> sample_limits_on_gpu(const std::string&, const meshops::PolyMesh&, const schemes::Sharpness<>&,
                                              const schemes::Options&, const meshops::Samples&, int, bool, bool,
                                              Stages&) {
  no_cuda();
}
template <class T>
Limits<T> tessellation_on_gpu(const std::string&, const meshops::PolyMesh&, const schemes::Sharpness<>&,
                              const schemes::Options&, int, int, bool, bool, Stages&) {
  no_cuda();
}
template <class T>
PatchSet<T> adaptive_patch_set_on_gpu(const meshops::PolyMesh&, const schemes::Sharpness<>&, const schemes::Options&, int,
                                      const std::vector<std::uint8_t>&, int, Stages&) {
  no_cuda();
}
template <class T>
Limits<T> selective_on_gpu(const meshops::PolyMesh&, const schemes::Sharpness<>&, const schemes::Options&, int,
                           const std::vector<std::uint8_t>&, bool, Stages&) {
  no_cuda();
}
template <class T>
schemes::Refinement<T> build_on_gpu(const std::string&, const meshops::PolyMesh&, const schemes::Sharpness<>&,
                                    const schemes::Options&, int, Stages&) {
  no_cuda();
}
template <class T>
linalg::MeshMatrix<> rebuild_refined_on_gpu(const schemes::Refinement<T>&,
                                            const schemes::RefinedMeshCheck&, Stages&) {
  no_cuda();
}
template <class T>
void replay_on_gpu(const schemes::RefinementMatrix<T>&, const std::vector<linalg::Dense<T>>&,
                   const std::function<void(std::size_t, linalg::Dense<T>&&)>&, Stages&) {
  no_cuda();
}
template <class T>
solids::SolidResult<T> refine_solid_on_gpu(const solids::CellMesh<>&, const linalg::Dense<T>&, int,
                                            const solids::RefineOptions&, const std::optional<solids::SolidSharpness<>>&,
                                            Stages&) {
  no_cuda();
}
template <class T>
schemes::Refinement<T> build_solid_on_gpu(const solids::CellMesh<>&, const solids::BoundaryOperators<>&,
                                          const solids::RefineOptions&, const std::optional<solids::SolidSharpness<>>&,
                                          int, Stages&) {
  no_cuda();
}
template <class T>
solids::CellMesh<> rebuild_solid_on_gpu(const schemes::Refinement<T>&, const schemes::RefinedMeshCheck&, Stages&) {
  no_cuda();
}
template <class T>
SolidSampleLimits<T> solid_limit_on_gpu(const solids::CellMesh<>&, const linalg::Dense<T>&,
                                        const std::optional<solids::SolidSharpness<>>&, int, const solids::RefineOptions&,
                                        const SampleChoice&, Stages&) {
  no_cuda();
}
std::future<void> start_gpu() {
  std::promise<void> nothing;
  nothing.set_value();
  return nothing.get_future();
}
std::int64_t device_free_bytes() { no_cuda(); }
void check_device_memory(std::int64_t) { no_cuda(); }

SPMESH_APPS_INSTANTIATE_GPU(float)
SPMESH_APPS_INSTANTIATE_GPU(double)

}  // namespace spmesh::apps
