// Array<T, Space>: an owning, move-only buffer in one memory space (host now, device in linalg/cuda).
#pragma once

#include "linalg/base.hpp"
#include "linalg/tuning.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace spmesh::linalg {

// Host memory, 64-byte aligned so vector loads never straddle a cache line. The bytes held are
// counted (now, and the most since reset_peak) for memory reports, as Device's.
struct Host {
  static void* allocate(std::size_t bytes) {
    if (bytes == 0) return nullptr;
    // Large arrays in 2 MiB pages where the kernel offers them (transparent huge pages): a
    // page fault per 2 MiB rather than per 4 KiB when they are first written.
    const std::size_t align = bytes >= tuning::huge_page_from ? tuning::huge_page : 64;
    void* p = std::aligned_alloc(align, (bytes + align - 1) / align * align);
    if (!p) throw CapacityError("host allocation of " + std::to_string(bytes) + " bytes failed");
#ifdef MADV_HUGEPAGE
    if (align == tuning::huge_page) ::madvise(p, (bytes + align - 1) / align * align, MADV_HUGEPAGE);
#endif
    const std::size_t now = held().fetch_add(bytes) + bytes;
    std::size_t most = most_held().load();
    while (now > most && !most_held().compare_exchange_weak(most, now)) {
    }
    return p;
  }
  static void deallocate(void* p, std::size_t bytes) {
    if (!p) return;
    held().fetch_sub(bytes);
    std::free(p);
  }
  static std::size_t current_bytes() { return held().load(); }
  static std::size_t peak_bytes() { return most_held().load(); }
  static void reset_peak() { most_held() = held().load(); }

private:
  static std::atomic<std::size_t>& held() {
    static std::atomic<std::size_t> bytes{0};
    return bytes;
  }
  static std::atomic<std::size_t>& most_held() {
    static std::atomic<std::size_t> bytes{0};
    return bytes;
  }
};

// Move-only so that copies are always explicit (clone()); elements are left uninitialised
// on construction unless a fill value is given.
template <class T, class Space = Host>
class Array {
  static_assert(std::is_trivially_copyable_v<T>, "Array holds trivially copyable elements");

public:
  using value_type = T;
  using space = Space;

  Array() = default;
  explicit Array(index_t n) : data_(static_cast<T*>(Space::allocate(bytes_for(n)))), size_(n) {}
  Array(index_t n, T fill) : Array(n) {
    static_assert(std::is_same_v<Space, Host>, "fill-construction is host only");
    std::fill_n(data_, n, fill);
  }
  Array(std::initializer_list<T> values) : Array(checked_index(values.size(), "Array")) {
    std::copy(values.begin(), values.end(), data_);
  }
  template <class U = T>
    requires std::is_same_v<Space, Host>
  explicit Array(const std::vector<U>& values) : Array(checked_index(values.size(), "Array")) {
    std::copy(values.begin(), values.end(), data_);
  }

  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  Array(Array&& o) noexcept : data_(o.data_), size_(o.size_) { o.data_ = nullptr, o.size_ = 0; }
  Array& operator=(Array&& o) noexcept {
    if (this != &o) {
      Space::deallocate(data_, bytes_for(size_));
      data_ = o.data_, size_ = o.size_;
      o.data_ = nullptr, o.size_ = 0;
    }
    return *this;
  }
  ~Array() { Space::deallocate(data_, bytes_for(size_)); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  index_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Element access and iteration are for host arrays only.
  T& operator[](index_t i) requires std::is_same_v<Space, Host> { return data_[i]; }
  const T& operator[](index_t i) const requires std::is_same_v<Space, Host> { return data_[i]; }
  T* begin() requires std::is_same_v<Space, Host> { return data_; }
  T* end() requires std::is_same_v<Space, Host> { return data_ + size_; }
  const T* begin() const requires std::is_same_v<Space, Host> { return data_; }
  const T* end() const requires std::is_same_v<Space, Host> { return data_ + size_; }
  std::vector<T> to_vector() const requires std::is_same_v<Space, Host> {
    return std::vector<T>(data_, data_ + size_);
  }

  Array clone() const requires std::is_same_v<Space, Host> {
    Array out(size_);
    if (size_) std::memcpy(out.data_, data_, bytes_for(size_));
    return out;
  }

private:
  static std::size_t bytes_for(index_t n) {
    if (n < 0) throw CapacityError("Array: negative size " + std::to_string(n));
    return static_cast<std::size_t>(n) * sizeof(T);
  }

  T* data_ = nullptr;
  index_t size_ = 0;
};

template <class T>
using HostArray = Array<T, Host>;

}  // namespace spmesh::linalg
