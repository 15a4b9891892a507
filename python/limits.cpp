#include "python/limits.hpp"

#include "apps/commands.hpp"
#include "apps/transfer.hpp"
#include "meshops/checks.hpp"
#include "python/mesh.hpp"
#include "python/side.hpp"
#include "schemes/holes.hpp"
#include "schemes/tags.hpp"

#include <nanobind/stl/string.h>

#include <cmath>
#include <string>

namespace spmesh::python {

namespace {

using Cpu = linalg::cpu::Executor;

// The limit at the vertices of level `level`, on the GPU (apps' GPU pipeline, results copied
// down) or the CPU: (positions, normals, face offsets, face indices).
template <bool on_gpu>
nb::tuple limit(const Mesh& mesh, int level, const std::string& scheme) {
  meshops::check_mesh(mesh.mesh);
  const auto tags = schemes::read_tags(mesh.mesh, true);
  const auto options = schemes::options_from(tags);
  apps::Stages stages;
  auto r = [&] {
    if constexpr (on_gpu) return apps::limits_on_gpu<double>(scheme, mesh.mesh, tags.sharpness, options, level, stages);
    Cpu exec;
    return schemes::with_scheme(scheme, [&]<class Scheme>() {
      return apps::limits<double, Scheme>(exec, mesh.mesh, tags.sharpness, options, level, stages);
    });
  }();
  r.mesh = schemes::without_holes(scheme, std::move(r.mesh), mesh.mesh.M, tags.holes, level);
  return nb::make_tuple(out<Cpu>(std::move(r.positions)), out<Cpu>(std::move(r.normals)),
                        out<Cpu>(std::move(r.mesh.offsets)), out<Cpu>(std::move(r.mesh.indices)));
}

// The limit and its u and v derivatives at samples (faces[i], u[i], v[i]), going down at most
// `depth` levels (`adaptive`: through Catmull-Clark's adaptive plan of that isolation level, the
// same limits), on the GPU (results copied down) or the CPU: (positions, du, dv, how many were
// approximated).
template <bool on_gpu>
nb::tuple limit_at(const Mesh& mesh, const Indices& faces, const Values& u, const Values& v, const std::string& scheme,
                   int depth, bool approximate, bool adaptive) {
  meshops::check_mesh(mesh.mesh);
  if (faces.size() != u.size() || faces.size() != v.size())
    throw DimensionError("limit_at: " + std::to_string(faces.size()) + " faces, " + std::to_string(u.size()) + " u and " +
                         std::to_string(v.size()) + " v given; one of each a sample");
  if (depth < 0 || depth > schemes::max_sample_depth)
    throw InputError("limit_at: depth " + std::to_string(depth) + " (0 to " + std::to_string(schemes::max_sample_depth) +
                     ")");
  meshops::Samples samples;
  for (std::size_t i = 0; i < faces.size(); ++i) {
    const index_t face = faces.data()[i];
    const double s = u.data()[i], t = v.data()[i];
    if (face < 0 || face >= mesh.mesh.face_count())
      throw InputError("limit_at: sample " + std::to_string(i) + " names face " + std::to_string(face) + " (0-based) of " +
                       std::to_string(mesh.mesh.face_count()));
    if (!std::isfinite(s) || !std::isfinite(t) || s < 0 || t < 0)
      throw InputError("limit_at: sample " + std::to_string(i) + " has (u, v) = (" + std::to_string(s) + ", " +
                       std::to_string(t) + "); finite and not negative expected");
    samples.faces.push_back(face), samples.u.push_back(s), samples.v.push_back(t);
  }
  const auto tags = schemes::read_tags(mesh.mesh, true);
  if (const auto i = schemes::sample_on_hole(samples.faces, tags.holes); i >= 0)
    throw InputError("limit_at: sample " + std::to_string(i) + " is on face " +
                     std::to_string(samples.faces[std::size_t(i)]) + ", a hole (t hole): it has no limit surface");
  const auto options = schemes::options_from(tags);
  apps::Stages stages;
  try {
    auto r = [&] {
      if constexpr (on_gpu)
        return apps::sample_limits_on_gpu<double>(scheme, mesh.mesh, tags.sharpness, options, samples, depth, approximate,
                                                  adaptive, stages);
      Cpu exec;
      return apps::sample_limits<double>(exec, scheme, mesh.mesh, tags.sharpness, options, samples, depth, approximate,
                                         adaptive, stages);
    }();
    return nb::make_tuple(out<Cpu>(std::move(r.position)), out<Cpu>(std::move(r.du)), out<Cpu>(std::move(r.dv)),
                          r.approximated);
  } catch (const schemes::SampleError& e) {
    throw InputError("limit_at: sample " + std::to_string(e.sample) + ": " + e.what());
  }
}

}  // namespace

void bind_limits(nb::module_& module) {
  using namespace nb::literals;
  module.def("_limit", &limit<false>, "mesh"_a, "level"_a, "scheme"_a);
  module.def("_limit_at", &limit_at<false>, "mesh"_a, "faces"_a, "u"_a, "v"_a, "scheme"_a, "depth"_a, "approximate"_a,
             "adaptive"_a);
#ifdef SPMESH_PYTHON_CUDA
  module.def("_limit_cuda", &limit<true>, "mesh"_a, "level"_a, "scheme"_a);
  module.def("_limit_at_cuda", &limit_at<true>, "mesh"_a, "faces"_a, "u"_a, "v"_a, "scheme"_a, "depth"_a,
             "approximate"_a, "adaptive"_a);
#endif
}

}  // namespace spmesh::python
