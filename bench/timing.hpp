// Timing for the benchmark: warm-up then the median of repeated samples on steady_clock,
// interleaved between spmesh and its peer; how much CPU other processes took meanwhile;
// the host copy bandwidth every result is compared with; and what the machine is.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace spmesh::bench {

struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int samples = 0;
  int calls_per_sample = 1;
  double page_faults_per_call = 0;  // minor + major faults of the process, timed calls only
  // CPU time other processes (and the hypervisor, as steal) took while the samples ran, as a
  // fraction of all cores' time: near 0 on a quiet machine. Resolution is the kernel's tick.
  double others_cpu = 0;
};

inline double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

// Counters read around every sample.
struct Counters {
  long page_faults = 0;
  double own_cpu_ms = 0;       // this process, all threads
  double machine_busy_ms = 0;  // all cores, every process, from /proc/stat
  static Counters read();
};

// Samples of one callable. A call shorter than `min_sample_ms` is repeated within a sample
// and the sample averaged, so clock resolution, loop overhead and the tick resolution of the
// others-CPU figure stay small at 1e4 rows.
class Sampler {
 public:
  // One warm-up call (first touch of outputs, caches, OpenMP thread start), and a second
  // one to size the samples when the first was short enough to include one-time costs.
  template <class F>
  void warm_up(F& f, double min_sample_ms) {
    double t0 = now_ms();
    f();
    double once = now_ms() - t0;
    if (once < min_sample_ms) {
      t0 = now_ms();
      f();
      once = now_ms() - t0;
    }
    calls_ = once >= min_sample_ms
                 ? 1
                 : std::min(1000, static_cast<int>(min_sample_ms / std::max(once, 1e-4)) + 1);
  }
  template <class F>
  void sample(F& f) {
    const Counters before = Counters::read();
    const double t0 = now_ms();
    for (int c = 0; c < calls_; ++c) f();
    const double t1 = now_ms();
    const Counters after = Counters::read();
    ms_.push_back((t1 - t0) / calls_);
    add(before, after, t1 - t0);
  }
  Timing result() const;

 private:
  void add(const Counters& before, const Counters& after, double wall_ms);
  std::vector<double> ms_;
  int calls_ = 1;
  long faults_ = 0;
  double wall_ms_ = 0, others_ms_ = 0;
};

template <class F>
Timing time_op(F&& f, int repeats, double min_sample_ms = 5.0) {
  Sampler s;
  s.warm_up(f, min_sample_ms);
  for (int r = 0; r < std::max(1, repeats); ++r) s.sample(f);
  return s.result();
}

// Times f and g with their samples alternating, so that a disturbance (another process, a
// frequency change) falls on both rather than on whichever ran during it.
template <class F, class G>
std::pair<Timing, Timing> time_pair(F&& f, G&& g, int repeats, double min_sample_ms = 5.0) {
  Sampler a, b;
  a.warm_up(f, min_sample_ms);
  b.warm_up(g, min_sample_ms);
  for (int r = 0; r < std::max(1, repeats); ++r) a.sample(f), b.sample(g);
  return {a.result(), b.result()};
}

// Waits until other processes have used at most `busy_fraction` of all cores for one whole
// second, or until `max_wait_s` have passed; returns whether the machine was found quiet.
bool wait_until_quiet(double busy_fraction, double max_wait_s);

// Host copy bandwidth, counted as the bytes read plus the bytes written (2 x buffer per copy),
// the same convention as the kernels' byte floors.
struct CopyBandwidth {
  double buffer_mib = 0;
  double single_thread_gbs = 0;  // one std::memcpy
  double threaded_gbs = 0;       // the buffer split across all threads, one memcpy each
  double others_cpu = 0;         // as in Timing
  double reference_gbs() const { return std::max(single_thread_gbs, threaded_gbs); }
};
// Median of `repeats` copies each way, taken as a case is (see Options in suite.hpp): again,
// after waiting for a quiet machine, while other processes took more than `busy_threshold`.
CopyBandwidth measure_copy(std::size_t bytes, int threads, int repeats, double busy_threshold,
                           int retries, double quiet_wait_s);

// "model name" from /proc/cpuinfo, or "unknown".
std::string cpu_model();

}  // namespace spmesh::bench
