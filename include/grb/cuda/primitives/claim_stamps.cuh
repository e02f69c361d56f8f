// Claim stamps: one 32-bit word per output position, kept between operations, so that a push
// can deduplicate its outputs (first writer claims a position) in time proportional to the
// edges it expands, without clearing an n-sized array first. Each claim gets a fresh epoch:
// a position is claimed in this operation when its word equals the epoch, and words left by
// earlier operations hold smaller epochs. On the 2^32nd epoch the words are cleared once.
//
// All grb work runs in order on the default stream, so successive operations never see each
// other's epochs in flight; calls from several host threads at once are not supported (as for
// the rest of the cuda backend).
#pragma once

#include <cstdint>

#include "grb/types.hpp"

namespace grb::cuda::detail {

struct ClaimStamps {
  std::uint32_t* words;  // at least `size` words
  std::uint32_t epoch;   // never 0
  // A counter of this epoch's own, zero when handed out: one of a ring of counters cleared
  // together once per claim_counters epochs, so an operation needs no allocation and no clearing
  // of its own. Its low 32 bits count the claimers (take_slots), its high 32 bits the blocks
  // that have finished (publish_count).
  unsigned long long* count;
  // The edges of the claimed outputs: the sum of their row lengths in the CSR whose row offsets
  // are edge_rows (null: not summed), and the longest of those rows, in counters of this epoch's
  // own (zero when handed out).
  const Offset* edge_rows;
  unsigned long long* edges;
  unsigned long long* longest;
  // Three words of page-locked host memory mapped into the device, this epoch's slot of a ring:
  // (epoch, count), the edges, and the longest row.
  unsigned long long* published;
  // A push claims only the outputs its mask allows, the mask read first (else both at once).
  bool after_mask = false;
};

/// What publish_count published for an operation.
struct Published {
  Index count;
  Offset edges;    // 0 when not summed
  Offset longest;  // the longest of those rows (0 when not summed)
};

inline constexpr std::uint32_t claim_counters = 1024;
/// Device counters and published host words per epoch: the count, the edges, the longest row.
inline constexpr std::size_t slot_words = 3;

/// The stamps for an operation with `size` output positions (defined in src/cuda).
ClaimStamps claim_stamps(Index size);

/// `claimers` more outputs: the first one's position in the output list (`count`: the stamps'
/// count, whose low 32 bits count the claimers).
__device__ inline unsigned long long take_slots(unsigned long long* count, unsigned claimers) {
  return atomicAdd(count, static_cast<unsigned long long>(claimers)) & 0xffffffffull;
}
__device__ inline unsigned long long take_slots(const ClaimStamps& stamps, unsigned claimers) {
  return take_slots(stamps.count, claimers);
}

/// Called by every thread of every block at the end of a kernel whose claimers took their slots
/// from stamps.count, and where the stamps sum edges, after thread 0 added its block's edges to
/// stamps.edges: the last block to finish writes the edges, then (epoch, count), into host
/// memory (this epoch's pair), where await_count finds it without a copy or a stream
/// synchronization (a read-back costs ~7 us on the H100's host; this ~1 us after the kernel ends). A block's finish goes into the count's
/// own word, so the block that finishes last reads the final count in the same atomic: all other
/// blocks took their slots before they finished. count < 2^32 (one per position).
__device__ inline void publish_count(const ClaimStamps& stamps) {
  __syncthreads();  // the block's claimers have taken their slots
  if (threadIdx.x != 0) return;
  if (stamps.edge_rows) __threadfence();  // the block's edges before its finish: the last
                                          // block's read sees them all
  const unsigned long long before = atomicAdd(stamps.count, 1ull << 32);
  if ((before >> 32) != gridDim.x - 1) return;
  auto* published = reinterpret_cast<volatile unsigned long long*>(stamps.published);
  if (stamps.edge_rows) {
    __threadfence();
    published[1] = atomicAdd(stamps.edges, 0ull);
    published[2] = atomicAdd(stamps.longest, 0ull);
    __threadfence_system();  // the edges before the count, which the host waits for
  }
  published[0] = (static_cast<unsigned long long>(stamps.epoch) << 32) | (before & 0xffffffffull);
  __threadfence_system();
}

/// What publish_count wrote for these stamps: waits for it (checking the stream for errors now
/// and then, so a failed kernel is an error, not a hang). Defined in src/cuda.
Published await_count(const ClaimStamps& stamps);

/// Claims position i for this epoch: true for exactly one caller per position and epoch.
__device__ inline bool claim(const ClaimStamps& stamps, Index i) {
  return atomicExch(stamps.words + i, stamps.epoch) != stamps.epoch;
}

}  // namespace grb::cuda::detail
