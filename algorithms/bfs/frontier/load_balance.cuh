// Edge-parallel work mapping (seed 004): with `starts` the exclusive scan of the frontier's
// degrees, work item t (the t-th frontier edge) belongs to the last segment whose start is <= t.
// A binary search per item gives every thread exactly one edge, whatever the degrees.
#pragma once

#include "grb/types.hpp"

namespace grb::bfs::frontier {

/// The segment i in [0, count) with starts[i] <= item < starts[i + 1] (starts ascending,
/// starts[0] == 0, item below the total). Empty segments are skipped: upper bound minus one.
__device__ inline Index owning_segment(const Offset* starts, Index count, Offset item) {
  Index low = 0, high = count;  // the answer's upper bound is in (low, high]
  while (low < high) {
    const Index middle = low + (high - low) / 2;
    if (starts[middle] <= item) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

}  // namespace grb::bfs::frontier
