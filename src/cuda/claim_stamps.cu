// The process's claim stamps (grb/cuda/claim_stamps.cuh): grown to the largest size asked for,
// freed at exit (before the runtime's own teardown, which was set up earlier and so runs later:
// compute-sanitizer's leak check sees nothing left).
#include <mutex>
#include <optional>

#include "grb/cuda/claim_stamps.cuh"
#include "grb/cuda/launch.cuh"

namespace grb::cuda::detail {

ClaimStamps claim_stamps(Index size) {
  struct Workspace {
    std::mutex mutex;
    std::optional<DeviceArray<std::uint32_t>> words;
    std::optional<DeviceArray<unsigned long long>> counters;
    std::uint32_t epoch = 0;
  };
  static Workspace workspace;
  std::lock_guard lock(workspace.mutex);
  const std::size_t needed = size > 0 ? size : 1;
  if (!workspace.counters) {
    workspace.counters.emplace(device_array<unsigned long long>(claim_counters));
    fill_zero(workspace.counters->data(), claim_counters);
  }
  if (!workspace.words || workspace.words->size() < needed) {
    workspace.words.reset();
    workspace.words.emplace(device_array<std::uint32_t>(needed));
    fill_zero(workspace.words->data(), needed);
    workspace.epoch = 0;
    fill_zero(workspace.counters->data(), claim_counters);
  }
  if (++workspace.epoch == 0) {  // wrapped: stamps from 2^32 operations ago would look claimed
    fill_zero(workspace.words->data(), workspace.words->size());
    workspace.epoch = 1;
    fill_zero(workspace.counters->data(), claim_counters);
  }
  // Every counter of the ring is used once, then all are cleared together (after, in stream
  // order, the operations that used them).
  const std::uint32_t slot = workspace.epoch % claim_counters;
  if (slot == 0) fill_zero(workspace.counters->data(), claim_counters);
  return {workspace.words->data(), workspace.epoch, workspace.counters->data() + slot};
}

}  // namespace grb::cuda::detail
