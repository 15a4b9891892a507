// The subdivision schemes spmesh has, for code that runs any of them (the command line, the
// benchmark, the tests): each is a traits type (its folder's scheme.hpp) that the front door,
// subdivision.hpp, takes: build<Scheme>(...), eval(exec, plan, P0), ... A new scheme is a new
// folder with its scheme.hpp, and one line in the list below.
#pragma once

#include "schemes/catmull_clark/scheme.hpp"
#include "schemes/loop/scheme.hpp"
#include "schemes/sqrt3/scheme.hpp"
#include "schemes/subdivision.hpp"

#include <string>
#include <tuple>

namespace spmesh::schemes {

// Every scheme, the first the command line's default.
using AllSchemes = std::tuple<CatmullClark, Loop, Sqrt3>;

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
