// Counter-based randomness for the generators: every random value is a pure function of
// (seed, stream, counter), so edge k of a graph comes out the same on any thread, in any order,
// on the host or on the GPU (the functions are __host__ __device__ under nvcc).
#pragma once

#include <cstdint>

#include "grb/types.hpp"

namespace grb::generate::detail {

/// SplitMix64's output function (Steele, Lea and Flood, 2014): a bijection on 64-bit words whose
/// outputs for consecutive inputs pass BigCrush.
GRB_HOST_DEVICE inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

/// SplitMix64's increment: consecutive counters land on well-separated inputs of mix64.
inline constexpr std::uint64_t golden_gamma = 0x9e3779b97f4a7c15ULL;

/// Independent random streams of one seed: one per purpose, so that, say, the weights never
/// correlate with the endpoints they belong to.
enum class Stream : std::uint64_t {
  kronecker_bits = 1,
  kronecker_weight,
  vertex_permutation,
  edge_permutation,
  grid_drop,
  grid_weight,
  erdos_renyi_endpoints,
  erdos_renyi_weight,
  relabelling,
};

/// The key of one stream of one seed.
GRB_HOST_DEVICE inline std::uint64_t stream_key(std::uint64_t seed, Stream stream) {
  return mix64(mix64(seed) + static_cast<std::uint64_t>(stream) * golden_gamma);
}

/// The counter-th 64 random bits of a stream: SplitMix64 started at state `key`.
GRB_HOST_DEVICE inline std::uint64_t random_bits(std::uint64_t key, std::uint64_t counter) {
  return mix64(key + (counter + 1) * golden_gamma);
}

/// 53 random bits as a double uniform in [0, 1).
GRB_HOST_DEVICE inline double to_unit_interval(std::uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

/// A random bijection of [0, size), computed pointwise: a 4-round Feistel network (Luby-Rackoff)
/// on the smallest even number of bits covering size, restricted to [0, size) by cycle walking
/// (re-applying the network until the value falls inside; this stays a bijection on the range).
/// Lets the generators permute vertex labels and edge order without storing a permutation.
class Permutation {
 public:
  static constexpr int rounds = 4;

  GRB_HOST_DEVICE Permutation(std::uint64_t size, std::uint64_t key) : size_(size) {
    int bits = 1;
    while (bits < 64 && (std::uint64_t{1} << bits) < size) ++bits;
    half_bits_ = (bits + 1) / 2;
    half_mask_ = (std::uint64_t{1} << half_bits_) - 1;
    for (int r = 0; r < rounds; ++r) round_keys_[r] = random_bits(key, static_cast<std::uint64_t>(r));
  }

  /// The image of x, for x < size.
  GRB_HOST_DEVICE std::uint64_t operator()(std::uint64_t x) const {
    do {
      x = network(x);
    } while (x >= size_);
    return x;
  }

  /// The x whose image is y, for y < size: the network run backwards, with the same walk.
  GRB_HOST_DEVICE std::uint64_t inverse(std::uint64_t y) const {
    do {
      y = inverse_network(y);
    } while (y >= size_);
    return y;
  }

 private:
  std::uint64_t size_ = 0;
  int half_bits_ = 1;
  std::uint64_t half_mask_ = 1;
  std::uint64_t round_keys_[rounds] = {};

  GRB_HOST_DEVICE std::uint64_t network(std::uint64_t x) const {
    std::uint64_t left = x >> half_bits_;
    std::uint64_t right = x & half_mask_;
    for (int r = 0; r < rounds; ++r) {
      const std::uint64_t next = left ^ (mix64(round_keys_[r] ^ right) & half_mask_);
      left = right;
      right = next;
    }
    return (left << half_bits_) | right;
  }

  GRB_HOST_DEVICE std::uint64_t inverse_network(std::uint64_t y) const {
    std::uint64_t left = y >> half_bits_;
    std::uint64_t right = y & half_mask_;
    for (int r = rounds - 1; r >= 0; --r) {
      const std::uint64_t previous = right ^ (mix64(round_keys_[r] ^ left) & half_mask_);
      right = left;
      left = previous;
    }
    return (left << half_bits_) | right;
  }
};

}  // namespace grb::generate::detail
