// Distributed Kronecker construction: each rank draws edge numbers [k0, k1) of the Graph500
// generator (edge k is a pure function of the seed and k), sends (u, v) and (v, u) to their
// rows' owners in one all-to-all, and sorts and deduplicates its rows.
#include "grb/distributed/graph.hpp"

#include <algorithm>
#include <type_traits>
#include <utility>
#include <vector>

#include "../generate/kronecker_arguments.hpp"
#include "../generate/kronecker_sampler.hpp"

namespace grb::dist {

namespace {

/// An entry bound for its row's owner; the weight is carried only where T holds it.
template <class T>
struct Entry {
  Index row, column;
  T value;
  bool operator<(const Entry& other) const {
    if (row != other.row) return row < other.row;
    if (column != other.column) return column < other.column;
    return value < other.value;  // parallel edges: the smallest weight first, and kept
  }
  bool same_place(const Entry& other) const { return row == other.row && column == other.column; }
};

}  // namespace

template <class T>
Graph<T> kronecker(const Communicator& comm, int scale, int edge_factor, std::uint64_t seed) {
  generate::detail::check_kronecker_arguments(scale, edge_factor);
  const std::uint64_t n = std::uint64_t{1} << scale;
  const std::uint64_t nedges = std::uint64_t(edge_factor) * n;
  Graph<T> graph;
  graph.partition = BlockPartition(static_cast<Index>(n), comm.size());
  graph.rank = comm.rank();
  const BlockPartition& partition = graph.partition;

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
  std::vector<Entry<T>> entries = comm.all_to_all(send);
  send = {};
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end(),
                            [](const Entry<T>& a, const Entry<T>& b) { return a.same_place(b); }),
                entries.end());

  const Index first = partition.first(comm.rank());
  const Index rows = partition.count(comm.rank());
  grb::detail::Array<Offset> offsets(std::size_t(rows) + 1, Backend::cpu);
  grb::detail::Array<Index> columns(entries.size(), Backend::cpu);
  grb::detail::Array<T> values(entries.size(), Backend::cpu);
  std::fill(offsets.begin(), offsets.end(), Offset{0});
  for (std::size_t e = 0; e < entries.size(); ++e) {
    ++offsets[entries[e].row - first + 1];
    columns[e] = entries[e].column;
    values[e] = entries[e].value;
  }
  for (Index i = 0; i < rows; ++i) offsets[i + 1] += offsets[i];
  graph.local = Matrix<T>(Csr<T>{rows, static_cast<Index>(n), std::move(offsets),
                                 std::move(columns), std::move(values)});
  graph.global_entries = comm.sum(entries.size());
  return graph;
}

template Graph<bool> kronecker<bool>(const Communicator&, int, int, std::uint64_t);
template Graph<double> kronecker<double>(const Communicator&, int, int, std::uint64_t);

}  // namespace grb::dist
