// The process's claim stamps (grb/cuda/claim_stamps.cuh): grown to the largest size asked for,
// never freed (like the cuSPARSE handle, it lives until exit, past the memory pool's teardown).
#include <mutex>

#include "grb/cuda/claim_stamps.cuh"
#include "grb/cuda/launch.cuh"

namespace grb::cuda::detail {

ClaimStamps claim_stamps(Index size) {
  struct Workspace {
    std::mutex mutex;
    DeviceArray<std::uint32_t>* words = nullptr;
    std::uint32_t epoch = 0;
  };
  static Workspace* workspace = new Workspace;
  std::lock_guard lock(workspace->mutex);
  const std::size_t needed = size > 0 ? size : 1;
  if (!workspace->words || workspace->words->size() < needed) {
    auto* grown = new DeviceArray<std::uint32_t>(device_array<std::uint32_t>(needed));
    fill_zero(grown->data(), needed);
    delete workspace->words;
    workspace->words = grown;
    workspace->epoch = 0;
  }
  if (++workspace->epoch == 0) {  // wrapped: stamps from 2^32 operations ago would look claimed
    fill_zero(workspace->words->data(), workspace->words->size());
    workspace->epoch = 1;
  }
  return {workspace->words->data(), workspace->epoch};
}

}  // namespace grb::cuda::detail
