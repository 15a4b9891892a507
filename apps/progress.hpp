// A long step shows that it is still going: when stderr is a terminal and a step takes over a
// second, a line "spmesh: <step> (N s)" is kept up to date on stderr until the step ends, then
// cleared. Nothing is printed otherwise, so logs and pipes stay clean. SPMESH_PROGRESS_AFTER
// (seconds, default 1) moves the second: the tests set 0, so that any step shows itself on any
// machine.
#pragma once

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

namespace spmesh::apps {

class Progress {
public:
  explicit Progress(std::string step) : step_(std::move(step)) {
    if (::isatty(STDERR_FILENO)) ticker_ = std::thread([this] { tick(); });
  }
  ~Progress() {
    if (!ticker_.joinable()) return;
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    ticker_.join();
  }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

private:
  // When a step starts to show itself: SPMESH_PROGRESS_AFTER seconds, 1 if unset or not a number.
  static std::chrono::milliseconds after() {
    const char* text = std::getenv("SPMESH_PROGRESS_AFTER");
    char* end = nullptr;
    const double seconds = text ? std::strtod(text, &end) : 1.0;
    const bool valid = text && end != text && *end == '\0' && seconds >= 0 && seconds < 1e6;
    return std::chrono::milliseconds(static_cast<long long>(1000 * (valid ? seconds : 1.0)));
  }

  void tick() {
    using namespace std::chrono;
    const auto start = steady_clock::now();
    std::unique_lock lock(mutex_);
    bool shown = false;
    for (auto next = start + after(); !wake_.wait_until(lock, next, [&] { return done_; });
         next += milliseconds(500)) {
      const double elapsed = duration<double>(steady_clock::now() - start).count();
      std::fprintf(stderr, "\rspmesh: %s (%.0f s)", step_.c_str(), elapsed);
      std::fflush(stderr);
      shown = true;
    }
    if (shown) std::fprintf(stderr, "\r\033[K");  // clear the line
  }

  std::string step_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread ticker_;
};

}  // namespace spmesh::apps
