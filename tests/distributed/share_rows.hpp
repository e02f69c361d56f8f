// Tests' way to distribute a graph they hold whole: rank `rank`'s block of rows, copied.
#pragma once

#include <algorithm>
#include <utility>

#include "grb/distributed/partition.hpp"
#include "grb/matrix.hpp"

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

}  // namespace grb::test
