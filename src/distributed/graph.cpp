// Distributed Kronecker construction: each rank draws edge numbers [k0, k1) of the Graph500
// generator (edge k is a pure function of the seed and k), sends (u, v) and (v, u) to their
// rows' owners in one all-to-all, and sorts and deduplicates its rows.
#include "grb/distributed/graph.hpp"

#include <type_traits>
#include <vector>

#include "../generate/kronecker_arguments.hpp"
#include "../generate/kronecker_sampler.hpp"
#include "grb/distributed/assemble.hpp"

namespace grb::dist {

template <class T>
Graph<T> kronecker(const Communicator& comm, int scale, int edge_factor, std::uint64_t seed) {
  generate::detail::check_kronecker_arguments(scale, edge_factor);
  const std::uint64_t n = std::uint64_t{1} << scale;
  const std::uint64_t nedges = std::uint64_t(edge_factor) * n;
  const BlockPartition partition(static_cast<Index>(n), comm.size());

  // This rank's edge numbers, and each entry to its row's owner (self loops dropped, as the
  // single-process generator drops them).
  const std::uint64_t k0 = nedges * comm.rank() / comm.size();
  const std::uint64_t k1 = nedges * (comm.rank() + 1) / comm.size();
  const generate::detail::KroneckerSampler sampler(scale, nedges, seed);
  std::vector<std::vector<Entry<T>>> send(comm.size());
  for (std::uint64_t k = k0; k < k1; ++k) {
    const generate::detail::KroneckerEdge edge = sampler(k);
    if (edge.source == edge.target) continue;
    const T value = std::is_same_v<T, bool> ? T(true) : T(edge.weight);
    send[partition.owner(edge.source)].push_back({edge.source, edge.target, value});
    send[partition.owner(edge.target)].push_back({edge.target, edge.source, value});
  }
  return assemble_rows(comm, partition, send);
}

template Graph<bool> kronecker<bool>(const Communicator&, int, int, std::uint64_t);
template Graph<double> kronecker<double>(const Communicator&, int, int, std::uint64_t);

}  // namespace grb::dist
