// A rank's rows from entries that every rank sends to the rows' owners: how the distributed
// constructions (the Kronecker generator, the file readers) end. Over a Communicator (MPI) or a
// DeviceCommunicator (NCCL, through host memory).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "grb/distributed/partition.hpp"
#include "grb/matrix.hpp"

namespace grb::dist {

/// An entry bound for its row's owner; T = bool carries no weight worth keeping.
template <class T>
struct Entry {
  Index row, column;
  T value;
  bool operator<(const Entry& other) const {
    if (row != other.row) return row < other.row;
    if (column != other.column) return column < other.column;
    return value < other.value;  // parallel entries: the smallest value first, and kept
  }
  bool same_place(const Entry& other) const { return row == other.row && column == other.column; }
};

/// Sends send[r] to rank r (and empties `send`), then builds this rank's rows of `partition`
/// from what arrives: sorted, one entry per (row, column), the smallest value kept.
/// `global_entries` is summed over the ranks. Collective.
template <class T, class Comm>
Graph<T> assemble_rows(const Comm& comm, const BlockPartition& partition,
                       std::vector<std::vector<Entry<T>>>& send) {
  std::vector<Entry<T>> entries = comm.all_to_all(send);
  send = {};
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end(),
                            [](const Entry<T>& a, const Entry<T>& b) { return a.same_place(b); }),
                entries.end());
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
