// A frontier as a bitmap, one bit per vertex (pull levels test membership at random in-edges:
// n/8 bytes stay in L2 where a level or a queue would not).
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

__device__ inline void bitmap_set(unsigned* words, Index v) {
  atomicOr(&words[v >> 5], 1u << (v & 31u));
}

}  // namespace grb::bfs::frontier
