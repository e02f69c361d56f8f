// A rank's rows from entries that every rank sends to the rows' owners: how the distributed
// constructions (the Kronecker generator, the file readers) end. Over a Communicator (MPI) or a
// DeviceCommunicator (NCCL, through host memory).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "grb/distributed/partition.hpp"
#include "grb/matrix.hpp"

namespace grb::dist {

/// An entry bound for its row's owner; `mirror`: the other direction of a file's entry, added
/// to make the graph undirected (Combine::file_sums tells the two apart).
template <class T>
struct Entry {
  Index row, column;
  T value;
  bool mirror = false;
};

/// What one (row, column) keeps of its entries.
enum class Combine {
  /// The smallest value: the generators' parallel edges.
  smallest,
  /// What io::read_matrix_market_graph(path, {.symmetrize = true}) keeps: the file's entries at
  /// a place summed (a file's duplicates add up), the mirrored ones summed likewise, and the
  /// smaller of the two sums where both exist.
  file_sums,
};

/// Sends send[r] to rank r (and empties `send`), then builds this rank's rows of `partition`
/// from what arrives: sorted, one entry per (row, column), its entries combined by `combine`.
/// `global_entries` is summed over the ranks. Collective.
template <class T, class Comm>
Graph<T> assemble_rows(const Comm& comm, const BlockPartition& partition,
                       std::vector<std::vector<Entry<T>>>& send,
                       Combine combine = Combine::smallest) {
  std::vector<Entry<T>> entries = comm.all_to_all(send);
  send = {};
  // Sorted by place only (a value may be NaN, which no order ranks); each place's run combined.
  std::sort(entries.begin(), entries.end(), [](const Entry<T>& a, const Entry<T>& b) {
    if (a.row != b.row) return a.row < b.row;
    if (a.column != b.column) return a.column < b.column;
    return a.mirror < b.mirror;
  });
  std::size_t kept = 0;
  for (std::size_t start = 0, end = 0; start < entries.size(); start = end) {
    for (end = start; end < entries.size() && entries[end].row == entries[start].row &&
                      entries[end].column == entries[start].column;
         ++end) {
    }
    T value = entries[start].value;
    if constexpr (!std::is_same_v<T, bool>) {
      if (combine == Combine::smallest) {
        for (std::size_t k = start + 1; k < end; ++k) value = std::min(value, entries[k].value);
      } else {
        T sums[2] = {T{}, T{}};
        bool present[2] = {false, false};
        for (std::size_t k = start; k < end; ++k) {
          sums[entries[k].mirror] += entries[k].value;
          present[entries[k].mirror] = true;
        }
        value = present[0] && present[1] ? std::min(sums[0], sums[1]) : sums[present[1]];
      }
    }
    entries[kept++] = {entries[start].row, entries[start].column, value};
  }
  entries.resize(kept);
  Graph<T> graph;
  graph.partition = partition;
  graph.rank = comm.rank();
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
  graph.local = Matrix<T>(Csr<T>{rows, partition.vertices(), std::move(offsets), std::move(columns),
                                 std::move(values)});
  graph.global_entries = comm.sum(std::uint64_t(entries.size()));
  return graph;
}

}  // namespace grb::dist
