// Deferred products with fused assigns (the cuda side of grb/deferred.hpp).
//
// A vxm/mxv whose monoid is `any` (a BFS level) is queued instead of launched: a small push, or
// a pull whose result replaces the output. An assign called next that is masked by the
// product's result, in place (all indices, structural mask, no accumulator, no replace) into a
// dense vector, and that writes the result's own values or a scalar, joins the queued product:
// its kernel writes the assign's target for each output it finds. So the BFS level
//     vxm(q<!level>, q, A); assign(parent<q>, q); assign(level<q>, depth); q.nvals()
// is one launch and one read-back, not three launches that each wait for the one before.
//
// Writing the target inside the product is the assign's result exactly: the outputs found are
// the result's entries, each by one thread (a push claims each output once with claim stamps; a
// pull's thread or warp owns its output row), so each target position is written once. The
// target may even be the product's mask: a push's claimed output is claimed for good, so
// whether another thread then sees it in the mask or not, that thread cannot claim it again; a
// pull reads the mask only at the row it owns, before it writes there.
#pragma once

#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <typeinfo>

#include "grb/cuda/launch.cuh"
#include "grb/deferred.hpp"
#include "grb/vector.hpp"

namespace grb::cuda::detail {

/// One assign fused into a product: target[o] = the product's value at o, or a scalar.
struct FusedAssign {
  void* values;
  std::uint8_t* present;
  std::int64_t* nvals_change;  // the target's pending in-place count (Vector::update_dense)
  std::uint32_t bytes;         // of one target value
  bool scalar;                 // write scalar_bytes, else the product's own value
  alignas(8) unsigned char scalar_bytes[16];
};

inline constexpr int max_fused_assigns = 2;

struct FusedAssigns {
  FusedAssign targets[max_fused_assigns];
  int count = 0;
};

template <class Word>
__device__ void store_as(void* values, Index o, const void* from) {
  static_cast<Word*>(values)[o] = *static_cast<const Word*>(from);
}

/// values[o] = the `bytes` bytes at `from` (a target's value, whatever its type).
__device__ inline void store_value(void* values, Index o, std::uint32_t bytes, const void* from) {
  switch (bytes) {
    case 1: store_as<std::uint8_t>(values, o, from); break;
    case 2: store_as<std::uint16_t>(values, o, from); break;
    case 4: store_as<std::uint32_t>(values, o, from); break;
    case 8: store_as<std::uint64_t>(values, o, from); break;
    default: memcpy(static_cast<unsigned char*>(values) + std::size_t(o) * bytes, from, bytes);
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
    const int t = int(threadIdx.x) - 32;
    if (t >= 0 && t < fused.count && shared[t] > 0)
      atomicAdd(reinterpret_cast<unsigned long long*>(fused.targets[t].nvals_change),
                static_cast<unsigned long long>(shared[t]));
  }
};

/// Whether each fused target held an entry at o before the product.
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

/// Writes output o (value `value`) into every fused target; `claimers`: the threads that claimed
/// an output together, so each target's new entries cost one shared atomic per group.
template <class W>
__device__ void write_fused(const FusedAssigns& fused, const FusedCounts& counts,
                            const FusedPresence& presence, Index o, const W& value,
                            const cooperative_groups::coalesced_group& claimers) {
  alignas(16) unsigned char own[sizeof(W)];  // store_value reads whole words: aligned
  memcpy(own, &value, sizeof(W));
  for (int t = 0; t < fused.count; ++t) {
    const FusedAssign& target = fused.targets[t];
    const bool added = !presence.had[t];
    target.present[o] = 1;
    store_value(target.values, o, target.bytes,
                target.scalar ? static_cast<const void*>(target.scalar_bytes)
                              : static_cast<const void*>(own));
    const unsigned adds = __popc(claimers.ballot(added));
    if (claimers.thread_rank() == 0 && adds > 0) atomicAdd(counts.shared + t, adds);
  }
}

/// Writes output o (value `value`), found by this thread alone, into every fused target.
template <class W>
__device__ void write_fused_found(const FusedAssigns& fused, const FusedCounts& counts, Index o,
                                  const W& value) {
  if (fused.count == 0) return;
  const FusedPresence had = fused_presence(fused, o);
  write_fused(fused, counts, had, o, value, cooperative_groups::coalesced_threads());
}

/// A queued product (mxv.cuh's push_any_sparse and pull_adopted) that assigns may fuse into.
class PendingProduct : public grb::detail::Deferred {
 public:
  const void* output = nullptr;              // the Vector the product writes
  const void* input = nullptr;               // the Vector it reads
  const std::type_info* value_type = nullptr;  // of the output's values
  Index size = 0;                            // of the output
  FusedAssigns fused;
};

/// Fuses w<mask>(all) = source (or = scalar) into the pending product when it can (see the top of
/// this file); false: nothing was done, and the caller runs the assign itself. The caller has
/// checked the sizes and that the assign is in place (assigns_in_place).
template <class W, class Mask, class S>
bool fuse_assign_into_product(Vector<W>& w, const Mask& mask, const Vector<S>* source,
                              S scalar) {
  auto* product = dynamic_cast<PendingProduct*>(grb::detail::pending_work());
  if (!product || product->fused.count == max_fused_assigns) return false;
  if (static_cast<const void*>(&mask) != product->output || w.size() != product->size) return false;
  const void* target = &w;
  if (target == product->output || target == product->input) return false;  // read by the product
  if (source) {
    if constexpr (!std::is_same_v<S, W>) return false;  // the values are copied as they are
    if (static_cast<const void*>(source) != product->output || typeid(S) != *product->value_type)
      return false;
  } else if (sizeof(W) > sizeof(FusedAssign::scalar_bytes)) {
    return false;
  }
  const grb::detail::DeferredHold hold;  // w is not written by the product: reading it is safe
  if (w.format() != VectorFormat::dense) return false;
  const auto update = w.update_dense([] {
    auto counter = device_array<std::int64_t>(1);
    fill_zero(counter.data(), 1);
    return counter;
  });
  FusedAssign& fused = product->fused.targets[product->fused.count++];
  fused.values = update.values;
  fused.present = update.present;
  fused.nvals_change = update.nvals_change;
  fused.bytes = sizeof(W);
  fused.scalar = source == nullptr;
  if (!source) {
    const W value = static_cast<W>(scalar);
    std::memcpy(fused.scalar_bytes, &value, std::min(sizeof(W), sizeof(fused.scalar_bytes)));
  }
  return true;
}

}  // namespace grb::cuda::detail
