// Tests' way between whole and distributed: a rank's block of rows of a graph held whole, and a
// rank's part of a result gathered whole on rank 0.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "grb/distributed/partition.hpp"
#include "grb/matrix.hpp"
#include "grb/vector.hpp"

namespace grb::test {

/// Rank `rank`'s block of rows of a whole host matrix, as a distributed graph.
template <class T>
dist::Graph<T> share_rows(const Matrix<T>& whole, int rank, int ranks) {
  const Csr<T>& all = whole.csr();
  dist::Graph<T> graph;
  graph.partition = dist::BlockPartition(whole.nrows(), ranks);
  graph.rank = rank;
  graph.global_entries = whole.nvals();
  const Index first = graph.first(), rows = graph.partition.count(rank);
  const Offset begin = all.row_offsets[first], end = all.row_offsets[first + rows];
  detail::Array<Offset> offsets(std::size_t(rows) + 1, Backend::cpu);
  for (Index i = 0; i <= rows; ++i) offsets[i] = all.row_offsets[first + i] - begin;
  detail::Array<Index> columns(end - begin, Backend::cpu);
  std::copy(all.col_indices.begin() + begin, all.col_indices.begin() + end, columns.begin());
  detail::Array<T> values(end - begin, Backend::cpu);
  std::copy(all.values.begin() + begin, all.values.begin() + end, values.begin());
  graph.local = Matrix<T>(
      Csr<T>{rows, whole.ncols(), std::move(offsets), std::move(columns), std::move(values)});
  return graph;
}

/// A local vector gathered on rank 0 as a dense list (`absent` where there is no entry).
template <class Comm, class T>
std::vector<T> gathered(const Comm& comm, const Vector<T>& local, T absent) {
  std::vector<T> values;
  local.extract_dense(values, absent);
  return comm.gather(values);
}

}  // namespace grb::test
