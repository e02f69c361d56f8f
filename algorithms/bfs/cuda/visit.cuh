// Claiming a vertex for the next level. Appending it to the next frontier is the primitives'
// business: one atomic a vertex (frontier-queue), one a warp (warp_append), or one a block
// (StagedList).
#pragma once

#include <cstdint>

#include "grb/types.hpp"

namespace grb::bfs::kernels {

inline constexpr std::int32_t unreached = -1;

/// True for exactly one caller per vertex: the one whose atomicCAS moved level[v] from
/// unreached to `next_level`. The plain read first skips the atomic for vertices already seen,
/// which on power-law graphs are most of them.
__device__ inline bool claim(std::int32_t* level, Index v, std::int32_t next_level) {
  if (level[v] != unreached) return false;
  return atomicCAS(&level[v], unreached, next_level) == unreached;
}

}  // namespace grb::bfs::kernels
