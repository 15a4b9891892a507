// cpu::Executor primitives (scan, radix sort, segmented reduce, compaction, unique,
// reduce_by_key) against the std:: algorithms, on sizes that take the serial path and sizes
// that take the parallel blocked path (more than 4 x 2048 elements).
#include <map>

#include "common.hpp"

using namespace spmesh;
using namespace spmesh::test;

namespace {

const index_t sizes[] = {0, 1, 2, 100, 2047, 8191, 8192, 150001};
const int thread_counts[] = {1, 4};

std::vector<index_t> random_ints(index_t n, index_t lo, index_t hi, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<index_t> d(lo, hi);
  std::vector<index_t> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

}  // namespace

TEST_CASE("exclusive_scan equals std::exclusive_scan and returns the total") {
  for (int threads : thread_counts)
    for (index_t n : sizes) {
      INFO("threads " << threads << ", n " << n);
      cpu::Executor exec(threads);
      const auto in = random_ints(n, 0, 100, 7 + n);
      std::vector<index_t> out(n, -1), ref(n);
      std::exclusive_scan(in.begin(), in.end(), ref.begin(), index_t{0});
      const index_t total = exec.exclusive_scan(in.data(), out.data(), n);
      CHECK(out == ref);
      CHECK(total == std::accumulate(in.begin(), in.end(), index_t{0}));

      // 64-bit counts (SpGEMM scans these) and integer-valued doubles are exact too.
      std::vector<std::int64_t> in64(in.begin(), in.end()), out64(n), ref64(n);
      std::exclusive_scan(in64.begin(), in64.end(), ref64.begin(), std::int64_t{0});
      CHECK(exec.exclusive_scan(in64.data(), out64.data(), n) == total);
      CHECK(out64 == ref64);
      std::vector<double> ind(in.begin(), in.end()), outd(n), refd(n);
      std::exclusive_scan(ind.begin(), ind.end(), refd.begin(), 0.0);
      CHECK(exec.exclusive_scan(ind.data(), outd.data(), n) == static_cast<double>(total));
      CHECK(outd == refd);
    }
}

TEST_CASE("exclusive_scan in place (in == out) equals std::exclusive_scan") {
  for (int threads : thread_counts)
    for (index_t n : sizes) {
      INFO("threads " << threads << ", n " << n);
      cpu::Executor exec(threads);
      auto data = random_ints(n, -50, 50, 11 + n);
      std::vector<index_t> ref(n);
      std::exclusive_scan(data.begin(), data.end(), ref.begin(), index_t{0});
      const index_t total = std::accumulate(data.begin(), data.end(), index_t{0});
      CHECK(exec.exclusive_scan(data.data(), data.data(), n) == total);
      CHECK(data == ref);
    }
}

TEST_CASE("exclusive_scan of zero elements returns 0 and writes nothing") {
  cpu::Executor exec(4);
  index_t sentinel = 42;
  CHECK(exec.exclusive_scan(&sentinel, &sentinel, 0) == 0);
  CHECK(sentinel == 42);
  CHECK(exec.exclusive_scan<double>(nullptr, nullptr, 0) == 0.0);
}

// Keys for the sort tests: `pooled` draws from 50 distinct keys (many equal keys, so stability
// shows), otherwise keys are spread over [0, 2^bits).
template <class K>
std::vector<K> random_keys(index_t n, int bits, bool pooled, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::uint64_t mask = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  std::vector<K> pool(50);
  for (auto& k : pool) k = static_cast<K>(rng() & mask);
  std::vector<K> keys(n);
  for (auto& k : keys) k = pooled ? pool[rng() % pool.size()] : static_cast<K>(rng() & mask);
  return keys;
}

// The key widths to try for K: the whole type (as a default argument) and narrower ones,
// including widths that are not a multiple of the 8-bit digit.
template <class K>
std::vector<int> key_widths() {
  if constexpr (std::is_same_v<K, std::uint64_t>)
    return {64, 40, 33, 12, 3};
  else if constexpr (std::is_signed_v<K>)
    return {31, 20, 8, 1};  // non-negative keys only
  else
    return {32, 24, 12, 3};
}

TEST_CASE_TEMPLATE("sort_pairs is stable: equal keys keep their input order", K, std::uint32_t,
                   std::uint64_t, std::int32_t) {
  for (int threads : thread_counts)
    for (index_t n : sizes)
      for (int bits : key_widths<K>())
        for (bool pooled : {true, false}) {
          INFO("threads " << threads << ", n " << n << ", key bits " << bits << ", pooled "
                          << pooled);
          cpu::Executor exec(threads);
          auto keys = random_keys<K>(n, bits, pooled, 3 * n + bits);
          std::vector<index_t> values(n);
          std::iota(values.begin(), values.end(), 0);  // input positions
          std::vector<std::pair<K, index_t>> ref(n);
          for (index_t p = 0; p < n; ++p) ref[p] = {keys[p], values[p]};
          std::stable_sort(ref.begin(), ref.end(),
                           [](const auto& a, const auto& b) { return a.first < b.first; });
          if (bits == static_cast<int>(8 * sizeof(K)) || (std::is_signed_v<K> && bits == 31))
            exec.sort_pairs(keys.data(), values.data(), n);  // default: all bits of K
          else
            exec.sort_pairs(keys.data(), values.data(), n, bits);
          index_t bad = 0;
          for (index_t p = 0; p < n; ++p)
            bad += keys[p] == ref[p].first && values[p] == ref[p].second ? 0 : 1;
          CHECK(bad == 0);
        }
}

TEST_CASE_TEMPLATE("sort_keys sorts ascending like std::sort", K, std::uint32_t, std::uint64_t,
                   std::int32_t) {
  for (int threads : thread_counts)
    for (index_t n : sizes)
      for (int bits : key_widths<K>()) {
        INFO("threads " << threads << ", n " << n << ", key bits " << bits);
        cpu::Executor exec(threads);
        auto keys = random_keys<K>(n, bits, false, 5 * n + bits);
        auto ref = keys;
        std::sort(ref.begin(), ref.end());
        exec.sort_keys(keys.data(), n, bits);
        CHECK(keys == ref);
      }
}

TEST_CASE("sort_pairs carries 8-byte values with their keys") {
  cpu::Executor exec(4);
  const index_t n = 50000;
  auto keys = random_keys<std::uint32_t>(n, 32, true, 99);
  std::vector<double> values(n);
  for (index_t p = 0; p < n; ++p) values[p] = 0.5 * p;
  std::vector<std::pair<std::uint32_t, double>> ref(n);
  for (index_t p = 0; p < n; ++p) ref[p] = {keys[p], values[p]};
  std::stable_sort(ref.begin(), ref.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  exec.sort_pairs(keys.data(), values.data(), n);
  bool same = true;
  for (index_t p = 0; p < n; ++p)
    same = same && keys[p] == ref[p].first && values[p] == ref[p].second;
  CHECK(same);
}

namespace {

// Segment offsets with lengths 0..5, about a third of them empty.
std::vector<index_t> random_segments(index_t segments, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<index_t> offsets{0};
  for (index_t s = 0; s < segments; ++s) {
    const index_t len = rng() % 3 == 0 ? 0 : static_cast<index_t>(1 + rng() % 5);
    offsets.push_back(offsets.back() + len);
  }
  return offsets;
}

template <class T, class Reduce, class Ref>
void check_segmented(cpu::Executor& exec, index_t segments, Reduce r, T identity, Ref ref_op) {
  const auto offsets = random_segments(segments, 17 + segments);
  const index_t n = offsets.back();
  std::vector<T> in(n);
  std::mt19937_64 rng(n);
  for (auto& x : in) x = static_cast<T>(static_cast<int>(rng() % 2001) - 1000) / T(8);
  std::vector<T> out(segments), ref(segments);
  for (index_t s = 0; s < segments; ++s) {
    ref[s] = identity;
    if (offsets[s] < offsets[s + 1])
      ref[s] = std::accumulate(in.begin() + offsets[s] + 1, in.begin() + offsets[s + 1],
                               in[offsets[s]], ref_op);
  }
  exec.segmented_reduce(in.data(), offsets.data(), segments, out.data(), r);
  CHECK(out == ref);
}

}  // namespace

TEST_CASE("segmented_reduce reduces each segment in order and gives empty segments the identity") {
  const auto inf = std::numeric_limits<double>::infinity();
  auto mn = [](auto a, auto b) { return std::min(a, b); };
  auto mx = [](auto a, auto b) { return std::max(a, b); };
  auto each = [](auto&& check) {
    for (int threads : thread_counts)
      for (index_t segments : {0, 1, 7, 5000}) {
        INFO("threads " << threads << ", segments " << segments);
        cpu::Executor exec(threads);
        check(exec, segments);
      }
  };
  SUBCASE("sum") {
    each([&](cpu::Executor& exec, index_t segments) {
      check_segmented<double>(exec, segments, la::reduce::Sum{}, 0.0, std::plus<>{});
      check_segmented<index_t>(exec, segments, la::reduce::Sum{}, 0, std::plus<>{});
    });
  }
  SUBCASE("min") {
    each([&](cpu::Executor& exec, index_t segments) {
      check_segmented<double>(exec, segments, la::reduce::Min{}, inf, mn);
      check_segmented<index_t>(exec, segments, la::reduce::Min{},
                               std::numeric_limits<index_t>::max(), mn);
    });
  }
  SUBCASE("max") {
    each([&](cpu::Executor& exec, index_t segments) {
      check_segmented<double>(exec, segments, la::reduce::Max{}, -inf, mx);
      check_segmented<index_t>(exec, segments, la::reduce::Max{},
                               std::numeric_limits<index_t>::lowest(), mx);
    });
  }
  SUBCASE("user monoid") {
    each([&](cpu::Executor& exec, index_t segments) {
      check_segmented<double>(exec, segments, la::reduce::monoid(mx, -1e6), -1e6, mx);
    });
  }
}

TEST_CASE("select_if keeps the selected elements in order, as std::copy_if") {
  for (int threads : thread_counts)
    for (index_t n : sizes) {
      INFO("threads " << threads << ", n " << n);
      cpu::Executor exec(threads);
      const auto in = random_ints(n, 0, 1000, 23 + n);
      std::vector<index_t> out(n, -1), ref;
      const index_t* v = in.data();
      const index_t kept =
          exec.select_if(v, n, out.data(), [=](index_t i) { return v[i] % 3 == 0; });
      std::copy_if(in.begin(), in.end(), std::back_inserter(ref),
                   [](index_t x) { return x % 3 == 0; });
      REQUIRE(kept == static_cast<index_t>(ref.size()));
      CHECK(std::equal(ref.begin(), ref.end(), out.begin()));
      // Positional predicate: every second element.
      std::vector<index_t> odd;
      for (index_t i = 1; i < n; i += 2) odd.push_back(in[i]);
      CHECK(exec.select_if(v, n, out.data(), [](index_t i) { return i % 2 == 1; }) ==
            static_cast<index_t>(odd.size()));
      CHECK(std::equal(odd.begin(), odd.end(), out.begin()));
    }
}

TEST_CASE("count_if counts like std::count_if") {
  for (int threads : thread_counts)
    for (index_t n : sizes) {
      INFO("threads " << threads << ", n " << n);
      cpu::Executor exec(threads);
      const auto in = random_ints(n, 0, 1000, 29 + n);
      const index_t* v = in.data();
      CHECK(exec.count_if(n, [=](index_t i) { return v[i] < 250; }) ==
            std::count_if(in.begin(), in.end(), [](index_t x) { return x < 250; }));
      CHECK(exec.count_if(n, [](index_t) { return true; }) == n);
    }
}

TEST_CASE("unique removes consecutive duplicates like std::unique_copy") {
  for (int threads : thread_counts)
    for (index_t n : sizes) {
      INFO("threads " << threads << ", n " << n);
      cpu::Executor exec(threads);
      auto in = random_ints(n, 0, n / 3 + 1, 31 + n);
      std::sort(in.begin(), in.end());  // long runs, as after a sort
      std::vector<index_t> out(n), ref;
      std::unique_copy(in.begin(), in.end(), std::back_inserter(ref));
      const index_t kept = exec.unique(in.data(), n, out.data());
      REQUIRE(kept == static_cast<index_t>(ref.size()));
      CHECK(std::equal(ref.begin(), ref.end(), out.begin()));
      // Unsorted input: only consecutive repeats go.
      const auto raw = random_ints(n, 0, 2, 37 + n);
      ref.clear();
      std::unique_copy(raw.begin(), raw.end(), std::back_inserter(ref));
      REQUIRE(exec.unique(raw.data(), n, out.data()) == static_cast<index_t>(ref.size()));
      CHECK(std::equal(ref.begin(), ref.end(), out.begin()));
    }
}

TEST_CASE("reduce_by_key gives one key and the in-order reduction of each run") {
  for (int threads : thread_counts)
    for (index_t n : sizes) {
      INFO("threads " << threads << ", n " << n);
      cpu::Executor exec(threads);
      auto keys64 = random_keys<std::uint64_t>(n, 40, true, 41 + n);
      std::sort(keys64.begin(), keys64.end());
      std::vector<double> values(n);
      for (index_t p = 0; p < n; ++p) values[p] = 1.0 / (p + 1);
      std::vector<std::uint64_t> ref_keys;
      std::vector<double> ref_sum, ref_first;
      for (index_t p = 0; p < n; ++p) {
        if (p == 0 || keys64[p] != keys64[p - 1]) {
          ref_keys.push_back(keys64[p]);
          ref_sum.push_back(values[p]);
          ref_first.push_back(values[p]);
        } else {
          ref_sum.back() += values[p];
        }
      }
      std::vector<std::uint64_t> out_keys(n);
      std::vector<double> out_values(n);
      index_t runs = exec.reduce_by_key(keys64.data(), values.data(), n, out_keys.data(),
                                        out_values.data(), la::reduce::Sum{});
      REQUIRE(runs == static_cast<index_t>(ref_keys.size()));
      CHECK(std::equal(ref_keys.begin(), ref_keys.end(), out_keys.begin()));
      CHECK(std::equal(ref_sum.begin(), ref_sum.end(), out_values.begin()));  // same order: exact
      runs = exec.reduce_by_key(keys64.data(), values.data(), n, out_keys.data(), out_values.data(),
                                la::reduce::First{});
      REQUIRE(runs == static_cast<index_t>(ref_keys.size()));
      CHECK(std::equal(ref_first.begin(), ref_first.end(), out_values.begin()));
    }
}

TEST_CASE("for_each visits every index exactly once") {
  for (int threads : thread_counts)
    for (index_t n : sizes) {
      cpu::Executor exec(threads);
      std::vector<int> hits(n, 0);
      int* h = hits.data();
      exec.for_each(n, [=](index_t i) { ++h[i]; });
      CHECK(std::count(hits.begin(), hits.end(), 1) == n);
    }
}
