// A set of positions as one bit each in 32-bit words (a BFS frontier or visited set, the marks
// of a sort by bitmap): n/8 bytes stay in L2 where a byte or a level per position would not.
#pragma once

#include <cstddef>
#include <cstdint>

#include "grb/types.hpp"

namespace grb::cuda::detail {

__host__ __device__ inline std::size_t bitmap_words(std::uint64_t positions) {
  return (std::size_t(positions) + 31) / 32;
}

__device__ inline std::uint32_t bitmap_bit(Index i) { return 1u << (i & 31u); }

__device__ inline bool bitmap_test(const std::uint32_t* words, Index i) {
  return (words[i >> 5] >> (i & 31u)) & 1u;
}

/// Sets bit i; true when this call set it (it was clear).
__device__ inline bool bitmap_set(std::uint32_t* words, Index i) {
  const std::uint32_t bit = bitmap_bit(i);
  return !(atomicOr(&words[i >> 5], bit) & bit);
}

}  // namespace grb::cuda::detail
