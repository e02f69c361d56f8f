// A 2-D grid with randomly dropped edges: the road-network stand-in (high diameter, degree <= 4).
#include <string>

#include "counter_random.hpp"
#include "grb/error.hpp"
#include "grb/generate.hpp"

namespace grb::generate {

Matrix<double> grid(Index side, double drop_fraction, const Options& options) {
  if (side == 0) throw InvalidValue("grid: side is 0");
  // Vertex ids are 32-bit and no_index (2^32 - 1) is reserved.
  if (side > 65535)
    throw InvalidValue("grid: side " + std::to_string(side) +
                       " gives more than 2^32 - 1 vertices (the largest side is 65535)");
  if (!(drop_fraction >= 0.0 && drop_fraction <= 1.0))
    throw InvalidValue("grid: drop fraction " + std::to_string(drop_fraction) +
                       " outside [0, 1]");
  const std::uint64_t drop_key = detail::stream_key(options.seed, detail::Stream::grid_drop);
  const std::uint64_t weight_key = detail::stream_key(options.seed, detail::Stream::grid_weight);

  EdgeList edges;
  edges.nvertices = side * side;
  // Grid edge ids: the side * (side - 1) horizontal edges row by row, then the vertical ones.
  // An edge's fate and weight hang on its id alone.
  const std::uint64_t horizontal = std::uint64_t{side} * (side - 1);
  const auto add = [&](std::uint64_t id, Index from, Index to) {
    if (detail::to_unit_interval(detail::random_bits(drop_key, id)) < drop_fraction) return;
    edges.source.push_back(from);
    edges.target.push_back(to);
    // The top 6 bits: an integer uniform in [0, 64).
    edges.weight.push_back(static_cast<double>((detail::random_bits(weight_key, id) >> 58) + 1));
  };
  for (Index row = 0; row < side; ++row)
    for (Index column = 0; column + 1 < side; ++column)
      add(std::uint64_t{row} * (side - 1) + column, row * side + column, row * side + column + 1);
  for (Index row = 0; row + 1 < side; ++row)
    for (Index column = 0; column < side; ++column)
      add(horizontal + std::uint64_t{row} * side + column, row * side + column,
          (row + 1) * side + column);
  return to_matrix(edges, options);
}

Matrix<bool> grid_pattern(Index side, double drop_fraction, const Options& options) {
  return pattern(grid(side, drop_fraction, options));
}

}  // namespace grb::generate
