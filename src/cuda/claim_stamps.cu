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
    std::uint32_t epoch = 0;
  };
  static Workspace workspace;
  std::lock_guard lock(workspace.mutex);
  const std::size_t needed = size > 0 ? size : 1;
  if (!workspace.words || workspace.words->size() < needed) {
    workspace.words.reset();
    workspace.words.emplace(device_array<std::uint32_t>(needed));
    fill_zero(workspace.words->data(), needed);
    workspace.epoch = 0;
  }
  if (++workspace.epoch == 0) {  // wrapped: stamps from 2^32 operations ago would look claimed
    fill_zero(workspace.words->data(), workspace.words->size());
    workspace.epoch = 1;
  }
  return {workspace.words->data(), workspace.epoch};
}

}  // namespace grb::cuda::detail
