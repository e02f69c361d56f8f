// What every SSSP engine's prepare() reads of a graph, computed where the graph lives: the check
// of its lengths (check_weights) and its longest row (the auto engine's skew test). On cuda both
// are operations on the device that read back a few words, not host copies of the graph's
// arrays (kron26's lengths alone are 16.8 GB).
//
// The definitions are compiled once per build, by the unit that sees the cuda operations:
// sssp/cuda/linear_algebra.cu with CUDA, sssp/linear_algebra_engine.cpp without.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "grb/grb.hpp"
#include "sssp/engine.hpp"
#if defined(__CUDACC__) && GRB_WITH_CUDA
#include "grb/cuda/mxv/direction.cuh"  // longest_row_of
#endif

namespace grb::sssp {

namespace graph_checks_detail {
/// A length that no shortest path allows: negative, or NaN (!(x >= 0) catches both), which would
/// poison every comparison of the relaxations.
struct not_a_length {
  GRB_HOST_DEVICE bool operator()(double x, Index, Index) const { return !(x >= 0); }
};
}  // namespace graph_checks_detail

WeightSummary check_weights(const Matrix<double>& graph, std::string_view engine) {
  const Index n = graph.nrows();
  if (n != graph.ncols())
    throw DimensionMismatch("sssp engine " + std::string(engine) +
                            ": the weight matrix must be square, not " + std::to_string(n) + " x " +
                            std::to_string(graph.ncols()));
  Matrix<double> bad(n, n, graph.backend());
  select(bad, no_mask, no_accum, graph_checks_detail::not_a_length{}, graph);
  if (bad.nvals() > 0) {  // the first in row order, as a reader of the file would meet it
    std::vector<Index> rows, columns;
    std::vector<double> lengths;
    bad.extract_tuples(rows, columns, lengths);
    throw InvalidValue("sssp engine " + std::string(engine) + ": edge " + std::to_string(rows[0]) +
                       " -> " + std::to_string(columns[0]) + " has length " +
                       std::to_string(lengths[0]) +
                       " (shortest paths here need non-negative lengths)");
  }
  WeightSummary summary;
  const Offset edges = graph.nvals();
  if (edges > 0) summary.mean_weight = reduce(plus_monoid<double>{}, graph) / double(edges);
  if (n > 0) summary.mean_degree = double(edges) / double(n);
  return summary;
}

Offset longest_row(const Matrix<double>& graph) {
#if defined(__CUDACC__) && GRB_WITH_CUDA
  if (graph.backend() == Backend::cuda) return cuda::detail::longest_row_of(graph, false);
#endif
  const auto& offsets = graph.csr().row_offsets;
  Offset longest = 0;
  for (Index v = 0; v < graph.nrows(); ++v)
    longest = std::max(longest, offsets[v + 1] - offsets[v]);
  return longest;
}

}  // namespace grb::sssp
