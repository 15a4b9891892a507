// What the GPU-and-CPU benchmark programs (patches.cpp, limits.cpp, solid_limits.cpp) share: a
// median time, an executor's memory rate (the bytes floor's unit) and their JSON file.
#pragma once

#include "linalg/array.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace spmesh::bench {

// The median of at least `runs` runs of f (more while under `budget_ms` in all, at most 50), after
// one warm-up run (first touch, pool allocations, OpenMP threads).
inline double time_ms(const std::function<void()>& f, int runs = 3, double budget_ms = 2000) {
  f();
  std::vector<double> ms;
  double total = 0;
  while (ms.size() < std::size_t(std::max(runs, 1)) || (total < budget_ms && ms.size() < 50)) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    total += ms.back();
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// The executor's memory rate in GB/s (bytes read + written), the bytes floor's unit: the best of a
// large array copied by for_each and by copy, and filled by for_each (a write-only stream, which
// an H100's memory serves faster than a copy: a floor from the copy alone was beaten by 20%).
template <class Exec>
double memory_gbs(Exec& exec) {
  using S = typename Exec::space;
  const index_t n = index_t(1) << 26;
  linalg::Array<float, S> from(n), to(n);
  float *a = from.data(), *b = to.data();
  exec.for_each(n, [=] SPMESH_HD(index_t i) { a[i] = float(i); });
  const double bytes = sizeof(float) * double(n);
  const double copied = time_ms([&] {
    exec.for_each(n, [=] SPMESH_HD(index_t i) { b[i] = a[i]; });
    exec.synchronize();
  });
  const double moved = time_ms([&] {
    exec.copy(a, n, b);
    exec.synchronize();
  });
  const double filled = time_ms([&] {
    exec.for_each(n, [=] SPMESH_HD(index_t i) { b[i] = 1.0f; });
    exec.synchronize();
  });
  return std::max({2 * bytes / copied, 2 * bytes / moved, bytes / filled}) / 1e6;
}

// {"memory_gbs": [rates], "rows": [...]}, each row's fields written by row(file, r) (without
// braces).
template <class Row, class F>
void write_json(const std::string& path, const std::vector<double>& rates, const std::vector<Row>& rows, F&& row) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw Error("cannot write " + path);
  std::fprintf(f, "{\"memory_gbs\": [");
  for (std::size_t i = 0; i < rates.size(); ++i) std::fprintf(f, "%s%.1f", i ? ", " : "", rates[i]);
  std::fprintf(f, "], \"rows\": [\n");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::fprintf(f, "  {");
    row(f, rows[i]);
    std::fprintf(f, "}%s\n", i + 1 < rows.size() ? "," : "");
  }
  std::fprintf(f, "]}\n");
  std::fclose(f);
}

}  // namespace spmesh::bench
