// One evaluation of patches shared by two executors, the host's and a device's, after seed 001's
// CPU-GPU cooperation (its section 5.2). The output is cut into groups (a patch's run of sample
// rows, TensorTiles::group_row); the host executor writes its groups straight into the result in
// host memory, the device executor its groups into its own memory, read back as they finish.
//   fixed    seed 001's static distribution (SDC): the first `host_share` of the groups on the
//            host, the rest on the device, launched first so that both run at once; the share
//            comes from profiling (spmesh_bench_patches sweeps it);
//   dynamic  its dynamic distribution (DDC): chunks of groups taken in turn from one counter by
//            whichever executor is free, the device's fed by a host thread of its own.
// Both executors read the control points in their own memory (X on the host and on the device:
// the caller moves them, as with every operation). Each group's points are those of the executor
// that took it, which may round differently (nvcc fuses multiply-adds where the host compiler
// does not): a fixed split gives the same bits every run, a dynamic one need not, so fixed is the
// default.
#pragma once

#include "schemes/patches/evaluator.hpp"

#include <atomic>
#include <exception>
#include <initializer_list>
#include <string>
#include <thread>

namespace spmesh::schemes::patches {

enum class Distribution { fixed, dynamic };

struct Split {
  Distribution distribution = Distribution::fixed;
  double host_share = 0;     // fixed: the share of the groups the host takes, 0 to 1
  index_t chunk_groups = 0;  // dynamic: groups a chunk; 0: a 64th of them (at least 1)
};

template <class T, class DeviceSpace>
class SplitEvaluator {
 public:
  // The groups each executor evaluated in the last call.
  struct Taken {
    index_t host = 0, device = 0;
  };
  Taken taken() const { return taken_; }

  // The points of `patches` patches (GridEvaluator::evaluate), in host memory; X_host and
  // X_device hold the same control points.
  template <class HostExec, class DeviceExec>
  linalg::Dense<T> evaluate(HostExec& host, DeviceExec& device, std::initializer_list<Grid> directions,
                            index_t patches, const linalg::Dense<T>& X_host,
                            const linalg::Dense<T, DeviceSpace>& X_device, Split split,
                            std::array<int, 3> orders = {0, 0, 0}) {
    if (!(split.host_share >= 0 && split.host_share <= 1))
      throw InputError("patches::SplitEvaluator: host share " + std::to_string(split.host_share) + ", not 0 to 1");
    if (split.chunk_groups < 0)
      throw InputError("patches::SplitEvaluator: " + std::to_string(split.chunk_groups) + " groups a chunk");
    if (X_host.rows != X_device.rows || X_host.cols != X_device.cols)
      throw DimensionError("patches::SplitEvaluator: the control points on the host (" + std::to_string(X_host.rows) +
                           " x " + std::to_string(X_host.cols) + ") and on the device (" +
                           std::to_string(X_device.rows) + " x " + std::to_string(X_device.cols) + ") differ");
    const auto host_bases = host_levels_.bases(host, directions);
    const auto device_bases = device_levels_.bases(device, directions);
    const std::size_t n = directions.size();
    const auto on_host = detail::tiles_of(std::span(host_bases.data(), n), patches, X_host, orders);
    const auto on_device = detail::tiles_of(std::span(device_bases.data(), n), patches, X_device, orders);
    const index_t groups = on_host.groups(), k = X_host.cols;
    linalg::Dense<T> out(on_host.total, k);
    // Groups [first, last) on the device, into `buffer` (rows from group `first`), then read
    // into the result.
    auto device_part = [&](index_t first, index_t last, T* buffer) {
      detail::evaluate_groups(device, on_device, first, last, buffer);
      const std::int64_t begin = on_host.group_row(first), values = (on_host.group_row(last) - begin) * k;
      device.read(buffer, checked_index(values, "patches::SplitEvaluator: a read"), out.data.data() + begin * k);
    };
    auto host_part = [&](index_t first, index_t last) {
      detail::evaluate_groups(host, on_host, first, last, out.data.data() + on_host.group_row(first) * k);
    };
    if (split.distribution == Distribution::fixed) {
      const auto first_device = index_t(split.host_share * double(groups) + 0.5);
      linalg::Array<T, DeviceSpace> buffer((on_host.total - on_host.group_row(first_device)) * k);
      detail::evaluate_groups(device, on_device, first_device, groups, buffer.data());  // runs while the host works
      host_part(0, first_device);
      device_part(first_device, groups, buffer.data());
      taken_ = {first_device, groups - first_device};
      return out;
    }
    // Dynamic: the device's thread and this one take chunks in turn until none is left.
    const index_t chunk = split.chunk_groups > 0 ? split.chunk_groups : std::max<index_t>(1, groups / 64),
                  chunks = (groups + chunk - 1) / chunk;
    linalg::Array<T, DeviceSpace> buffer(on_host.total * k);
    std::atomic<index_t> next{0};
    index_t device_groups = 0;  // the feeder's own until it is joined
    std::exception_ptr device_failed;
    std::thread feeder([&] {
      try {
        for (index_t c; (c = next.fetch_add(1)) < chunks;) {
          const index_t first = c * chunk, last = std::min(groups, first + chunk);
          device_part(first, last, buffer.data() + on_host.group_row(first) * k);
          device_groups += last - first;
        }
      } catch (...) {
        device_failed = std::current_exception();
        next = chunks;
      }
    });
    try {
      for (index_t c; (c = next.fetch_add(1)) < chunks;) host_part(c * chunk, std::min(groups, (c + 1) * chunk));
    } catch (...) {
      next = chunks;
      feeder.join();
      throw;
    }
    feeder.join();
    if (device_failed) std::rethrow_exception(device_failed);
    taken_ = {groups - device_groups, device_groups};
    return out;
  }

 private:
  GridEvaluator<T> host_levels_;
  GridEvaluator<T, DeviceSpace> device_levels_;
  Taken taken_;
};

}  // namespace spmesh::schemes::patches
