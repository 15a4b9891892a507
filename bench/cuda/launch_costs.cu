// What the host pays per CUDA call on this machine, the costs that bound the build of small
// levels (bench/RESULTS.md, "Tuning choices": Slabs, copy_to): kernel launches, stream-ordered pool
// allocations and frees (on the legacy stream, as linalg::Device makes them, and on a stream),
// host-to-device copies from pageable memory (cudaMemcpy against cudaMemcpyAsync on the legacy
// stream), and a read-back with its wait. Each figure is host time per call over many calls
// ("total" adds the wait for the GPU to finish them); three rounds, the first one cold.
//   spmesh_bench_launch
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

struct Big {  // a functor-sized argument: 24 pointers
  const int* p[24];
  int n;
};
__global__ void empty(int n, int* x) {
  if (n < 0) x[0] = 1;
}
__global__ void big(Big b) {
  if (b.n < 0) *const_cast<int*>(b.p[0]) = 1;
}

using Clock = std::chrono::steady_clock;
double us(Clock::time_point a, Clock::time_point b, int n) {
  return std::chrono::duration<double, std::micro>(b - a).count() / n;
}

// Host time per call of f over n calls, and per call once the stream has drained.
template <class F>
void timed(const char* what, int n, cudaStream_t s, F f) {
  const auto t0 = Clock::now();
  for (int i = 0; i < n; ++i) f(i);
  const auto t1 = Clock::now();
  cudaStreamSynchronize(s);
  cudaDeviceSynchronize();
  std::printf("  %-46s host %6.2f us, total %6.2f us\n", what, us(t0, t1, n), us(t0, Clock::now(), n));
}

}  // namespace

int main() {
  cudaStream_t s, nb;
  cudaStreamCreate(&s);
  cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking);
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  unsigned long long keep = ~0ull;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
  int* x = nullptr;
  cudaMalloc(&x, 4);
  Big b{};
  b.n = 1;
  constexpr int n = 2000;
  std::vector<void*> p(n);
  for (int round = 0; round < 3; ++round) {
    std::printf("round %d\n", round);
    timed("empty kernel, blocking stream", n, s, [&](int) { empty<<<1, 256, 0, s>>>(1, x); });
    timed("empty kernel, non-blocking stream", n, nb, [&](int) { empty<<<1, 256, 0, nb>>>(1, x); });
    timed("empty kernel + cudaGetLastError", n, s, [&](int) {
      empty<<<1, 256, 0, s>>>(1, x);
      cudaGetLastError();
    });
    timed("kernel with a 200-byte argument", n, s, [&](int) { big<<<1, 256, 0, s>>>(b); });
    timed("empty kernel of 400 blocks", n, s, [&](int) { empty<<<400, 256, 0, s>>>(1, x); });
    timed("cudaMallocAsync, legacy stream", n, s,
          [&](int i) { cudaMallocAsync(&p[i], 4096 + i, cudaStreamLegacy); });
    timed("cudaFreeAsync, legacy stream", n, s, [&](int i) { cudaFreeAsync(p[i], cudaStreamLegacy); });
    timed("cudaMallocAsync, stream", n, s, [&](int i) { cudaMallocAsync(&p[i], 4096 + i, s); });
    timed("cudaFreeAsync, stream", n, s, [&](int i) { cudaFreeAsync(p[i], s); });
    for (std::size_t bytes : {std::size_t(64), std::size_t(70000), std::size_t(416000)}) {
      std::vector<char> host(bytes, 1);
      void* d = nullptr;
      cudaMalloc(&d, bytes);
      char name[64];
      std::snprintf(name, sizeof name, "cudaMemcpy %zu bytes from pageable", bytes);
      timed(name, 50, s, [&](int) { cudaMemcpy(d, host.data(), bytes, cudaMemcpyHostToDevice); });
      std::snprintf(name, sizeof name, "cudaMemcpyAsync %zu bytes, legacy stream", bytes);
      timed(name, 50, s, [&](int) {
        cudaMemcpyAsync(d, host.data(), bytes, cudaMemcpyHostToDevice, cudaStreamLegacy);
      });
      cudaFree(d);
    }
    int h = 0;
    timed("read 4 bytes and wait", 200, s, [&](int) {
      cudaMemcpyAsync(&h, x, 4, cudaMemcpyDeviceToHost, s);
      cudaStreamSynchronize(s);
    });
  }
  return 0;
}
