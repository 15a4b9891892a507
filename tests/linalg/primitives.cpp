// Executor primitives (scan, radix sort, segmented sort, grouping by key, segmented reduce,
// compaction, unique, scatter_min, for_each, for_each_with_scratch) against the std::
// algorithms on every backend: on the CPU with 1 and 4 threads, on sizes that take the serial
// path and sizes that take the parallel blocked path (more than 4 x 2048 elements); on the GPU
// (cuda/primitives.cu) with device arrays, compared with the CPU.
#include <map>

#include "common.hpp"

namespace spmesh::test::primitives_tests {

const index_t sizes[] = {0, 1, 2, 100, 2047, 8191, 8192, 150001};

// f(exec) on the executors of the backend: the CPU with 1 and 4 threads, the GPU once.
template <class Backend, class F>
void each_executor(F&& f) {
  if constexpr (is_cpu<Backend>) {
    for (int threads : {1, 4}) {
      INFO("threads " << threads);
      cpu::Executor exec(threads);
      f(exec);
    }
  } else {
    typename Backend::Exec exec;
    f(exec);
  }
}

std::vector<index_t> random_ints(index_t n, index_t lo, index_t hi, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<index_t> d(lo, hi);
  std::vector<index_t> v(n);
  for (auto& x : v) x = d(rng);
  return v;
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

// ---- the ops, on arrays of either memory space (outputs are given, pre-filled, so that
// positions an op must not write compare equal too) -------------------------------------------

// (out, total) of the exclusive scan of in.
struct Scan {
  template <class E, class A>
  auto operator()(E& exec, const A& in, A& out) const {
    const auto total = exec.exclusive_scan(in.data(), out.data(), in.size());
    return std::make_pair(std::move(out), total);
  }
};
struct ScanInPlace {
  template <class E, class A>
  auto operator()(E& exec, A& data) const {
    const auto total = exec.exclusive_scan(data.data(), data.data(), data.size());
    return std::make_pair(std::move(data), total);
  }
};
// The scan with no wait, out of place or in place, its total left in total[0] (and once with
// no total kept: out must be the same).
struct ScanKeepingTotal {
  bool in_place;
  template <class E, class A>
  auto operator()(E& exec, A& in, A& out, A& total) const {
    exec.exclusive_scan(in.data(), in_place ? in.data() : out.data(), in.size(), total.data());
    A again(in_place ? 0 : in.size());
    if (!in_place)
      exec.exclusive_scan(in.data(), again.data(), in.size(), static_cast<index_t*>(nullptr));
    return std::make_tuple(std::move(in_place ? in : out), std::move(total), std::move(again));
  }
};
// A scan of 0 elements of `data` (which must stay as it is); also one of null pointers.
struct ScanNothing {
  template <class E, class A>
  auto operator()(E& exec, A& data) const {
    const auto total = exec.exclusive_scan(data.data(), data.data(), 0);
    const double none = exec.template exclusive_scan<double>(nullptr, nullptr, 0);
    return std::make_tuple(std::move(data), total, none);
  }
};

// Sorts by the low `bits` bits; bits <= 0 uses the default (every bit of the key type).
struct SortPairs {
  int bits;
  template <class E, class K, class V>
  auto operator()(E& exec, K& keys, V& values) const {
    if (bits <= 0)
      exec.sort_pairs(keys.data(), values.data(), keys.size());
    else
      exec.sort_pairs(keys.data(), values.data(), keys.size(), bits);
    return std::make_pair(std::move(keys), std::move(values));
  }
};
struct SortKeys {
  int bits;
  template <class E, class K>
  K operator()(E& exec, K& keys) const {
    exec.sort_keys(keys.data(), keys.size(), bits);
    return std::move(keys);
  }
};

template <class Reduce>
struct SegmentedReduce {
  Reduce r;
  template <class E, class A, class O>
  A operator()(E& exec, const A& in, const O& offsets, A& out) const {
    exec.segmented_reduce(in.data(), offsets.data(), out.size(), out.data(), r);
    return std::move(out);
  }
};

// Predicates of position i (device-callable functors).
struct MultipleOf3 {
  const index_t* v;
  SPMESH_HD bool operator()(index_t i) const { return v[i] % 3 == 0; }
};
struct OddPosition {
  SPMESH_HD bool operator()(index_t i) const { return i % 2 == 1; }
};
struct Below250 {
  const index_t* v;
  SPMESH_HD bool operator()(index_t i) const { return v[i] < 250; }
};
struct Always {
  SPMESH_HD bool operator()(index_t) const { return true; }
};

// (out, kept) of select_if with the predicate of position `odd` ? OddPosition : MultipleOf3.
struct SelectIf {
  bool odd;
  template <class E, class A>
  auto operator()(E& exec, const A& in, A& out) const {
    const index_t kept =
        odd ? exec.select_if(in.data(), in.size(), out.data(), OddPosition{})
            : exec.select_if(in.data(), in.size(), out.data(), MultipleOf3{in.data()});
    return std::make_pair(std::move(out), kept);
  }
};
// Both selections of SelectIf, their counts left in executor memory and read with one call:
// (out multiples of 3, out odd positions, the counts as read, the counts as stored).
struct SelectIfCounted {
  template <class E, class A>
  auto operator()(E& exec, const A& in, A& out3, A& out_odd, A& counts) const {
    exec.select_if(in.data(), in.size(), out3.data(), counts.data(), MultipleOf3{in.data()});
    exec.select_if(in.data(), in.size(), out_odd.data(), counts.data() + 1, OddPosition{});
    index_t read[2] = {-1, -1};
    exec.read(counts.data(), 2, read);
    return std::make_tuple(std::move(out3), std::move(out_odd), read[0], read[1],
                           std::move(counts));
  }
};
// select_positions with the predicate MultipleOf3: (out, the count as stored).
struct SelectPositions {
  template <class E, class A>
  auto operator()(E& exec, const A& in, A& out, A& count) const {
    exec.select_positions(in.size(), out.data(), count.data(), MultipleOf3{in.data()});
    return std::make_pair(std::move(out), std::move(count));
  }
};
struct ValueAt {
  const index_t* v;
  SPMESH_HD index_t operator()(index_t i) const { return v[i]; }
};
// out after scatter_min of values at keys.
struct ScatterMin {
  template <class E, class A>
  A operator()(E& exec, const A& keys, const A& values, A& out) const {
    exec.scatter_min(keys.data(), keys.size(), out.data(), ValueAt{values.data()});
    return std::move(out);
  }
};
struct CountIf {
  template <class E, class A>
  auto operator()(E& exec, const A& in) const {
    A kept(1);  // the count left in executor memory
    exec.count_if(in.size(), Below250{in.data()}, kept.data());
    return std::make_tuple(exec.count_if(in.size(), Below250{in.data()}), exec.count_if(in.size(), Always{}),
                           std::move(kept));
  }
};
struct Unique {
  template <class E, class A>
  auto operator()(E& exec, const A& in, A& out) const {
    const index_t kept = exec.unique(in.data(), in.size(), out.data());
    return std::make_pair(std::move(out), kept);
  }
};
// Sorts each segment of (key, value) pairs; returns both arrays.
struct SegmentedSortPairs {
  template <class E, class K, class V, class O>
  auto operator()(E& exec, K& keys, V& values, const O& offsets) const {
    exec.segmented_sort_pairs(keys.data(), values.data(), offsets.data(), offsets.size() - 1);
    return std::make_pair(std::move(keys), std::move(values));
  }
};
// (offsets, positions) of group_by_key with `groups` groups.
struct GroupByKey {
  index_t groups;
  template <class E, class K>
  auto operator()(E& exec, const K& keys) const {
    K offsets(groups + 1), positions(keys.size());
    exec.group_by_key(keys.data(), keys.size(), groups, offsets.data(), positions.data());
    return std::make_pair(std::move(offsets), std::move(positions));
  }
};

struct Hit {
  int* hits;
  SPMESH_HD void operator()(index_t i) const { ++hits[i]; }
};
struct ForEach {
  template <class E, class A>
  A operator()(E& exec, A& hits) const {
    exec.for_each(hits.size(), Hit{hits.data()});
    return std::move(hits);
  }
};

// Each item fills its scratch (40 doubles, then 40 ints) from its index and reads it all back
// in reverse: items that shared any of it would see another item's numbers. The sum is 80 i.
struct FillScratch {
  index_t* sums;
  SPMESH_HD void operator()(index_t i, la::ItemScratch scratch) const {
    const auto wide = scratch.take<double>(40);
    const auto narrow = scratch.take<index_t>(40);
    for (index_t m = 0; m < 40; ++m) wide[m] = static_cast<double>(i + m), narrow[m] = i - m;
    index_t sum = 0;
    for (index_t m = 39; m >= 0; --m) sum += static_cast<index_t>(wide[m]) + narrow[m];
    sums[i] = sum;
  }
};
struct ForEachWithScratch {
  template <class E, class A>
  A operator()(E& exec, A& sums) const {
    exec.template for_each_with_scratch<40 * (sizeof(double) + sizeof(index_t))>(
        sums.size(), FillScratch{sums.data()});
    return std::move(sums);
  }
};

// Each tile's threads write their numbers into the tile's scratch (phase 0), read them back
// reversed (1), overwrite them doubled (2) and add the next thread's (3): only barriers between
// phases and scratch of each tile's own give out[t, i] = v(t, T - 1 - i) + 2 v(t, (i + 1) % T).
struct ReverseInTiles {
  static constexpr int threads = 64;
  index_t* out;
  static SPMESH_HD index_t value(index_t tile, int i) { return 1000 * tile + i; }
  SPMESH_HD void operator()(int phase, index_t tile, int i, std::byte* shared) const {
    auto* s = reinterpret_cast<index_t*>(shared);
    if (phase == 0) s[i] = value(tile, i);
    if (phase == 1) out[tile * threads + i] = s[threads - 1 - i];
    if (phase == 2) s[i] = 2 * value(tile, i);
    if (phase == 3) out[tile * threads + i] += s[(i + 1) % threads];
  }
};
struct ForEachTile {
  template <class E, class A>
  A operator()(E& exec, A& out) const {
    exec.template for_each_tile<ReverseInTiles::threads>(out.size() / ReverseInTiles::threads, 4,
                                                          sizeof(index_t) * ReverseInTiles::threads,
                                                          ReverseInTiles{out.data()});
    return std::move(out);
  }
};

template <class B, class T, class Exec>
void check_scan(Exec& exec, const std::vector<index_t>& ints) {
  const std::vector<T> in(ints.begin(), ints.end());
  std::vector<T> ref(in.size());
  std::exclusive_scan(in.begin(), in.end(), ref.begin(), T(0));
  const auto n = static_cast<index_t>(in.size());
  const auto [out, total] =
      run_on<B>(exec, "exclusive_scan", Scan{}, HostArray<T>(in), HostArray<T>(n, T(-1)));
  CHECK(out.to_vector() == ref);
  CHECK(total == std::accumulate(in.begin(), in.end(), T(0)));
}

template <class B, class T, class Reduce, class Ref, class Exec>
void check_segmented(Exec& exec, index_t segments, Reduce r, T identity, Ref ref_op) {
  const auto offsets = random_segments(segments, 17 + segments);
  const index_t n = offsets.back();
  std::vector<T> in(n);
  std::mt19937_64 rng(n);
  for (auto& x : in) x = static_cast<T>(static_cast<int>(rng() % 2001) - 1000) / T(8);
  std::vector<T> ref(segments);
  for (index_t s = 0; s < segments; ++s) {
    ref[s] = identity;
    if (offsets[s] < offsets[s + 1])
      ref[s] = std::accumulate(in.begin() + offsets[s] + 1, in.begin() + offsets[s + 1],
                               in[offsets[s]], ref_op);
  }
  const HostArray<T> out =
      run_on<B>(exec, "segmented_reduce", SegmentedReduce<Reduce>{r}, HostArray<T>(in),
                HostArray<index_t>(offsets), HostArray<T>(segments, T(0)));
  CHECK(out.to_vector() == ref);
}

TEST_CASE_TEMPLATE("exclusive_scan equals std::exclusive_scan and returns the total", B,
                   SPMESH_TEST_BACKENDS) {
  each_executor<B>([&](auto& exec) {
    for (index_t n : sizes) {
      INFO("n " << n);
      const auto in = random_ints(n, 0, 100, 7 + n);
      check_scan<B, index_t>(exec, in);
      // 64-bit counts (SpGEMM scans these) and integer-valued doubles are exact too.
      check_scan<B, std::int64_t>(exec, in);
      check_scan<B, double>(exec, in);
    }
  });
}

TEST_CASE_TEMPLATE("exclusive_scan in place (in == out) equals std::exclusive_scan", B,
                   SPMESH_TEST_BACKENDS) {
  each_executor<B>([&](auto& exec) {
    for (index_t n : sizes) {
      INFO("n " << n);
      const auto data = random_ints(n, -50, 50, 11 + n);
      std::vector<index_t> ref(n);
      std::exclusive_scan(data.begin(), data.end(), ref.begin(), index_t{0});
      const auto [out, total] =
          run_on<B>(exec, "exclusive_scan in place", ScanInPlace{}, HostArray<index_t>(data));
      CHECK(total == std::accumulate(data.begin(), data.end(), index_t{0}));
      CHECK(out.to_vector() == ref);
    }
  });
}

TEST_CASE_TEMPLATE("exclusive_scan with no wait leaves its total on the device", B,
                   SPMESH_TEST_BACKENDS) {
  each_executor<B>([&](auto& exec) {
    for (index_t n : sizes) {  // n = 0 too: the total is 0
      for (bool in_place : {false, true}) {
        INFO("n " << n << (in_place ? " in place" : ""));
        const auto data = random_ints(n, -50, 50, 13 + n);
        std::vector<index_t> ref(n);
        std::exclusive_scan(data.begin(), data.end(), ref.begin(), index_t{0});
        const auto [out, total, again] =
            run_on<B>(exec, "exclusive_scan, total kept", ScanKeepingTotal{in_place},
                      HostArray<index_t>(data), HostArray<index_t>(n, -1), HostArray<index_t>(1, -1));
        CHECK(out.to_vector() == ref);
        CHECK(total[0] == std::accumulate(data.begin(), data.end(), index_t{0}));
        if (!in_place) CHECK(again.to_vector() == ref);
      }
    }
  });
}

TEST_CASE_TEMPLATE("exclusive_scan of zero elements returns 0 and writes nothing", B,
                   SPMESH_TEST_BACKENDS) {
  const auto [data, total, none] =
      run<B>("exclusive_scan of nothing", ScanNothing{}, HostArray<index_t>{42});
  CHECK(total == 0);
  CHECK(data[0] == 42);
  CHECK(none == 0.0);
}

TEST_CASE_TEMPLATE("sort_pairs is stable: equal keys keep their input order", P, SPMESH_TEST_KEYS) {
  using B = typename P::Backend;
  using K = typename P::type;
  each_executor<B>([&](auto& exec) {
    for (index_t n : sizes)
      for (int bits : key_widths<K>())
        for (bool pooled : {true, false}) {
          INFO("n " << n << ", key bits " << bits << ", pooled " << pooled);
          const auto keys = random_keys<K>(n, bits, pooled, 3 * n + bits);
          std::vector<index_t> values(n);
          std::iota(values.begin(), values.end(), 0);  // input positions
          std::vector<std::pair<K, index_t>> ref(n);
          for (index_t p = 0; p < n; ++p) ref[p] = {keys[p], values[p]};
          std::stable_sort(ref.begin(), ref.end(),
                           [](const auto& a, const auto& b) { return a.first < b.first; });
          const bool all_bits =
              bits == static_cast<int>(8 * sizeof(K)) || (std::is_signed_v<K> && bits == 31);
          const auto [sorted_keys, sorted_values] =
              run_on<B>(exec, "sort_pairs", SortPairs{all_bits ? 0 : bits}, HostArray<K>(keys),
                        HostArray<index_t>(values));
          index_t bad = 0;
          for (index_t p = 0; p < n; ++p)
            bad += sorted_keys[p] == ref[p].first && sorted_values[p] == ref[p].second ? 0 : 1;
          CHECK(bad == 0);
        }
  });
}

TEST_CASE_TEMPLATE("sort_keys sorts ascending like std::sort", P, SPMESH_TEST_KEYS) {
  using B = typename P::Backend;
  using K = typename P::type;
  each_executor<B>([&](auto& exec) {
    for (index_t n : sizes)
      for (int bits : key_widths<K>()) {
        INFO("n " << n << ", key bits " << bits);
        const auto keys = random_keys<K>(n, bits, false, 5 * n + bits);
        auto ref = keys;
        std::sort(ref.begin(), ref.end());
        const HostArray<K> sorted =
            run_on<B>(exec, "sort_keys", SortKeys{bits}, HostArray<K>(keys));
        CHECK(sorted.to_vector() == ref);
      }
  });
}

TEST_CASE_TEMPLATE("sort_pairs carries 8-byte values with their keys", B, SPMESH_TEST_BACKENDS) {
  const index_t n = 50000;
  const auto keys = random_keys<std::uint32_t>(n, 32, true, 99);
  std::vector<double> values(n);
  for (index_t p = 0; p < n; ++p) values[p] = 0.5 * p;
  std::vector<std::pair<std::uint32_t, double>> ref(n);
  for (index_t p = 0; p < n; ++p) ref[p] = {keys[p], values[p]};
  std::stable_sort(ref.begin(), ref.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  const auto [sorted_keys, sorted_values] =
      run<B>("sort_pairs with double values", SortPairs{0}, HostArray<std::uint32_t>(keys),
             HostArray<double>(values));
  bool same = true;
  for (index_t p = 0; p < n; ++p)
    same = same && sorted_keys[p] == ref[p].first && sorted_values[p] == ref[p].second;
  CHECK(same);
}

TEST_CASE_TEMPLATE(
    "segmented_reduce reduces each segment in order and gives empty segments the identity", B,
    SPMESH_TEST_BACKENDS) {
  const auto inf = std::numeric_limits<double>::infinity();
  auto mn = [](auto a, auto b) { return std::min(a, b); };
  auto mx = [](auto a, auto b) { return std::max(a, b); };
  auto each = [&](auto&& check) {
    each_executor<B>([&](auto& exec) {
      for (index_t segments : {0, 1, 7, 5000}) {
        INFO("segments " << segments);
        check(exec, segments);
      }
    });
  };
  SUBCASE("sum") {
    each([&](auto& exec, index_t segments) {
      check_segmented<B, double>(exec, segments, la::reduce::Sum{}, 0.0, std::plus<>{});
      check_segmented<B, index_t>(exec, segments, la::reduce::Sum{}, 0, std::plus<>{});
    });
  }
  SUBCASE("min") {
    each([&](auto& exec, index_t segments) {
      check_segmented<B, double>(exec, segments, la::reduce::Min{}, inf, mn);
      check_segmented<B, index_t>(exec, segments, la::reduce::Min{},
                                  std::numeric_limits<index_t>::max(), mn);
    });
  }
  SUBCASE("max") {
    each([&](auto& exec, index_t segments) {
      check_segmented<B, double>(exec, segments, la::reduce::Max{}, -inf, mx);
      check_segmented<B, index_t>(exec, segments, la::reduce::Max{},
                                  std::numeric_limits<index_t>::lowest(), mx);
    });
  }
  SUBCASE("user monoid") {
    each([&](auto& exec, index_t segments) {
      check_segmented<B, double>(exec, segments, la::reduce::monoid(MaxOf{}, -1e6), -1e6, mx);
    });
  }
}

TEST_CASE_TEMPLATE("select_if keeps the selected elements in order, as std::copy_if", B,
                   SPMESH_TEST_BACKENDS) {
  each_executor<B>([&](auto& exec) {
    for (index_t n : sizes) {
      INFO("n " << n);
      const auto in = random_ints(n, 0, 1000, 23 + n);
      std::vector<index_t> ref;
      std::copy_if(in.begin(), in.end(), std::back_inserter(ref),
                   [](index_t x) { return x % 3 == 0; });
      const auto [out, kept] = run_on<B>(exec, "select_if", SelectIf{false}, HostArray<index_t>(in),
                                         HostArray<index_t>(n, -1));
      REQUIRE(kept == static_cast<index_t>(ref.size()));
      CHECK(std::equal(ref.begin(), ref.end(), out.begin()));
      // Positional predicate: every second element.
      std::vector<index_t> odd;
      for (index_t i = 1; i < n; i += 2) odd.push_back(in[i]);
      const auto [out_odd, kept_odd] = run_on<B>(exec, "select_if (positions)", SelectIf{true},
                                                 HostArray<index_t>(in), HostArray<index_t>(n, -1));
      CHECK(kept_odd == static_cast<index_t>(odd.size()));
      CHECK(std::equal(odd.begin(), odd.end(), out_odd.begin()));
    }
  });
}

TEST_CASE_TEMPLATE("select_if with the count left in executor memory: same result, one read",
                   B, SPMESH_TEST_BACKENDS) {
  each_executor<B>([&](auto& exec) {
    for (index_t n : sizes) {
      INFO("n " << n);
      const auto in = random_ints(n, 0, 1000, 41 + n);
      std::vector<index_t> ref3, ref_odd;
      std::copy_if(in.begin(), in.end(), std::back_inserter(ref3),
                   [](index_t x) { return x % 3 == 0; });
      for (index_t i = 1; i < n; i += 2) ref_odd.push_back(in[i]);
      const auto [out3, out_odd, kept3, kept_odd, counts] =
          run_on<B>(exec, "select_if (counted)", SelectIfCounted{}, HostArray<index_t>(in),
                    HostArray<index_t>(n, -1), HostArray<index_t>(n, -1), HostArray<index_t>(2, -1));
      REQUIRE(kept3 == static_cast<index_t>(ref3.size()));
      REQUIRE(kept_odd == static_cast<index_t>(ref_odd.size()));
      CHECK(counts[0] == kept3);
      CHECK(counts[1] == kept_odd);
      CHECK(std::equal(ref3.begin(), ref3.end(), out3.begin()));
      CHECK(std::equal(ref_odd.begin(), ref_odd.end(), out_odd.begin()));
    }
  });
}

TEST_CASE_TEMPLATE("select_positions gives the positions where the predicate holds, in order",
                   B, SPMESH_TEST_BACKENDS) {
  each_executor<B>([&](auto& exec) {
    for (index_t n : sizes) {
      INFO("n " << n);
      const auto in = random_ints(n, 0, 1000, 53 + n);
      std::vector<index_t> ref;
      for (index_t i = 0; i < n; ++i)
        if (in[i] % 3 == 0) ref.push_back(i);
      const auto [out, count] = run_on<B>(exec, "select_positions", SelectPositions{},
                                          HostArray<index_t>(in), HostArray<index_t>(n, -1),
                                          HostArray<index_t>(1, -1));
      REQUIRE(count[0] == static_cast<index_t>(ref.size()));
      CHECK(std::equal(ref.begin(), ref.end(), out.begin()));
    }
  });
}

TEST_CASE_TEMPLATE("scatter_min keeps each key's smallest value, and what was there if smaller",
                   B, SPMESH_TEST_BACKENDS) {
  each_executor<B>([&](auto& exec) {
    for (index_t n : sizes) {
      INFO("n " << n);
      const index_t groups = n / 7 + 3;  // many values per key, so the atomics collide
      const auto keys = random_ints(n, 0, groups - 1, 43 + n);
      const auto values = random_ints(n, -1000000, 1000000, 47 + n);
      std::vector<index_t> ref(groups, 500000);
      ref[0] = -2000000;  // smaller than every value: stays
      for (index_t i = 0; i < n; ++i) ref[keys[i]] = std::min(ref[keys[i]], values[i]);
      std::vector<index_t> start(groups, 500000);
      start[0] = -2000000;
      const auto out = run_on<B>(exec, "scatter_min", ScatterMin{}, HostArray<index_t>(keys),
                                 HostArray<index_t>(values), HostArray<index_t>(start));
      CHECK(out.to_vector() == ref);
    }
  });
}

TEST_CASE_TEMPLATE("count_if counts like std::count_if", B, SPMESH_TEST_BACKENDS) {
  each_executor<B>([&](auto& exec) {
    for (index_t n : sizes) {
      INFO("n " << n);
      const auto in = random_ints(n, 0, 1000, 29 + n);
      const auto [below, all, kept] = run_on<B>(exec, "count_if", CountIf{}, HostArray<index_t>(in));
      CHECK(below == std::count_if(in.begin(), in.end(), [](index_t x) { return x < 250; }));
      CHECK(all == n);
      CHECK(kept[0] == below);
    }
  });
}

TEST_CASE_TEMPLATE("unique removes consecutive duplicates like std::unique_copy", B,
                   SPMESH_TEST_BACKENDS) {
  each_executor<B>([&](auto& exec) {
    for (index_t n : sizes) {
      INFO("n " << n);
      auto in = random_ints(n, 0, n / 3 + 1, 31 + n);
      std::sort(in.begin(), in.end());  // long runs, as after a sort
      std::vector<index_t> ref;
      std::unique_copy(in.begin(), in.end(), std::back_inserter(ref));
      const auto [out, kept] =
          run_on<B>(exec, "unique", Unique{}, HostArray<index_t>(in), HostArray<index_t>(n, -1));
      REQUIRE(kept == static_cast<index_t>(ref.size()));
      CHECK(std::equal(ref.begin(), ref.end(), out.begin()));
      // Unsorted input: only consecutive repeats go.
      const auto raw = random_ints(n, 0, 2, 37 + n);
      ref.clear();
      std::unique_copy(raw.begin(), raw.end(), std::back_inserter(ref));
      const auto [out_raw, kept_raw] = run_on<B>(
          exec, "unique (unsorted)", Unique{}, HostArray<index_t>(raw), HostArray<index_t>(n, -1));
      REQUIRE(kept_raw == static_cast<index_t>(ref.size()));
      CHECK(std::equal(ref.begin(), ref.end(), out_raw.begin()));
    }
  });
}

TEST_CASE_TEMPLATE("segmented_sort_pairs sorts each segment on its own, stably", B,
                   SPMESH_TEST_BACKENDS) {
  each_executor<B>([&](auto& exec) {
    // Short segments (the rows of mesh products), long ones (past the CPU's insertion sort and
    // the GPU's warp sorts) and empty ones.
    for (index_t max_len : {6, 40, 3000}) {
      INFO("segments up to " << max_len << " long");
      std::mt19937_64 rng(max_len);
      std::vector<index_t> offsets{0};
      for (index_t s = 0; s < 2000 && offsets.back() < 200000; ++s) {
        const auto len = rng() % 4 == 0 ? 0 : static_cast<index_t>(rng() % (max_len + 1));
        offsets.push_back(offsets.back() + len);
      }
      const index_t n = offsets.back();
      // Few distinct keys, so stability shows, and the largest key (the rows' "absent" key).
      std::vector<index_t> keys(n), values(n);
      for (index_t p = 0; p < n; ++p) {
        keys[p] = rng() % 9 == 0 ? max_index : static_cast<index_t>(rng() % 12);
        values[p] = p;
      }
      std::vector<std::pair<index_t, index_t>> ref(n);
      for (index_t p = 0; p < n; ++p) ref[p] = {keys[p], values[p]};
      for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
        std::stable_sort(ref.begin() + offsets[s], ref.begin() + offsets[s + 1],
                         [](const auto& a, const auto& b) { return a.first < b.first; });
      const auto [sorted_keys, sorted_values] =
          run_on<B>(exec, "segmented_sort_pairs", SegmentedSortPairs{}, HostArray<index_t>(keys),
                    HostArray<index_t>(values), HostArray<index_t>(offsets));
      index_t bad = 0;
      for (index_t p = 0; p < n; ++p)
        bad += sorted_keys[p] == ref[p].first && sorted_values[p] == ref[p].second ? 0 : 1;
      CHECK(bad == 0);
    }
  });
}

TEST_CASE_TEMPLATE("group_by_key lists the positions of each key in ascending order", B,
                   SPMESH_TEST_BACKENDS) {
  each_executor<B>([&](auto& exec) {
    for (index_t n : sizes)
      for (index_t groups : {1, 7, 5000}) {
        INFO("n " << n << ", groups " << groups);
        // Skewed keys: some groups empty, some large (a high-valence vertex).
        std::mt19937_64 rng(n + groups);
        std::vector<index_t> keys(n);
        for (auto& k : keys) k = rng() % 5 == 0 ? groups / 2 : static_cast<index_t>(rng() % groups);
        std::vector<index_t> ref_offsets(groups + 1, 0), ref_positions;
        for (index_t g = 0; g < groups; ++g) {
          for (index_t p = 0; p < n; ++p)
            if (keys[p] == g) ref_positions.push_back(p);
          ref_offsets[g + 1] = static_cast<index_t>(ref_positions.size());
        }
        const auto [offsets, positions] =
            run_on<B>(exec, "group_by_key", GroupByKey{groups}, HostArray<index_t>(keys));
        CHECK(offsets.to_vector() == ref_offsets);
        CHECK(positions.to_vector() == ref_positions);
      }
  });
}

TEST_CASE_TEMPLATE("for_each visits every index exactly once", B, SPMESH_TEST_BACKENDS) {
  each_executor<B>([&](auto& exec) {
    for (index_t n : sizes) {
      INFO("n " << n);
      const HostArray<int> hits = run_on<B>(exec, "for_each", ForEach{}, HostArray<int>(n, 0));
      CHECK(std::count(hits.begin(), hits.end(), 1) == n);
    }
  });
}

TEST_CASE_TEMPLATE("for_each_with_scratch gives every item scratch of its own", B,
                   SPMESH_TEST_BACKENDS) {
  each_executor<B>([&](auto& exec) {
    for (index_t n : sizes) {
      INFO("n " << n);
      const HostArray<index_t> sums =
          run_on<B>(exec, "for_each_with_scratch", ForEachWithScratch{}, HostArray<index_t>(n, -1));
      for (index_t i = 0; i < n; ++i) REQUIRE(sums[i] == 80 * i);
    }
  });
}

TEST_CASE_TEMPLATE("for_each_tile runs phase by phase, each tile with scratch of its own", B,
                   SPMESH_TEST_BACKENDS) {
  each_executor<B>([&](auto& exec) {
    constexpr int T = ReverseInTiles::threads;
    for (index_t tiles : {1, 3, 1000}) {
      INFO("tiles " << tiles);
      const HostArray<index_t> out =
          run_on<B>(exec, "for_each_tile", ForEachTile{}, HostArray<index_t>(tiles * T, -1));
      for (index_t t = 0; t < tiles; ++t)
        for (int i = 0; i < T; ++i)
          REQUIRE(out[t * T + i] == ReverseInTiles::value(t, T - 1 - i) +
                                        2 * ReverseInTiles::value(t, (i + 1) % T));
    }
  });
}

}  // namespace spmesh::test::primitives_tests
