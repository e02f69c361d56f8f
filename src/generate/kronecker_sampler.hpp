// Edge k of the Graph500 Kronecker graph as a pure function of (seed, scale, edge_factor, k);
// __host__ __device__, so that a GPU generator can produce the identical edge list.
#pragma once

#include <cstdint>

#include "counter_random.hpp"
#include "grb/types.hpp"

namespace grb::generate::detail {

/// The 32-bit fixed-point threshold t with P(draw >= t) = 1 - p for a uniform 32-bit draw.
constexpr std::uint32_t probability_threshold(double p) {
  return static_cast<std::uint32_t>(p * 4294967296.0 + 0.5);
}

struct KroneckerEdge {
  Index source;
  Index target;
  double weight;
};

class KroneckerSampler {
 public:
  // The Graph500 initiator [A B; C D]; D = 1 - A - B - C = 0.05.
  static constexpr double initiator_a = 0.57;
  static constexpr double initiator_b = 0.19;
  static constexpr double initiator_c = 0.19;

  GRB_HOST_DEVICE KroneckerSampler(int scale, std::uint64_t nedges, std::uint64_t seed)
      : scale_(scale),
        bits_key_(stream_key(seed, Stream::kronecker_bits)),
        weight_key_(stream_key(seed, Stream::kronecker_weight)),
        vertices_(std::uint64_t{1} << scale, stream_key(seed, Stream::vertex_permutation)),
        edges_(nedges, stream_key(seed, Stream::edge_permutation)) {}

  /// The edge at position `position` of the output: generated edge edges_(position), both ends
  /// relabelled by the vertex permutation.
  GRB_HOST_DEVICE KroneckerEdge operator()(std::uint64_t position) const {
    const std::uint64_t edge = edges_(position);
    std::uint64_t source = 0, target = 0;
    // Graph500's reference draws two uniforms per level: the row bit is set with probability
    // C + D, then the column bit with probability D / (C + D) or B / (A + B) given the row bit.
    // Both uniforms come from one 64-bit word, compared as 32-bit fixed point.
    for (int level = 0; level < scale_; ++level) {
      const std::uint64_t bits = random_bits(bits_key_, edge * 64 + static_cast<std::uint64_t>(level));
      const std::uint32_t row_draw = static_cast<std::uint32_t>(bits >> 32);
      const std::uint32_t column_draw = static_cast<std::uint32_t>(bits);
      const bool row_bit = row_draw >= row_threshold;
      const bool column_bit = column_draw >= (row_bit ? column_threshold_lower : column_threshold_upper);
      source |= std::uint64_t{row_bit} << level;
      target |= std::uint64_t{column_bit} << level;
    }
    return {static_cast<Index>(vertices_(source)), static_cast<Index>(vertices_(target)),
            to_unit_interval(random_bits(weight_key_, edge))};
  }

  /// The weight of the edge at `position` alone: two hashes, where the endpoints take 2 * scale.
  GRB_HOST_DEVICE double weight(std::uint64_t position) const {
    return to_unit_interval(random_bits(weight_key_, edges_(position)));
  }

 private:
  static constexpr std::uint32_t row_threshold = probability_threshold(initiator_a + initiator_b);
  static constexpr std::uint32_t column_threshold_upper =
      probability_threshold(initiator_a / (initiator_a + initiator_b));
  static constexpr std::uint32_t column_threshold_lower =
      probability_threshold(initiator_c / (1.0 - initiator_a - initiator_b));

  int scale_;
  std::uint64_t bits_key_;
  std::uint64_t weight_key_;
  Permutation vertices_;
  Permutation edges_;
};

}  // namespace grb::generate::detail
