// Side<cuda::Executor> (side.hpp): the GPU's results go to Python as DeviceArrays, DLPack
// producers of the current device that stay on the GPU (cupy.from_dlpack, torch.from_dlpack take
// them without a copy); GPU arrays from Python (DLPack: CuPy, PyTorch, ...) are read in place or
// copied on the device; NumPy arrays given to a GPU operation are copied up and its result
// copied down.
// Ordering, without a host wait: the executor's stream is a blocking one, so it runs after the
// work queued before on the legacy default stream, where DLPack producers (stream None) make
// their arrays ready and CuPy and PyTorch work by default, and work queued on the legacy stream
// after it waits for it. A result is handed out while its work may still run: its
// __dlpack__(stream=s) orders the consumer's stream s after that work (DLPack's rule: the
// producer orders its data before the stream the consumer names). For the legacy stream (CuPy's
// and PyTorch's default, s = 1 or None) CUDA's own rule does so and nothing is queued; another
// stream waits for an event recorded then on the legacy stream, which follows every blocking
// stream's earlier work, spmesh's included.
#pragma once

#include "linalg/cuda/executor.cuh"
#include "linalg/validate.hpp"
#include "python/side.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace spmesh::python {

// A GPU result for Python: nanobind's DLPack tensor over spmesh's buffer.
class DeviceArray {
public:
  explicit DeviceArray(nb::object tensor) : tensor_(std::move(tensor)) {}

  // DLPack's __dlpack__(stream=...): `stream` says where the consumer reads, as an integer: 1
  // (or None) the legacy default stream, 2 the per-thread default stream, -1 no ordering asked
  // for, else a cudaStream_t. The other arguments (max_version, dl_device, copy) go to the
  // tensor's own __dlpack__.
  nb::object dlpack(nb::kwargs kwargs) const {
    const std::intptr_t stream = kwargs.contains("stream") && !kwargs["stream"].is_none()
                                     ? nb::cast<std::intptr_t>(kwargs["stream"])
                                     : 1;
    if (stream != -1 && stream != 1) {
      const cudaStream_t consumer = stream == 2 ? cudaStreamPerThread : reinterpret_cast<cudaStream_t>(stream);
      cudaEvent_t ready = nullptr;
      linalg::cuda::check(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming), "cudaEventCreateWithFlags");
      cudaError_t status = cudaEventRecord(ready, cudaStreamLegacy);
      if (status == cudaSuccess) status = cudaStreamWaitEvent(consumer, ready, 0);
      cudaEventDestroy(ready);  // released once the wait has passed it
      linalg::cuda::check(status, "cudaStreamWaitEvent (__dlpack__)");
    }
    nb::dict rest;
    for (auto [key, value] : kwargs)
      if (!key.equal(nb::str("stream"))) rest[key] = value;
    return tensor_.attr("__dlpack__")(**rest);
  }
  nb::object dlpack_device() const { return tensor_.attr("__dlpack_device__")(); }

private:
  nb::object tensor_;
};

struct DeviceTopology {
  linalg::MeshMatrix<linalg::Device> M;
};

template <>
struct Side<linalg::cuda::Executor> {
  using S = linalg::Device;
  static constexpr const char* name = "cuda";

  static int device_id() {
    int device = 0;
    linalg::cuda::check(cudaGetDevice(&device), "cudaGetDevice");
    return device;
  }
  // An array on this GPU, or InputError naming where it is.
  template <class Array>
  static bool here(const Array& a) {
    return a.device_type() == nb::device::cuda::value && a.device_id() == device_id();
  }
  template <class Array>
  static void require_here(const Array& a, const char* what) {
    if (!here(a))
      throw InputError(std::string(what) + ": an array on " +
                       (on_host(a) ? std::string("the host") : "device type " + std::to_string(a.device_type()) + " id " +
                                                                   std::to_string(a.device_id())) +
                       " given to a GPU operation on CUDA device " + std::to_string(device_id()));
  }

  // A mesh's topology on the GPU (the device current at its first use), copied there once and
  // kept with the mesh; its
  // positions: Python's `positions` if given (V x 3, a GPU array or NumPy), else the mesh's own.
  static const linalg::MeshMatrix<S>& topology(const Mesh& mesh) {
    if (!mesh.device_topology)
      mesh.device_topology = std::make_shared<DeviceTopology>(DeviceTopology{linalg::cuda::to_device(mesh.mesh.M)});
    return mesh.device_topology->M;
  }
  template <class F>
  static decltype(auto) with_positions(const Mesh& mesh, const std::optional<AnyPoints>& given, const char* what, F&& f) {
    if (given) return f(points(*given, what, mesh.mesh.vertex_count()));
    return f(linalg::cuda::to_device(mesh.mesh.positions));
  }
  template <class X>
  static auto up(const X& x) { return linalg::cuda::to_device(x); }
  template <class X>
  static auto own(const X& x) { return linalg::cuda::to_device(x); }
  // A result handed out while the work that writes it may still run (DeviceArray).
  template <class T>
  static nb::object out(linalg::Array<T, S>&& values, std::initializer_list<std::size_t> shape) {
    return nb::cast(DeviceArray(hand_out(std::move(values), shape, nb::device::cuda::value, device_id())));
  }
  // A result made from the input `like`: left on the GPU for a GPU input, copied down for NumPy.
  template <class T>
  static nb::object out_like(const AnyPoints& like, linalg::Dense<T, S>&& block) {
    const auto rows = std::size_t(block.rows), cols = std::size_t(block.cols);
    if (!on_host(like)) return out(std::move(block.data), {rows, cols});
    return hand_out(linalg::cuda::to_host(block.data), {rows, cols}, nb::device::cpu::value, 0);
  }
  // Points from Python in GPU memory: NumPy's copied up, a GPU array's copied on the device.
  static linalg::Dense<double, S> points(const AnyPoints& P, const char* what, index_t rows) {
    check_points(P, what, rows);
    if (on_host(P)) return linalg::cuda::to_device(copy_points(P, what, rows));
    require_here(P, what);
    linalg::Dense<double, S> out(index_t(P.shape(0)), 3);
    linalg::cuda::check(cudaMemcpy(out.data.data(), P.data(), sizeof(double) * P.size(), cudaMemcpyDeviceToDevice),
                        "cudaMemcpy");
    return out;
  }
  // f(DenseRows) over points from Python: a GPU array read in place, a NumPy array copied up.
  template <class F>
  static void with_rows(const AnyPoints& P, const char* what, index_t rows, F&& f) {
    check_points(P, what, rows);
    if (on_host(P)) {
      const auto copy = linalg::cuda::to_device(copy_points(P, what, rows));
      f(linalg::DenseRows<const double, S>{copy.data.data(), copy.rows, 3});
      return;
    }
    require_here(P, what);
    f(linalg::DenseRows<const double, S>{P.data(), index_t(P.shape(0)), 3});
  }
  // A matrix the executor keeps, as host CSR arrays (copied down).
  template <class T>
  static nb::object host_csr(const linalg::Csr<T, S>& A, const std::shared_ptr<linalg::Csr<T, S>>& /*owner*/) {
    return python::out<linalg::cpu::Executor>(linalg::cuda::to_host(A));
  }
  static linalg::MeshMatrix<> refined_mesh(const schemes::RefinedMesh<S>& refined) {
    schemes::RefinedMesh<linalg::Host> host;
    host.vertices = refined.vertices, host.faces = refined.faces, host.order = refined.order;
    host.offsets = linalg::cuda::to_host(refined.offsets), host.indices = linalg::cuda::to_host(refined.indices);
    return std::move(host).mesh();
  }
  template <class X>
  static auto down(const X& x) { return linalg::cuda::to_host(x); }

  // CSR arrays from outside, checked on the GPU (linalg::validate's checks); where one is
  // wrong, copied down for linalg::validate to name it.
  static void validate(linalg::cuda::Executor& exec, const linalg::CsrRef<double, S>& A) {
    const auto view = A.view();
    const index_t rows = A.rows, cols = A.cols, nnz = A.nnz();
    bool bad = exec.read(A.offsets) != 0 || exec.read(A.offsets + rows) != nnz ||
               exec.count_if(rows, [=] SPMESH_HD(index_t o) { return view.end(o) < view.begin(o); }) > 0;
    bad = bad || exec.count_if(rows, [=] SPMESH_HD(index_t o) {
      for (index_t p = view.begin(o); p < view.end(o); ++p)
        if (view.index(p) < 0 || view.index(p) >= cols) return true;
      return false;
    }) > 0;
    if (!bad) return;
    linalg::Array<index_t> offsets(rows + 1), indices(nnz);
    exec.read(A.offsets, rows + 1, offsets.data());
    if (nnz) exec.read(A.indices, nnz, indices.data());
    linalg::cpu::Executor cpu;
    linalg::validate(cpu, linalg::CsrRef<double>{rows, cols, offsets.data(), indices.data(), nullptr, nnz});
    throw InputError("sparse matrix " + A.shape() + ": its arrays changed while they were checked");
  }
};

}  // namespace spmesh::python
