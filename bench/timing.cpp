// Host copy bandwidth and the CPU model, for the header of every benchmark report.
#include "bench/timing.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include <omp.h>

namespace spmesh::bench {

Counters Counters::read() {
  Counters c;
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  c.page_faults = u.ru_minflt + u.ru_majflt;
  c.own_cpu_ms = 1e3 * (u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
                 1e-3 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  // First line of /proc/stat: cpu user nice system idle iowait irq softirq steal ...
  std::ifstream stat("/proc/stat");
  std::string line, name;
  if (std::getline(stat, line)) {
    std::istringstream in(line);
    long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    in >> name >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
    static const double ms_per_tick = 1e3 / static_cast<double>(sysconf(_SC_CLK_TCK));
    c.machine_busy_ms =
        static_cast<double>(user + nice + system + irq + softirq + steal) * ms_per_tick;
  }
  return c;
}

bool wait_until_quiet(double busy_fraction, double max_wait_s) {
  const double start = now_ms(), cores = std::max(1, omp_get_num_procs());
  Counters before = Counters::read();
  double t0 = now_ms();
  for (;;) {
    usleep(250'000);
    const Counters after = Counters::read();
    const double t1 = now_ms();
    if (t1 - t0 >= 1000) {
      const double others =
          (after.machine_busy_ms - before.machine_busy_ms) - (after.own_cpu_ms - before.own_cpu_ms);
      if (others <= busy_fraction * cores * (t1 - t0)) return true;
      before = after, t0 = t1;
    }
    if (t1 - start >= 1e3 * max_wait_s) return false;
  }
}

void Sampler::add(const Counters& before, const Counters& after, double wall_ms) {
  faults_ += after.page_faults - before.page_faults;
  wall_ms_ += wall_ms;
  others_ms_ +=
      (after.machine_busy_ms - before.machine_busy_ms) - (after.own_cpu_ms - before.own_cpu_ms);
}

Timing Sampler::result() const {
  Timing t;
  std::vector<double> ms = ms_;
  std::sort(ms.begin(), ms.end());
  t.samples = static_cast<int>(ms.size());
  if (ms.empty()) return t;
  t.calls_per_sample = calls_;
  t.min_ms = ms.front();
  t.max_ms = ms.back();
  const std::size_t h = ms.size() / 2;
  t.median_ms = ms.size() % 2 ? ms[h] : 0.5 * (ms[h - 1] + ms[h]);
  t.page_faults_per_call = static_cast<double>(faults_) / (static_cast<double>(calls_) * t.samples);
  const double cores = static_cast<double>(std::max(1, omp_get_num_procs()));
  t.others_cpu = wall_ms_ > 0 ? std::clamp(others_ms_ / (wall_ms_ * cores), 0.0, 1.0) : 0;
  return t;
}

CopyBandwidth measure_copy(std::size_t bytes, int threads, int repeats, double busy_threshold,
                           int retries, double quiet_wait_s) {
  std::unique_ptr<char[]> src(new char[bytes]), dst(new char[bytes]);
  const std::int64_t n = static_cast<std::int64_t>(bytes);
  std::memset(src.get(), 1, bytes);
  std::memset(dst.get(), 0, bytes);
  auto single = [&] { std::memcpy(dst.get(), src.get(), bytes); };
  auto threaded = [&] {
#pragma omp parallel num_threads(threads)
    {
      const std::int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
      const std::int64_t lo = n * t / nt, hi = n * (t + 1) / nt;
      std::memcpy(dst.get() + lo, src.get() + lo, static_cast<std::size_t>(hi - lo));
    }
  };
  const double moved = 2.0 * static_cast<double>(bytes);
  CopyBandwidth best;
  for (int attempt = 0; attempt <= retries; ++attempt) {
    if (attempt > 0) wait_until_quiet(busy_threshold, quiet_wait_s);
    const auto [one, all] = time_pair(single, threaded, repeats);
    CopyBandwidth bw;
    bw.buffer_mib = static_cast<double>(bytes) / (1 << 20);
    bw.single_thread_gbs = moved / (one.median_ms * 1e6);
    bw.threaded_gbs = moved / (all.median_ms * 1e6);
    bw.others_cpu = std::max(one.others_cpu, all.others_cpu);
    if (attempt == 0 || bw.others_cpu < best.others_cpu) best = bw;
    if (best.others_cpu <= busy_threshold) break;
  }
  return best;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  return "unknown";
}

}  // namespace spmesh::bench
