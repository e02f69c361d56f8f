// The process's claim stamps (grb/cuda/claim_stamps.cuh): grown to the largest size asked for,
// freed at exit (before the runtime's own teardown, which was set up earlier and so runs later:
// compute-sanitizer's leak check sees nothing left).
#include <mutex>
#include <optional>
#include <string>

#include "grb/cuda/claim_stamps.cuh"
#include "grb/cuda/launch.cuh"

namespace grb::cuda::detail {
namespace {

/// The host words publish_count writes into ((epoch, count), edges): page-locked, mapped into the
/// device's address space (allocated once; freed at exit, like the stamps).
struct PublishedWord {
  unsigned long long* host = nullptr;
  unsigned long long* device = nullptr;
  PublishedWord() {
    void* bytes = nullptr;
    GRB_CUDA_CHECK(cudaHostAlloc(&bytes, 2 * sizeof(unsigned long long), cudaHostAllocMapped));
    host = static_cast<unsigned long long*>(bytes);
    host[0] = 0;  // epoch 0 is never handed out
    host[1] = 0;
    void* mapped = nullptr;
    GRB_CUDA_CHECK(cudaHostGetDevicePointer(&mapped, bytes, 0));
    device = static_cast<unsigned long long*>(mapped);
  }
  ~PublishedWord() { cudaFreeHost(host); }  // at exit; an error there changes nothing
};

PublishedWord& published_word() {
  static PublishedWord word;
  return word;
}

}  // namespace

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
  // Two words per epoch: the claim count, and the edges.
  constexpr std::size_t counter_words = 2 * std::size_t{claim_counters};
  if (!workspace.counters) {
    workspace.counters.emplace(device_array<unsigned long long>(counter_words));
    fill_zero(workspace.counters->data(), counter_words);
  }
  if (!workspace.words || workspace.words->size() < needed) {
    workspace.words.reset();
    workspace.words.emplace(device_array<std::uint32_t>(needed));
    fill_zero(workspace.words->data(), needed);
    workspace.epoch = 0;
    fill_zero(workspace.counters->data(), counter_words);
  }
  if (++workspace.epoch == 0) {  // wrapped: stamps from 2^32 operations ago would look claimed
    fill_zero(workspace.words->data(), workspace.words->size());
    workspace.epoch = 1;
    fill_zero(workspace.counters->data(), counter_words);
  }
  // Every counter of the ring is used once, then all are cleared together (after, in stream
  // order, the operations that used them).
  const std::uint32_t slot = workspace.epoch % claim_counters;
  if (slot == 0) fill_zero(workspace.counters->data(), counter_words);
  unsigned long long* counters = workspace.counters->data();
  // The published word may hold an earlier operation's (epoch, count), and epochs restart when
  // the words grow: cleared here (epoch 0 is never handed out), await_count cannot mistake it
  // for this operation's. The operation before has read its count already, so nothing else
  // writes the word now.
  static_cast<volatile unsigned long long*>(published_word().host)[0] = 0;
  return {workspace.words->data(), workspace.epoch, counters + 2 * slot, /*edge_rows=*/nullptr,
          counters + 2 * slot + 1, published_word().device};
}

Published await_count(const ClaimStamps& stamps) {
  const volatile unsigned long long* word = published_word().host;
  // The edges were written before the count (with a system fence between).
  const auto published = [&](unsigned long long value) {
    return Published{static_cast<Index>(value & 0xffffffffull), stamps.edge_rows ? word[1] : 0};
  };
  for (unsigned spins = 1;; ++spins) {
    const unsigned long long value = word[0];
    if ((value >> 32) == stamps.epoch) return published(value);
    if (spins % 256 == 0) {
      const cudaError_t status = cudaStreamQuery(0);
      if (status == cudaSuccess) {  // all done: the word must be there now
        const unsigned long long last = word[0];
        if ((last >> 32) == stamps.epoch) return published(last);
        throw CudaError("await_count: the stream finished without publishing epoch " +
                    std::to_string(stamps.epoch) + "'s count");
      }
      if (status != cudaErrorNotReady) GRB_CUDA_CHECK(status);
    }
  }
}

}  // namespace grb::cuda::detail
