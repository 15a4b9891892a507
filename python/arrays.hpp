// Arrays between Python and spmesh. Going out, spmesh's own buffers are handed over without a
// copy: a host array as a NumPy array, a device array as a DLPack tensor (nanobind's ndarray
// object, whose __dlpack__ cupy.from_dlpack and torch.from_dlpack call); a capsule frees the
// buffer with the last reference. Coming in, a host array is copied once into spmesh's arrays, or read in place where
// an operation takes a view (CsrRef, DenseRows); device arrays likewise on the GPU (side.hpp).
#pragma once

#include "linalg/base.hpp"
#include "linalg/cpu/executor.hpp"
#include "linalg/formats.hpp"
#include "linalg/validate.hpp"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

namespace spmesh::python {

namespace nb = nanobind;

template <class T>
using Numpy = nb::ndarray<nb::numpy, T>;
// Inputs: C-ordered float64 and int32 arrays. Points and Values are on the host; Any* may be on
// the host or a GPU (the operation says which it takes).
using Points = nb::ndarray<const double, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Indices = nb::ndarray<const index_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Values = nb::ndarray<const double, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using AnyPoints = nb::ndarray<const double, nb::ndim<2>, nb::c_contig>;
using AnyIndices = nb::ndarray<const index_t, nb::ndim<1>, nb::c_contig>;
using AnyValues = nb::ndarray<const double, nb::ndim<1>, nb::c_contig>;

template <class Array>
bool on_host(const Array& a) { return a.device_type() == nb::device::cpu::value; }

// An array that owns `values` (moved, not copied), of the given shape, where they live: NumPy
// for host memory, a DLPack tensor of the current GPU for device memory.
template <class T, class S>
nb::object hand_out(linalg::Array<T, S>&& values, std::initializer_list<std::size_t> shape, int device_type,
                    int device_id) {
  auto* held = new linalg::Array<T, S>(std::move(values));
  nb::capsule owner(held, [](void* p) noexcept { delete static_cast<linalg::Array<T, S>*>(p); });
  if (device_type == nb::device::cpu::value) return nb::cast(Numpy<T>(held->data(), shape.size(), shape.begin(), owner));
  return nb::cast(nb::ndarray<nb::array_api, T>(held->data(), shape.size(), shape.begin(), owner, nullptr, nb::dtype<T>(),
                                                device_type, device_id));
}

template <class T>
linalg::Array<T> copy_array(const T* data, std::size_t n) {
  linalg::Array<T> out(static_cast<index_t>(n));
  if (n) std::memcpy(out.data(), data, sizeof(T) * n);
  return out;
}
template <class T, class Source>
linalg::Array<T> copy_array(const Source& source) {
  return copy_array<T>(source.data(), source.size());
}

// Throws DimensionError unless `points` is rows x 3 (any rows where rows < 0).
template <class Array>
void check_points(const Array& points, const char* what, index_t rows = -1) {
  if (points.shape(1) != 3 || (rows >= 0 && index_t(points.shape(0)) != rows))
    throw DimensionError(std::string(what) + ": " + std::to_string(points.shape(0)) + " x " +
                         std::to_string(points.shape(1)) + " points given; " +
                         (rows >= 0 ? std::to_string(rows) : std::string("n")) + " x 3 expected");
}

template <class Array>
linalg::Dense<double> copy_points(const Array& points, const char* what, index_t rows = -1) {
  check_points(points, what, rows);
  linalg::Dense<double> out(index_t(points.shape(0)), 3);
  if (points.size()) std::memcpy(out.data.data(), points.data(), sizeof(double) * points.size());
  return out;
}

// CSR arrays from Python read in place (no copy), in the memory space S where they are, after
// their shapes are checked; linalg::validate checks the entries.
template <class S, class ValueArray, class IndexArray>
linalg::CsrRef<double, S> csr_ref(const ValueArray& values, const IndexArray& indices, const IndexArray& offsets,
                                  index_t rows, index_t cols) {
  if (rows < 0 || cols < 0 || index_t(offsets.size()) != rows + 1 || values.size() != indices.size())
    throw DimensionError("a " + std::to_string(rows) + " x " + std::to_string(cols) + " CSR matrix needs " +
                         std::to_string(rows + 1) + " row offsets (" + std::to_string(offsets.size()) +
                         " given) and as many values as column indices (" + std::to_string(values.size()) + " and " +
                         std::to_string(indices.size()) + ")");
  return {rows, cols, offsets.data(), indices.data(), values.data(), index_t(values.size())};
}

}  // namespace spmesh::python
