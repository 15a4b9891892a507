// The subdivision schemes spmesh has, for code that runs any of them (the command line, the
// benchmark, the tests): each is a traits type (its folder's scheme.hpp) that the front door,
// subdivision.hpp, takes: build<Scheme>(...), eval(exec, plan, P0), ... A new scheme is a new
// folder with its scheme.hpp, its include below and its entry in SPMESH_SCHEMES.
//
// The front door of every scheme is compiled once per backend and vertex-data type
// (instantiate/: CPU, and GPU under nvcc; float and double) and declared extern here, so that a
// program that includes this header does not compile the schemes' kernels again.
#pragma once

#include "linalg/cpu/executor.hpp"
#include "schemes/catmull_clark/scheme.hpp"
#include "schemes/loop/scheme.hpp"
#include "schemes/sqrt3/scheme.hpp"
#include "schemes/subdivision.hpp"
#if defined(__CUDACC__)
#include "linalg/cuda/executor.cuh"
#endif

#include <optional>
#include <string>
#include <tuple>

// X(Scheme, args...) for every scheme, the first the command line's default.
#define SPMESH_SCHEMES(X, ...) \
  X(CatmullClark, __VA_ARGS__) X(Loop, __VA_ARGS__) X(Sqrt3, __VA_ARGS__)

// The front door's functions of a scheme on an executor, as explicit instantiations (PREFIX
// extern: declared; empty: defined): those of its topology ...
#define SPMESH_SCHEME_TOPOLOGY(Scheme, PREFIX, Exec)                                         \
  PREFIX template Plan<Scheme, Exec::space> build<Scheme, Exec, Exec::space>(              \
      Exec&, linalg::MeshMatrix<Exec::space>, Sharpness<Exec::space>, int, Options, Path);
// ... and those of vertex data of type T.
#define SPMESH_SCHEME_DATA(Scheme, PREFIX, Exec, T)                                          \
  PREFIX template linalg::Dense<T, Exec::space> eval<Scheme, Exec, T, Exec::space>(          \
      Exec&, const Plan<Scheme, Exec::space>&, const linalg::Dense<T, Exec::space>&);         \
  PREFIX template linalg::Dense<T, Exec::space> eval_by_levels<Scheme, Exec, T, Exec::space>( \
      Exec&, const Plan<Scheme, Exec::space>&, const linalg::Dense<T, Exec::space>&);         \
  PREFIX template linalg::Dense<T, Exec::space> subdivide<Scheme, Exec, T, Exec::space>(     \
      Exec&, const Plan<Scheme, Exec::space>&, std::size_t,                                   \
      const linalg::Dense<T, Exec::space>&);                                                  \
  PREFIX template Subdivided<T, Exec::space> build_and_eval<Scheme, Exec, T, Exec::space>(   \
      Exec&, linalg::MeshMatrix<Exec::space>, Sharpness<Exec::space>, int,                    \
      const linalg::Dense<T, Exec::space>&, Options);                                         \
  PREFIX template linalg::Csr<T, Exec::space> refinement_matrix<T, Scheme, Exec, Exec::space>( \
      Exec&, const Plan<Scheme, Exec::space>&);

namespace spmesh::schemes {

#define SPMESH_SCHEME_TUPLE(Scheme, ...) std::tuple<Scheme>{},
using AllSchemes = decltype(std::tuple_cat(SPMESH_SCHEMES(SPMESH_SCHEME_TUPLE, ) std::tuple<>{}));
#undef SPMESH_SCHEME_TUPLE

SPMESH_SCHEMES(SPMESH_SCHEME_TOPOLOGY, extern, linalg::cpu::Executor)
SPMESH_SCHEMES(SPMESH_SCHEME_DATA, extern, linalg::cpu::Executor, float)
SPMESH_SCHEMES(SPMESH_SCHEME_DATA, extern, linalg::cpu::Executor, double)
#if defined(__CUDACC__)
SPMESH_SCHEMES(SPMESH_SCHEME_TOPOLOGY, extern, linalg::cuda::Executor)
SPMESH_SCHEMES(SPMESH_SCHEME_DATA, extern, linalg::cuda::Executor, float)
SPMESH_SCHEMES(SPMESH_SCHEME_DATA, extern, linalg::cuda::Executor, double)
#endif

namespace detail {
template <class... Schemes>
std::string scheme_names(std::tuple<Schemes...>*) {
  std::string names;
  for (const char* n : {Schemes::name...}) names += (names.empty() ? "" : ", ") + std::string(n);
  return names;
}
template <class F, class Scheme, class... Rest>
decltype(auto) with_scheme_in(const std::string& name, F& f) {
  if constexpr (sizeof...(Rest) > 0)
    if (name != Scheme::name) return with_scheme_in<F, Rest...>(name, f);
  if (name != Scheme::name)
    throw InputError("unknown scheme '" + name + "' (" +
                     scheme_names(static_cast<AllSchemes*>(nullptr)) + ")");
  return f.template operator()<Scheme>();
}
template <class F, class... Schemes>
decltype(auto) with_scheme_of(const std::string& name, F& f, std::tuple<Schemes...>*) {
  return with_scheme_in<F, Schemes...>(name, f);
}
}  // namespace detail

// f.template operator()<Scheme>() for the scheme called `name` (its Scheme::name).
template <class F>
decltype(auto) with_scheme(const std::string& name, F&& f) {
  return detail::with_scheme_of(name, f, static_cast<AllSchemes*>(nullptr));
}

}  // namespace spmesh::schemes
