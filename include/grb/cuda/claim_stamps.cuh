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
  // A counter of this epoch's own, zero when handed out (for the claimers to count themselves):
  // one of a ring of counters cleared together once per claim_counters epochs, so an operation
  // needs no allocation and no clearing of its own.
  unsigned long long* count;
};

inline constexpr std::uint32_t claim_counters = 1024;

/// The stamps for an operation with `size` output positions (defined in src/cuda).
ClaimStamps claim_stamps(Index size);

/// Claims position i for this epoch: true for exactly one caller per position and epoch.
__device__ inline bool claim(const ClaimStamps& stamps, Index i) {
  return atomicExch(stamps.words + i, stamps.epoch) != stamps.epoch;
}

}  // namespace grb::cuda::detail
