// Device memory (GPU only): small arrays share slabs (memory.hpp's detail::Slabs) without
// overlapping or losing their data, take far fewer pool calls than arrays, and give their
// slabs back when the last of them goes; large arrays take the pool directly. A recording
// holds the memory its work used.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "../common.hpp"
#include "linalg/cuda/executor.cuh"

namespace spmesh::test::cuda_memory {

struct Fill {  // a[i] = base + i
  index_t* a;
  index_t base;
  SPMESH_HD void operator()(index_t i) const { a[i] = base + i; }
};

TEST_CASE("small device arrays share slabs, keep their data and go back to the pool") {
  la::cuda::Executor exec;
  const std::size_t bytes_before = la::Device::current_bytes();
  const std::int64_t calls_before = la::Device::allocations();
  {
    std::vector<la::DeviceArray<index_t>> arrays;
    for (index_t k = 0; k < 200; ++k) {  // 1 to 3000 elements: 4 bytes to 12 KB
      const index_t n = 1 + (k * 797) % 3000;
      arrays.emplace_back(n);
      exec.for_each(n, Fill{arrays.back().data(), 10000 * k});
    }
    // Under 2.5 MB in all: one or two slabs, not 200 pool calls.
    CHECK(la::Device::allocations() - calls_before <= 2);
    CHECK(la::Device::current_bytes() - bytes_before <= 2 * la::detail::Slabs::slab);
    // Disjoint, aligned, and each holds what was written into it.
    std::vector<std::pair<const char*, const char*>> spans;
    for (index_t k = 0; k < 200; ++k) {
      const auto& a = arrays[k];
      const auto* p = reinterpret_cast<const char*>(a.data());
      spans.emplace_back(p, p + a.size() * sizeof(index_t));
      CHECK(reinterpret_cast<std::uintptr_t>(p) % la::detail::Slabs::align == 0);
      const auto host = la::cuda::to_host(a);
      bool right = true;
      for (index_t i = 0; i < a.size(); ++i) right = right && host[i] == 10000 * k + i;
      CHECK_MESSAGE(right, "array ", k);
    }
    std::sort(spans.begin(), spans.end());
    for (std::size_t s = 1; s < spans.size(); ++s) CHECK(spans[s - 1].second <= spans[s].first);
    // Freed in another order than allocated: the slabs go back only with their last array.
    for (index_t k = 0; k < 200; k += 2) arrays[k] = {};
    CHECK(la::Device::current_bytes() > bytes_before);
  }
  CHECK(la::Device::current_bytes() == bytes_before);
  // A large array is a pool block of its own, counted to the byte.
  const std::int64_t calls = la::Device::allocations();
  const std::size_t large = la::detail::Slabs::small + 4;
  {
    la::DeviceArray<char> a(static_cast<index_t>(large));
    CHECK(la::Device::allocations() == calls + 1);
    CHECK(la::Device::current_bytes() == bytes_before + large);
  }
  CHECK(la::Device::current_bytes() == bytes_before);
}

struct Scale {  // out[i] = factor in[i] + add
  const index_t* in;
  index_t* out;
  index_t factor, add;
  SPMESH_HD void operator()(index_t i) const { out[i] = factor * in[i] + add; }
};

// Executor::record: the work is replayed as a graph, on its input's present contents, into the
// same result; the temporaries it freed are held until the recording goes; a wait inside is
// refused by name, and the executor goes on.
TEST_CASE("a large download goes through the pinned staging buffers and keeps every element") {
  // Sizes around the staging threshold and chunk: one chunk short of it, exactly two chunks,
  // and several chunks with a partial last one.
  la::cuda::Executor exec;
  const index_t chunk = static_cast<index_t>(la::tuning::staging_bytes / sizeof(index_t));
  for (const index_t n : {2 * chunk - 1, 2 * chunk, 5 * chunk + 12345}) {
    la::DeviceArray<index_t> a(n);
    exec.for_each(n, Fill{a.data(), 7});
    exec.synchronize();
    const auto host = la::cuda::to_host(a);
    index_t wrong = 0;
    for (index_t i = 0; i < n; ++i) wrong += host[i] != 7 + i;
    CHECK_MESSAGE(wrong == 0, "n = " << n);
  }
}

TEST_CASE("a recording replays its work on new input, holds its temporaries, refuses waits") {
  la::cuda::Executor exec;
  const std::size_t bytes_before = la::Device::current_bytes();
  const index_t n = 100000;  // 400 KB: pool blocks of their own, not slabs
  const std::size_t block = sizeof(index_t) * n;
  {
    la::DeviceArray<index_t> in(n);
    auto recording = exec.record([&] {
      la::DeviceArray<index_t> doubled(n), ramp(n), out(n);
      exec.for_each(n, Fill{ramp.data(), 7});
      exec.for_each(n, Scale{in.data(), doubled.data(), 2, 0});
      exec.for_each(n, Scale{doubled.data(), out.data(), 1, 1});
      exec.for_each(n, Scale{ramp.data(), doubled.data(), 0, 0});  // doubled is 0 after out is made
      la::DeviceArray<index_t> result(n);
      exec.for_each(n, Scale{out.data(), result.data(), 1, 0});
      return std::make_pair(std::move(result), std::move(ramp));
    });
    // in, the result's two arrays, and the two temporaries, held.
    CHECK(la::Device::current_bytes() == bytes_before + 5 * block);
    for (index_t base : {0, 5}) {
      exec.for_each(n, Fill{in.data(), base});
      const auto& [result, ramp] = recording.replay();
      const auto got = la::cuda::to_host(result), got_ramp = la::cuda::to_host(ramp);
      index_t wrong = 0;
      for (index_t i = 0; i < n; ++i)
        wrong += got[i] == 2 * (base + i) + 1 && got_ramp[i] == 7 + i ? 0 : 1;
      CHECK_MESSAGE(wrong == 0, "input from ", base);
    }
  }
  CHECK(la::Device::current_bytes() == bytes_before);
  {  // CUB's temp storage that the work used goes with the recording: a scan (no wait) replays
     // right after the executor's own temp storage was made anew for a larger sort
    const index_t m = 1000;
    la::DeviceArray<index_t> in(m), out(m), total(1), keys(4 * n);
    auto scan = exec.record([&] {
      exec.exclusive_scan(in.data(), out.data(), m, total.data());
      return 0;
    });
    exec.for_each(4 * n, Fill{keys.data(), 0});
    exec.sort_keys(keys.data(), 4 * n);
    exec.for_each(m, Fill{in.data(), 1});
    scan.replay();
    CHECK(exec.read(total.data()) == m * (m + 1) / 2);
    CHECK(exec.read(out.data() + m - 1) == m * (m - 1) / 2);
  }
  la::DeviceArray<index_t> a(n);
  const std::string message = thrown_message<la::cuda::CudaError>([&] {
    exec.record([&] { return exec.read(a.data()); });
  });
  CHECK(message.find("record") != std::string::npos);
  CHECK(message.find("may not wait for the device") != std::string::npos);
  exec.for_each(n, Fill{a.data(), 3});
  CHECK(exec.read(a.data() + 10) == 13);
}

}  // namespace spmesh::test::cuda_memory
