// Finding the owner of a work item: with `starts` ascending (an exclusive scan of segment sizes:
// row offsets, a frontier's degrees, a list's chunk counts), item t belongs to the last segment
// whose start is <= t. This is the step that gives every thread one edge whatever the degrees
// (seed 004's load balancing): one thread's binary search, or a warp's 32-way search.
#pragma once

#include <cstdint>

#include "grb/types.hpp"

namespace grb::cuda::detail {

/// The segment s in [0, count) with starts[s] <= item < starts[s + 1] (count >= 1, starts[0] <=
/// item, item below the total); empty segments are skipped. starts[count] is never read.
template <class Start, class Item>
__host__ __device__ inline Index owner_of(const Start* starts, Index count, Item item) {
  Index low = 0, high = count;  // invariant: starts[low] <= item, and item < starts[high]
  while (high - low > 1) {
    const Index middle = low + (high - low) / 2;
    if (starts[middle] <= item) low = middle;
    else high = middle;
  }
  return low;
}

/// owner_of for a warp that searches together (warp-uniform arguments, every lane calls): 32
/// entries probed per round, so 10^5 entries take 4 dependent rounds, not 17. `start(s)` gives
/// segment s's start, which may be a field of a larger entry.
template <class StartOf, class Item>
__device__ inline Index warp_owner_of(StartOf start, Index count, Item item) {
  Index low = 0, high = count;  // invariant: start(low) <= item, and item < start(high)
  while (high - low > 1) {
    const Index stride = (high - low + 31) / 32;
    const Index probe = low + (threadIdx.x & 31u) * stride;
    const bool below = probe < high && start(probe) <= item;
    const unsigned last = 31 - __clz(__ballot_sync(0xffffffffu, below));  // lane 0 probes low
    high = high < low + (last + 1) * stride ? high : low + (last + 1) * stride;
    low += last * stride;
  }
  return low;
}

}  // namespace grb::cuda::detail
