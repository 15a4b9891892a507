// The host memory this process may still take: the least of the kernel's MemAvailable, the
// process limits (RLIMIT_AS, RLIMIT_DATA) less what they already count, and the memory cgroup's
// limit less its use. read_input refuses, before any work, a run whose estimate exceeds it.
#pragma once

#include "linalg/base.hpp"

#include <cstdint>
#include <new>
#include <string>
#include <string_view>

namespace spmesh::apps {

struct HostAvailable {
  std::int64_t bytes = 0;
  std::string limit;  // which bound it is: "MemAvailable", "the process limit", "the cgroup limit"
};

// The least of the bounds above; those that cannot be read (no /proc, no cgroup) are left out,
// and with none readable the answer is INT64_MAX ("no known limit").
HostAvailable host_available();
inline std::int64_t host_available_bytes() { return host_available().bytes; }

// Runs `step`; an allocation that fails in it (std::bad_alloc, or Host::allocate's
// CapacityError) becomes one CapacityError naming `what` was being done ("mesh.obj: reading
// it") with what is available then, instead of a bare "std::bad_alloc".
template <class Step>
auto out_of_memory_names(const std::string& what, Step&& step) -> decltype(step()) {
  auto message = [&](const std::string& detail) {
    const HostAvailable a = host_available();
    return what + ": out of host memory (" + detail + "; " +
           std::to_string(a.bytes / 1048576) + " MiB available now, " + a.limit + ")";
  };
  try {
    return step();
  } catch (const std::bad_alloc&) {
    throw CapacityError(message("an allocation failed"));
  } catch (const CapacityError& e) {
    if (std::string_view(e.what()).starts_with("host allocation")) throw CapacityError(message(e.what()));
    throw;
  }
}

// Pieces of host_available, apart for testing.
// MemAvailable of /proc/meminfo's text, in bytes; -1 if it has no such line.
std::int64_t meminfo_available(std::string_view meminfo);
// The cgroup v2 path ("0::/path") of /proc/self/cgroup's text; empty if it has none.
std::string cgroup_v2_path(std::string_view proc_self_cgroup);

}  // namespace spmesh::apps
