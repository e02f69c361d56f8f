// Each context's claim stamps (grb/cuda/primitives/claim_stamps.cuh), kept with the context
// (grb/context.hpp): grown to the largest size asked for, freed with the context (a thread's
// default contexts at the thread's exit, before the runtime's own teardown: compute-sanitizer's
// leak check sees nothing left).
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "grb/cuda/primitives/claim_stamps.cuh"
#include "grb/cuda/runtime.cuh"

namespace grb::cuda::detail {
namespace {

/// The host words publish_count writes into ((epoch, count), edges, longest row), slot_words per
/// counter of the ring, so that a push launched behind another (deferred.hpp) never overwrites
/// the words the host still waits on: page-locked, mapped into the device's address space
/// (allocated once per context, freed with it, like the stamps).
struct PublishedWords {
  unsigned long long* host = nullptr;
  unsigned long long* device = nullptr;
  PublishedWords() {
    constexpr std::size_t bytes = slot_words * std::size_t{claim_counters} * sizeof(unsigned long long);
    void* memory = nullptr;
    GRB_CUDA_CHECK(cudaHostAlloc(&memory, bytes, cudaHostAllocMapped));
    host = static_cast<unsigned long long*>(memory);
    std::memset(memory, 0, bytes);  // epoch 0 is never handed out
    void* mapped = nullptr;
    GRB_CUDA_CHECK(cudaHostGetDevicePointer(&mapped, memory, 0));
    device = static_cast<unsigned long long*>(mapped);
  }
  PublishedWords(const PublishedWords&) = delete;
  PublishedWords& operator=(const PublishedWords&) = delete;
  ~PublishedWords() { cudaFreeHost(host); }  // an error here changes nothing
};

/// A context's stamps, counters and published words. Contexts are used by one thread at a time,
/// so nothing here is locked.
struct Workspace {
  std::optional<DeviceArray<std::uint32_t>> words;
  std::optional<DeviceArray<unsigned long long>> counters;
  std::uint32_t epoch = 0;
  PublishedWords published;
};

/// The current context's workspace, made on first use.
Workspace& context_workspace() {
  grb::detail::ContextState& context = grb::detail::current_context();
  if (!context.claim_stamps) context.claim_stamps = std::make_shared<Workspace>();
  return *static_cast<Workspace*>(context.claim_stamps.get());
}

/// The ring slot of an epoch: its counters and its published pair.
std::uint32_t slot_of(std::uint32_t epoch) { return epoch % claim_counters; }

}  // namespace

ClaimStamps claim_stamps(Index size) {
  Workspace& workspace = context_workspace();
  const std::size_t needed = size > 0 ? size : 1;
  // Three words per epoch: the claim count, the edges, and the longest of their rows.
  constexpr std::size_t counter_words = slot_words * std::size_t{claim_counters};
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
  // Every counter of the ring is used once per claim_counters epochs. A quarter of the ring is
  // cleared when the epoch is half a ring past it (after, in stream order, the operations that
  // used it): never the counters of the few operations still in flight, which a push launched
  // behind them reads (deferred.hpp).
  constexpr std::uint32_t quarter = claim_counters / 4;
  const std::uint32_t slot = slot_of(workspace.epoch);
  unsigned long long* counters = workspace.counters->data();
  if (slot % quarter == 0)
    fill_zero(counters + slot_words * std::size_t{slot_of(slot + claim_counters / 2)},
              slot_words * quarter);
  // The slot's published pair may hold the (epoch, count) of the operation claim_counters epochs
  // ago, or, when the words grew and epochs restarted, another's: cleared here (epoch 0 is never
  // handed out), await_count cannot mistake it for this operation's. That operation has read its
  // count already, so nothing else writes the pair now.
  static_cast<volatile unsigned long long*>(workspace.published.host)[slot_words * slot] = 0;
  unsigned long long* words = counters + slot_words * slot;
  return {workspace.words->data(), workspace.epoch,   words,
          /*edge_rows=*/nullptr,   words + 1,           words + 2,
          workspace.published.device + slot_words * slot};
}

Published await_count(const ClaimStamps& stamps) {
  const volatile unsigned long long* word =
      context_workspace().published.host + slot_words * slot_of(stamps.epoch);
  // The edges and the longest row were written before the count (with a system fence between).
  const auto published = [&](unsigned long long value) {
    return Published{static_cast<Index>(value & 0xffffffffull), stamps.edge_rows ? word[1] : 0,
                     stamps.edge_rows ? word[2] : 0};
  };
  for (unsigned spins = 1;; ++spins) {
    const unsigned long long value = word[0];
    if ((value >> 32) == stamps.epoch) return published(value);
    if (spins % 256 == 0) {
      const cudaError_t status = cudaStreamQuery(current_stream());
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
