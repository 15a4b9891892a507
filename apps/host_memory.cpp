// The host memory this process may still take (host_memory.hpp), read from /proc, getrlimit and
// the cgroup file system.
#include "apps/host_memory.hpp"

#include "meshops/io.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace spmesh::apps {

namespace {

constexpr std::int64_t unknown = std::numeric_limits<std::int64_t>::max();

// A small text file whole (a /proc or /sys file: its size reads as 0, so no read_file); empty
// if it cannot be read.
std::string read_small(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return in ? text.str() : std::string();
}

// The value of the line "name: <kB> kB" of /proc/meminfo or /proc/self/status, in bytes; -1 if
// there is none.
std::int64_t kib_field(std::string_view text, std::string_view name) {
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    if (!line.starts_with(name) || line.size() <= name.size() || line[name.size()] != ':') continue;
    line.remove_prefix(name.size() + 1);
    std::int64_t kib = 0;
    if (meshops::parse_number(meshops::next_token(line), kib)) return kib * 1024;
  }
  return -1;
}

// One number of a cgroup file ("max" is no limit); unknown if absent.
std::int64_t cgroup_number(const std::filesystem::path& file) {
  std::string text = read_small(file);
  std::string_view view = text;
  std::int64_t n = 0;
  return meshops::parse_number(meshops::next_token(view), n) ? n : unknown;
}

// A process limit less what it already counts (`used`, bytes); unknown when unlimited.
std::int64_t rlimit_left(int resource, std::int64_t used) {
  rlimit r{};
  if (getrlimit(resource, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return unknown;
  return std::max<std::int64_t>(0, std::int64_t(r.rlim_cur) - std::max<std::int64_t>(used, 0));
}

// The memory cgroup's limit less its use, over the process's cgroup and every cgroup above it
// (a parent's limit applies too): cgroup v2 (memory.max, memory.current), else v1
// (memory.limit_in_bytes, memory.usage_in_bytes).
std::int64_t cgroup_left() {
  const std::string cgroups = read_small("/proc/self/cgroup");
  std::int64_t left = unknown;
  // `root` the hierarchy's mount, `path` the cgroup's path in it ("/a/b"): checks /a/b, /a and /.
  auto walk = [&](const std::filesystem::path& root, std::string_view path, const char* max_file,
                  const char* current_file) {
    for (std::filesystem::path rel = std::filesystem::path(path).relative_path();;
         rel = rel.parent_path()) {
      const std::int64_t max = cgroup_number(root / rel / max_file);
      const std::int64_t current = cgroup_number(root / rel / current_file);
      if (max != unknown && current != unknown)
        left = std::min(left, std::max<std::int64_t>(0, max - current));
      if (rel.empty()) break;
    }
  };
  if (const std::string v2 = cgroup_v2_path(cgroups); !v2.empty())
    walk("/sys/fs/cgroup", v2, "memory.max", "memory.current");
  for (std::size_t at = 0; at < cgroups.size();) {  // v1: "N:memory:/path"
    const std::size_t end = std::min(cgroups.find('\n', at), cgroups.size());
    const std::string_view line = std::string_view(cgroups).substr(at, end - at);
    at = end + 1;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || !line.substr(colon).starts_with(":memory:/")) continue;
    walk("/sys/fs/cgroup/memory", line.substr(colon + 8), "memory.limit_in_bytes",
         "memory.usage_in_bytes");
  }
  return left;
}

}  // namespace

std::int64_t meminfo_available(std::string_view meminfo) {
  return kib_field(meminfo, "MemAvailable");
}

std::string cgroup_v2_path(std::string_view proc_self_cgroup) {
  for (std::size_t at = 0; at < proc_self_cgroup.size();) {
    const std::size_t end = std::min(proc_self_cgroup.find('\n', at), proc_self_cgroup.size());
    const std::string_view line = proc_self_cgroup.substr(at, end - at);
    at = end + 1;
    if (line.starts_with("0::/")) return std::string(line.substr(3));
  }
  return {};
}

HostAvailable host_available() {
  HostAvailable a{unknown, "no known limit"};
  auto consider = [&](std::int64_t bytes, const char* limit) {
    if (bytes >= 0 && bytes < a.bytes) a = {bytes, limit};
  };
  consider(meminfo_available(read_small("/proc/meminfo")), "MemAvailable");
  // RLIMIT_AS counts the address space (VmSize), RLIMIT_DATA the data segment and private
  // writable mappings (VmData, Linux 4.7 on): each less what the process has taken already.
  const std::string status = read_small("/proc/self/status");
  consider(rlimit_left(RLIMIT_AS, kib_field(status, "VmSize")), "the process limit");
  consider(rlimit_left(RLIMIT_DATA, kib_field(status, "VmData")), "the process limit");
  consider(cgroup_left(), "the cgroup limit");
  return a;
}

}  // namespace spmesh::apps
