// y = A x for Python on any executor: bind_spmv<Exec>(module, suffix) defines _spmv<suffix>.
// A's CSR arrays and x are read in place where they are (NumPy arrays on the CPU, GPU arrays on
// the GPU), after A is validated; x is a vector or a block of columns (SpMM).
#pragma once

#include "linalg/spmv.hpp"
#include "python/side.hpp"

#include <nanobind/stl/string.h>

#include <string>

namespace spmesh::python {

using AnyBlock = nb::ndarray<const double, nb::c_contig>;

template <class Exec>
void bind_spmv(nb::module_& module, const std::string& suffix) {
  using X = Side<Exec>;
  using S = typename Exec::space;
  module.def(("_spmv" + suffix).c_str(), [](const AnyValues& values, const AnyIndices& indices, const AnyIndices& offsets,
                                            index_t rows, index_t cols, const AnyBlock& x, const std::string& map) {
    X::require_here(values, "spmv: A"), X::require_here(indices, "spmv: A"), X::require_here(offsets, "spmv: A");
    X::require_here(x, "spmv: x");
    if (x.ndim() < 1 || x.ndim() > 2 || index_t(x.shape(0)) != cols)
      throw DimensionError("spmv: x has shape (" + std::to_string(x.ndim() ? x.shape(0) : 0) + (x.ndim() > 1 ? ", ..." : "") +
                           "); A has " + std::to_string(cols) + " columns (a vector or a block of that many rows)");
    const index_t k = x.ndim() == 1 ? 1 : index_t(x.shape(1));
    Exec& exec = thread_executor<Exec>();
    const auto A = csr_ref<S>(values, indices, offsets, rows, cols);
    X::validate(exec, A);
    const linalg::DenseRows<const double, S> in{x.data(), cols, k};
    linalg::Dense<double, S> y(rows, k);
    if (map == "identity") linalg::spmm(exec, A, in, y);
    else if (map == "ones") linalg::spmm(exec, A, in, y, linalg::map::constant(1.0));
    else throw InputError("spmv: map '" + map + "' (identity or ones)");
    if (x.ndim() == 1) return X::out(std::move(y.data), {std::size_t(rows)});
    return X::out(std::move(y.data), {std::size_t(rows), std::size_t(k)});
  });
}

}  // namespace spmesh::python
