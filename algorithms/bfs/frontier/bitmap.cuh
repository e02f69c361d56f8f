// A vertex set as one bit per vertex (the frontier and the visited set of direction-optimized):
// pull levels test membership at random in-edges, and n/8 bytes stay in L2 where a level array
// or a queue would not.
#pragma once

#include <cstddef>

#include "grb/types.hpp"

namespace grb::bfs::frontier {

__host__ __device__ inline std::size_t bitmap_words(Index vertices) {
  return (std::size_t(vertices) + 31) / 32;
}

__device__ inline bool bitmap_test(const unsigned* words, Index v) {
  return (words[v >> 5] >> (v & 31u)) & 1u;
}

}  // namespace grb::bfs::frontier
