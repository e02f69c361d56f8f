// Erdos-Renyi G(n, m): m edges with both ends uniform, each a pure function of (seed, edge id).
#include <cmath>
#include <string>

#include "counter_random.hpp"
#include "edges_to_csr.hpp"
#include "grb/error.hpp"
#include "grb/generate.hpp"

namespace grb::generate {

namespace {
/// A 32-bit uniform draw scaled to [0, n) by a multiply and shift (Lemire): no division, and a
/// bias below n / 2^32, far under the sampling noise of any graph that fits in memory.
Index scaled(std::uint64_t draw32, Index n) { return static_cast<Index>((draw32 * n) >> 32); }
}  // namespace

Matrix<double> erdos_renyi(Index n, double average_degree, const Options& options) {
  if (n == 0) throw InvalidValue("erdos_renyi: no vertices");
  if (!(average_degree >= 0.0 && average_degree <= double(n - 1)))
    throw InvalidValue("erdos_renyi: average degree " + std::to_string(average_degree) +
                       " outside [0, " + std::to_string(n - 1) + "] for " + std::to_string(n) +
                       " vertices");
  // Each undirected edge gives two vertices a neighbour.
  const double per_vertex = options.symmetrize ? average_degree / 2 : average_degree;
  const auto nedges = static_cast<std::uint64_t>(std::llround(per_vertex * n));
  const std::uint64_t endpoint_key =
      detail::stream_key(options.seed, detail::Stream::erdos_renyi_endpoints);
  const std::uint64_t weight_key =
      detail::stream_key(options.seed, detail::Stream::erdos_renyi_weight);

  return detail::edges_to_csr<double>(
      n, nedges,
      [&](std::uint64_t e) {
        const std::uint64_t bits = detail::random_bits(endpoint_key, e);
        return detail::Edge{scaled(bits >> 32, n), scaled(bits & 0xffffffffULL, n),
                            detail::to_unit_interval(detail::random_bits(weight_key, e))};
      },
      options, "erdos_renyi");
}

}  // namespace grb::generate
