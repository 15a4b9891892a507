// Device memory for the CUDA backend: the Device space of Array, checked CUDA calls, and
// explicit host <-> device transfers of arrays and matrices. Host code only (g++ or nvcc).
#pragma once

#include "linalg/array.hpp"
#include "linalg/formats.hpp"
#include "linalg/mesh_matrix.hpp"
#include "linalg/tuning.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace spmesh::linalg::cuda {

// A failed CUDA call; the message names the call and CUDA's explanation.
class CudaError : public Error {
public:
  using Error::Error;
};

inline void check(cudaError_t status, const char* call) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a sticky-free error so later calls are not blamed
  throw CudaError(std::string(call) + ": " + cudaGetErrorName(status) + " (" +
                  cudaGetErrorString(status) + ")");
}

// Whether a usable GPU is present (tests skip by name when not).
inline bool device_available() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return n > 0;
}

}  // namespace spmesh::linalg::cuda

namespace spmesh::linalg {

// GPU global memory from CUDA's stream-ordered pool (cudaMallocAsync on the legacy default
// stream, which orders itself with every blocking stream such as cuda::Executor's): freed
// blocks stay cached in the pool, so the many short-lived temporaries of an operation cost no
// cudaMalloc/cudaFree round trips, and a block is reused only after the work that used it.
// Small blocks share slabs (detail::Slabs below), so that they cost no pool call each.
// Allocation failures say how much was asked for and how much is free. The bytes taken from
// the pool are counted (current and peak; a slab counts whole) for memory reports; host-side
// use is single-threaded.
struct Device {
  static std::size_t& current_bytes() {
    static std::size_t bytes = 0;
    return bytes;
  }
  static std::size_t& peak_bytes() {
    static std::size_t bytes = 0;
    return bytes;
  }
  // Starts a new peak measurement from what is held now.
  static void reset_peak() { peak_bytes() = current_bytes(); }
  // How many blocks were taken from the pool so far (each costs the host a few microseconds;
  // a small block carved out of a slab takes none).
  static std::int64_t& allocations() {
    static std::int64_t count = 0;
    return count;
  }

  static void* allocate(std::size_t bytes);
  static void deallocate(void* p, std::size_t bytes);

  // While an executor records work (cuda::Executor::record), the blocks freed go to its
  // recording instead, whose graph may still use them: it frees them when it goes.
  struct Block {
    void* p;
    std::size_t bytes;
  };
  static std::vector<Block>*& holding() {
    static std::vector<Block>* held = nullptr;
    return held;
  }

  // A block straight from the pool, and its return.
  static void* pool_allocate(std::size_t bytes) {
    keep_pool_cached();
    void* p = nullptr;
    const cudaError_t status = cudaMallocAsync(&p, bytes, cudaStreamLegacy);
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      std::size_t free = 0, total = 0;
      cudaMemGetInfo(&free, &total);
      throw CapacityError("GPU allocation of " + std::to_string(bytes) + " bytes failed: " +
                          std::to_string(free) + " of " + std::to_string(total) +
                          " bytes free on the device");
    }
    cuda::check(status, "cudaMallocAsync");
    ++allocations();
    current_bytes() += bytes;
    if (current_bytes() > peak_bytes()) peak_bytes() = current_bytes();
    return p;
  }
  static void pool_deallocate(void* p, std::size_t bytes) {
    cudaFreeAsync(p, cudaStreamLegacy);  // never throws: called from destructors
    current_bytes() -= bytes;
  }

private:
  // The default pool returns memory to the driver at every synchronisation unless told to
  // keep it; keeping it is what makes reuse cheap.
  static void keep_pool_cached() {
    static const bool done = [] {
      int device = 0;
      cudaMemPool_t pool;
      if (cudaGetDevice(&device) == cudaSuccess && cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess) {
        std::uint64_t threshold = ~std::uint64_t(0);
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
      }
      cudaGetLastError();
      return true;
    }();
    (void)done;
  }
};

namespace detail {

// Small device blocks carved out of shared slabs. A pool call and its return cost the host
// microseconds each (spmesh_bench_launch): a build of small levels, with dozens of small arrays,
// paid more for them than its kernels took. A slab hands out its space once, in order, and goes
// back to the pool when its last block is freed; since no space is handed out twice, a block is
// never reused before the work that used it is done, as with the pool's own blocks. A
// long-lived small block keeps its slab: at most `slab` bytes each. Blocks are aligned as the
// pool's own are (256 bytes).
class Slabs {
public:
  static constexpr std::size_t small = tuning::slab_max_array_bytes, slab = tuning::slab_bytes,
                               align = 256;

  static Slabs& instance() {
    static Slabs* slabs = new Slabs;  // never destroyed: arrays may outlive static destructors
    return *slabs;
  }

  void* allocate(std::size_t bytes) {
    bytes = (bytes + align - 1) / align * align;
    if (!current_ || current_->used + bytes > slab) {  // a full slab stays until its last block goes
      char* base = static_cast<char*>(Device::pool_allocate(slab));
      current_ = &slabs_.emplace(base, Slab{base}).first->second;
    }
    char* p = current_->base + current_->used;
    current_->used += bytes, ++current_->live;
    return p;
  }
  void deallocate(void* p) {
    auto it = slabs_.upper_bound(static_cast<char*>(p));
    --it;  // the slab that holds p: the last one at or below it
    Slab* s = &it->second;
    if (--s->live > 0) return;
    if (s == current_) current_ = nullptr;
    release(s);
  }

private:
  struct Slab {
    char* base;
    std::size_t used = 0;
    std::int64_t live = 0;
  };
  void release(Slab* s) {
    Device::pool_deallocate(s->base, slab);
    slabs_.erase(s->base);
  }

  std::map<char*, Slab, std::less<>> slabs_;
  Slab* current_ = nullptr;
};

}  // namespace detail

inline void* Device::allocate(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  return bytes <= detail::Slabs::small ? detail::Slabs::instance().allocate(bytes) : pool_allocate(bytes);
}
inline void Device::deallocate(void* p, std::size_t bytes) {
  if (!p) return;
  if (holding()) {
    holding()->push_back({p, bytes});
    return;
  }
  if (bytes <= detail::Slabs::small) detail::Slabs::instance().deallocate(p);
  else pool_deallocate(p, bytes);
}

template <class T>
using DeviceArray = Array<T, Device>;

namespace cuda {

// Copies between memory spaces. To the host: the data is there when the call returns. To the
// device: the host data has been taken when the call returns (host arrays are pageable, so the
// copy stages them first) and the copy is ordered before every later kernel of a blocking
// stream (it runs on the legacy stream, as allocations do), with no wait for the device: less
// host time than a synchronous copy (spmesh_bench_launch, bench/RESULTS.md).
namespace detail {

// [to, to + bytes) = [from, from + bytes) by up to 16 host threads of at least 4 MiB each: the
// page faults of fresh memory are taken in parallel too.
inline void parallel_memcpy(char* to, const char* from, std::size_t bytes) {
  const std::size_t piece = std::size_t(4) << 20;
  const std::size_t threads = std::min<std::size_t>(
      {16, std::max(1u, std::thread::hardware_concurrency()), (bytes + piece - 1) / piece});
  if (threads <= 1) {
    std::memcpy(to, from, bytes);
    return;
  }
  const std::size_t share = (bytes + threads - 1) / threads;
  std::vector<std::thread> workers;
  for (std::size_t t = 1; t < threads; ++t) {
    const std::size_t begin = std::min(bytes, t * share), end = std::min(bytes, begin + share);
    workers.emplace_back([=] { std::memcpy(to + begin, from + begin, end - begin); });
  }
  std::memcpy(to, from, std::min(bytes, share));
  for (auto& w : workers) w.join();
}

// A large device-to-host copy through two pinned buffers of tuning::staging_bytes: chunk k + 1
// is copied over PCIe into one while host threads copy chunk k out of the other. Ordered after
// the legacy stream's work, as cudaMemcpy is; the data is in place when it returns.
inline void copy_to_host_staged(void* to, const void* from, std::size_t bytes) {
  const std::size_t chunk = tuning::staging_bytes, chunks = (bytes + chunk - 1) / chunk;
  char* buffer[2] = {nullptr, nullptr};
  cudaStream_t stream = nullptr;
  cudaEvent_t filled[2] = {nullptr, nullptr};
  auto release = [&] {
    for (int b = 0; b < 2; ++b) {
      if (filled[b]) cudaEventDestroy(filled[b]);
      if (buffer[b]) cudaFreeHost(buffer[b]);
    }
    if (stream) cudaStreamDestroy(stream);
  };
  try {
    for (int b = 0; b < 2; ++b) {
      void* pinned = nullptr;
      check(cudaMallocHost(&pinned, chunk), "cudaMallocHost");
      buffer[b] = static_cast<char*>(pinned);
      check(cudaEventCreateWithFlags(&filled[b], cudaEventDisableTiming), "cudaEventCreate");
    }
    check(cudaStreamCreate(&stream), "cudaStreamCreate");  // blocking: after the legacy stream
    auto size = [&](std::size_t k) { return std::min(chunk, bytes - k * chunk); };
    auto enqueue = [&](std::size_t k) {
      check(cudaMemcpyAsync(buffer[k % 2], static_cast<const char*>(from) + k * chunk, size(k),
                            cudaMemcpyDeviceToHost, stream),
            "cudaMemcpyAsync");
      check(cudaEventRecord(filled[k % 2], stream), "cudaEventRecord");
    };
    enqueue(0);
    for (std::size_t k = 0; k < chunks; ++k) {
      check(cudaEventSynchronize(filled[k % 2]), "cudaEventSynchronize");
      if (k + 1 < chunks) enqueue(k + 1);  // into the buffer chunk k - 1 was copied out of
      parallel_memcpy(static_cast<char*>(to) + k * chunk, buffer[k % 2], size(k));
    }
  } catch (...) {
    cudaStreamSynchronize(stream);
    release();
    throw;
  }
  release();
}

}  // namespace detail

template <class T, class To, class From>
Array<T, To> copy_to(const Array<T, From>& a) {
  Array<T, To> out(a.size());
  if (a.size() == 0) return out;
  const std::size_t bytes = sizeof(T) * a.size();
  if constexpr (std::is_same_v<To, Device> && std::is_same_v<From, Host>)
    check(cudaMemcpyAsync(out.data(), a.data(), bytes, cudaMemcpyHostToDevice, cudaStreamLegacy),
          "cudaMemcpyAsync");
  else if constexpr (std::is_same_v<To, Host> && std::is_same_v<From, Device>) {
    if (bytes >= 2 * tuning::staging_bytes)
      detail::copy_to_host_staged(out.data(), a.data(), bytes);
    else
      check(cudaMemcpy(out.data(), a.data(), bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  } else
    check(cudaMemcpy(out.data(), a.data(), bytes, cudaMemcpyDefault), "cudaMemcpy");
  return out;
}

template <class T>
DeviceArray<T> to_device(const HostArray<T>& a) { return copy_to<T, Device>(a); }
template <class T>
HostArray<T> to_host(const DeviceArray<T>& a) { return copy_to<T, Host>(a); }

template <class T, Major M>
Compressed<T, M, Device> to_device(const Compressed<T, M, Host>& A) {
  return {A.rows, A.cols, to_device(A.offsets), to_device(A.indices), to_device(A.values)};
}
template <class T, Major M>
Compressed<T, M, Host> to_host(const Compressed<T, M, Device>& A) {
  return {A.rows, A.cols, to_host(A.offsets), to_host(A.indices), to_host(A.values)};
}
template <class T>
Dense<T, Device> to_device(const Dense<T, Host>& X) { return {X.rows, X.cols, to_device(X.data)}; }
template <class T>
Dense<T, Host> to_host(const Dense<T, Device>& X) { return {X.rows, X.cols, to_host(X.data)}; }
inline MeshMatrix<Device> to_device(const MeshMatrix<Host>& M) {
  return {M.vertices, to_device(M.offsets), to_device(M.indices)};
}
inline MeshMatrix<Host> to_host(const MeshMatrix<Device>& M) {
  return {M.vertices, to_host(M.offsets), to_host(M.indices)};
}
inline ReducedMeshMatrix<Device> to_device(const ReducedMeshMatrix<Host>& M) {
  return {M.vertices, M.order, to_device(M.indices)};
}
template <class T>
Coo<T, Device> to_device(const Coo<T, Host>& A) {
  return {A.rows, A.cols, to_device(A.row_indices), to_device(A.col_indices), to_device(A.values)};
}

}  // namespace cuda
}  // namespace spmesh::linalg
