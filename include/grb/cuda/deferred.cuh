// Deferred pushes with fused assigns (the cuda side of grb/deferred.hpp).
//
// A push vxm/mxv whose monoid is `any` (a BFS level) is queued instead of launched. An assign
// called next that is masked by the push's result, in place (all indices, structural mask, no
// accumulator, no replace) into a dense vector, and that writes the result's own values or a
// scalar, joins the queued push: the push kernel writes the assign's target for each output it
// claims. So the BFS level
//     vxm(q<!level>, q, A); assign(parent<q>, q); assign(level<q>, depth); q.nvals()
// is one launch and one read-back, not three launches that each wait for the one before.
//
// Writing the target inside the push is the assign's result exactly: the outputs claimed are
// the result's entries, each claimed once (claim stamps), so each target position is written by
// one thread. The target may even be the push's mask: a claimed output is claimed for good, so
// whether another thread then sees it in the mask or not, that thread cannot claim it again.
#pragma once

#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <typeinfo>

#include "grb/cuda/runtime.cuh"
#include "grb/deferred.hpp"
#include "grb/vector.hpp"

namespace grb::cuda::detail {

/// One assign fused into a push: target[o] = the push's value at o, or a scalar.
struct FusedAssign {
  void* values;
  std::uint8_t* present;
  std::int64_t* nvals_change;  // the target's pending in-place count (Vector::update_dense)
  std::uint32_t bytes;         // of one target value
  bool scalar;                 // write the scalar, else the push's own value
  std::uint64_t scalar_words[2];  // the scalar's bytes (at most 16), little-endian
};

inline constexpr int max_fused_assigns = 2;

// Kernels take FusedAssigns as a __grid_constant__ parameter and index its targets only with
// constants (loops over max_fused_assigns, unrolled): a parameter indexed at run time, or whose
// bytes are addressed, is copied into every thread's local memory (112 bytes a thread): on kron22
// that copy was 60 MB of writes and half the time of the push over the hub level.
struct FusedAssigns {
  FusedAssign targets[max_fused_assigns];
  int count = 0;
};

/// target.values[o] = the scalar, whatever its type, from the words by value.
__device__ inline void store_scalar(const FusedAssign& target, Index o) {
  const std::uint64_t low = target.scalar_words[0];
  switch (target.bytes) {
    case 1: static_cast<std::uint8_t*>(target.values)[o] = static_cast<std::uint8_t>(low); break;
    case 2: static_cast<std::uint16_t*>(target.values)[o] = static_cast<std::uint16_t>(low); break;
    case 4: static_cast<std::uint32_t*>(target.values)[o] = static_cast<std::uint32_t>(low); break;
    case 8: static_cast<std::uint64_t*>(target.values)[o] = low; break;
    default: {
      auto* to = static_cast<unsigned char*>(target.values) + std::size_t(o) * target.bytes;
      for (std::uint32_t b = 0; b < target.bytes; ++b)
        to[b] = static_cast<unsigned char>(target.scalar_words[b / 8] >> (8 * (b % 8)));
    }
  }
}

/// The new entries of each fused target, counted per block in shared memory and added to the
/// targets' counts once per block (a level that claims 10^5 outputs would otherwise queue them
/// on two global counters). start() and flush() are called by every thread of the block.
struct FusedCounts {
  unsigned* shared;  // max_fused_assigns counters
  __device__ void start() const {
    if (threadIdx.x < max_fused_assigns) shared[threadIdx.x] = 0;
    __syncthreads();
  }
  /// By the second warp's first lanes (blocks have 64 threads or more): the first thread goes
  /// on to publish_count without waiting for these atomics.
  __device__ void flush(const FusedAssigns& fused) const {
    __syncthreads();
    const int lane = int(threadIdx.x) - 32;
#pragma unroll
    for (int t = 0; t < max_fused_assigns; ++t)
      if (t == lane && t < fused.count && shared[t] > 0)
        atomicAdd(reinterpret_cast<unsigned long long*>(fused.targets[t].nvals_change),
                  static_cast<unsigned long long>(shared[t]));
  }
};

/// Whether each fused target held an entry at o before the push.
struct FusedPresence {
  bool had[max_fused_assigns];
};

/// Read by every thread that may claim o, before it knows whether it does: the read then waits
/// alongside the claim instead of after it.
__device__ inline FusedPresence fused_presence(const FusedAssigns& fused, Index o) {
  FusedPresence presence{};
#pragma unroll
  for (int t = 0; t < max_fused_assigns; ++t)
    presence.had[t] = t < fused.count && fused.targets[t].present[o] != 0;
  return presence;
}

/// Writes output o (value `value`, of the targets' own type when they take the push's values)
/// into every fused target; `claimers`: the threads that claimed an output together, so each
/// target's new entries cost one shared atomic per group.
template <class W>
__device__ void write_fused(const FusedAssigns& fused, const FusedCounts& counts,
                            const FusedPresence& presence, Index o, const W& value,
                            const cooperative_groups::coalesced_group& claimers) {
#pragma unroll
  for (int t = 0; t < max_fused_assigns; ++t) {
    if (t >= fused.count) break;  // the same for every claimer
    const FusedAssign& target = fused.targets[t];
    target.present[o] = 1;
    if (target.scalar) store_scalar(target, o);
    else static_cast<W*>(target.values)[o] = value;
    const unsigned adds = __popc(claimers.ballot(!presence.had[t]));
    if (claimers.thread_rank() == 0 && adds > 0) atomicAdd(counts.shared + t, adds);
  }
}

/// A queued push (mxv/push_any.cuh's push_any_sparse) that assigns may fuse into, or a launched
/// product (a push, or a pull: mxv/push_any.cuh's PendingPull) that assigns may queue behind.
class PendingPush : public grb::detail::Deferred {
 public:
  const void* output = nullptr;              // the Vector the push writes
  const void* input = nullptr;               // the Vector it reads
  const std::type_info* value_type = nullptr;  // of the output's values
  Index size = 0;                            // of the output
  FusedAssigns fused;
  const void* fused_objects[max_fused_assigns] = {};  // the fused targets' Vectors

  /// Where a push may queue behind this one and read its result before it is installed
  /// (mxv/mxv.cuh's chained_push): the output list on the device, and the count the kernel leaves
  /// in device memory. Null indices: this push cannot be chained.
  struct DeviceOutput {
    const Index* indices = nullptr;
    const void* values = nullptr;
    const unsigned long long* count = nullptr;  // its low 32 bits (ClaimStamps::count)
    Index capacity = 0;                         // the count is at most this
    // A pull's output is also dense: its presence and values at every position. Its list holds
    // the same entries, in any order, when the count is at most `listed` (else only some).
    const std::uint8_t* present = nullptr;
    const void* dense_values = nullptr;
    Index listed = 0;
  };
  DeviceOutput device_output;

  // A push queued behind this one (its follower) reads the output before its count is known, so
  // device_output.capacity is first a bound from this push's own input bound. When the push
  // this one follows finishes, it tells this one its count (input_counted): the bound tightens
  // before the next push is sized by it, and bounds do not compound level after level.
  PendingPush* leader = nullptr;
  PendingPush* follower = nullptr;
  Offset longest_row = 0;  // of the push matrix

  PendingPush() = default;
  PendingPush(const PendingPush&) = delete;
  PendingPush& operator=(const PendingPush&) = delete;
  ~PendingPush() override {
    if (leader) leader->follower = nullptr;
    if (follower) follower->leader = nullptr;
  }

  /// This push's input holds `count` entries: its output at most count * longest_row.
  void input_counted(Index count) {
    device_output.capacity = static_cast<Index>(
        std::min<Offset>(device_output.capacity, Offset(count) * longest_row));
  }

  bool writes(const void* object) const override {
    if (object == output) return true;
    for (int t = 0; t < fused.count; ++t)
      if (object == fused_objects[t]) return true;
    return false;
  }
  bool replaces(const void* object) const override { return object == output; }
};

/// Whether w<mask>(all) = source (or = scalar) can be done by `push`, or behind it, from its
/// result on the device: the mask is the push's output, the source that output or a scalar, and
/// w is neither read by the push nor replaced by deferred work (its host side is then current).
template <class W, class Mask, class S>
bool assign_follows_push(const PendingPush& push, const Vector<W>& w, const Mask& mask,
                         const Vector<S>* source) {
  if (static_cast<const void*>(&mask) != push.output || w.size() != push.size) return false;
  const void* target = &w;
  if (target == push.output || target == push.input) return false;  // read by the push
  if (grb::detail::deferred_work_replaces(target)) return false;  // its host side is stale
  if (source) {
    if constexpr (!std::is_same_v<S, W>) return false;  // the values are copied as they are
    if (static_cast<const void*>(source) != push.output || typeid(S) != *push.value_type)
      return false;
  }
  return true;
}

/// The FusedAssign that writes dense w in place (Vector::update_dense): the scalar where
/// `scalar`, else the product's own value. Inside a hold (update_dense completes nothing there).
template <class W, class S>
FusedAssign in_place_target(Vector<W>& w, bool scalar, S scalar_value) {
  const auto update = grb::detail::Storage::update_dense(w);
  FusedAssign target{update.values, update.present, update.nvals_change, sizeof(W), scalar,
                     {0, 0}};
  if (scalar) {
    const W value = static_cast<W>(scalar_value);
    if constexpr (sizeof(W) <= sizeof(target.scalar_words))
      std::memcpy(target.scalar_words, &value, sizeof(W));
  }
  return target;
}

/// Fuses w<mask>(all) = source (or = scalar) into the pending push when it can (see the top of
/// this file); false: nothing was done, and the caller runs the assign itself. The caller has
/// checked the sizes and that the assign is in place (assigns_in_place).
template <class W, class Mask, class S>
bool fuse_assign_into_push(Vector<W>& w, const Mask& mask, const Vector<S>* source, S scalar) {
  auto* push = dynamic_cast<PendingPush*>(grb::detail::pending_work());
  if (!push || push->fused.count == max_fused_assigns) return false;
  if (!assign_follows_push(*push, w, mask, source)) return false;
  if (!source && sizeof(W) > sizeof(FusedAssign::scalar_words)) return false;
  const grb::detail::DeferredHold hold;  // w is not written by the push: reading it is safe
  if (w.format() != VectorFormat::dense) return false;
  push->fused_objects[push->fused.count] = &w;
  push->fused.targets[push->fused.count++] = in_place_target(w, source == nullptr, scalar);
  return true;
}

}  // namespace grb::cuda::detail
