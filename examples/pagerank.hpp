// PageRank as linear algebra, by power iteration over the plus.times semiring:
//
//   rank(v) <- (1 - d) / n + d * sum over edges u -> v of rank(u) / outdegree(u)
//                          + d / n * sum over dangling vertices w of rank(w)
//
// starting from rank = 1 / n, until the L1 change of one step is below `tolerance` or after
// `max_iterations` steps. A dangling vertex (no out-edge) spreads its rank uniformly over all n
// vertices, so the ranks keep summing to 1. This is the definition of LDBC Graphalytics (v1.0,
// section 2.3.4), which runs a fixed number of steps (tolerance 0 here); edge weights are ignored.
//
// Each step is seven grb calls: the rank the dangling vertices hold (a complemented mask), each
// vertex's damped share rank(u) * d / outdegree(u) (ewise_mult), the teleport term assigned to
// every vertex, the shares pushed along the edges and added to it (vxm with an accumulator), and
// the L1 change (ewise_mult, reduce): two of them (the reduces) read a number back to the host.
//
// Needs: a square adjacency matrix (A(i, j): an edge i -> j; values ignored).
// References: Page, Brin, Motwani and Winograd, "The PageRank citation ranking" (1999); LDBC
// Graphalytics specification, "PageRank"; LAGraph's LAGr_PageRank (the GAP variant).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "grb/grb.hpp"

namespace grb::examples {

struct PageRankOptions {
  double damping = 0.85;
  double tolerance = 1e-4;   // on the L1 change of one step; 0 runs max_iterations steps
  int max_iterations = 100;
};

struct PageRankResult {
  Vector<double> rank;    // every vertex has an entry; they sum to 1
  int iterations = 0;     // steps taken
  double change = 0;      // L1 change of the last step
};

namespace pagerank_detail {

/// rank(u) * damping / outdegree(u): what u passes along each of its out-edges. A user-defined
/// binary operator with a bound scalar, usable on host and device.
struct damped_share {
  double damping;
  using result_type = double;
  GRB_HOST_DEVICE double operator()(double rank, double out_degree) const {
    return damping * rank / out_degree;
  }
};

struct absolute_difference {
  using result_type = double;
  GRB_HOST_DEVICE double operator()(double x, double y) const { return x < y ? y - x : x - y; }
};

}  // namespace pagerank_detail

inline namespace GRB_OPERATIONS_NAMESPACE {  // see grb/operations.hpp

template <class T>
PageRankResult pagerank(const Matrix<T>& graph, const PageRankOptions& options = {}) {
  using namespace pagerank_detail;
  const Index n = graph.nrows();
  if (graph.ncols() != n)
    throw DimensionMismatch("pagerank: the adjacency matrix must be square, not " +
                            std::to_string(n) + " x " + std::to_string(graph.ncols()));
  if (!(options.damping >= 0 && options.damping <= 1))
    throw InvalidValue("pagerank: the damping factor must lie in [0, 1], not " +
                       std::to_string(options.damping));
  const Backend backend = graph.backend();
  const double damping = options.damping;
  PageRankResult result{Vector<double>(n, backend)};
  if (n == 0) return result;

  // The graph with every edge weight 1, and each vertex's out-degree (its row sum). A dangling
  // vertex's row is empty, so it has no entry in out_degree: that absence is its mark.
  Matrix<double> edges(n, n, backend);
  apply(edges, no_mask, no_accum, one<double>{}, graph);
  Vector<double> out_degree(n, backend);
  reduce(out_degree, no_mask, no_accum, plus_monoid<double>{}, edges);
  const Descriptor dangling_only{.replace = true, .structural_mask = true, .complement_mask = true};

  Vector<double> rank = Vector<double>::full(n, 1.0 / n, backend);
  Vector<double> next(n, backend);
  Vector<double> share(n, backend);
  Vector<double> dangling(n, backend);
  Vector<double> difference(n, backend);

  while (result.iterations < options.max_iterations) {
    // The rank held by vertices without out-edges, which they spread over every vertex.
    apply(dangling, out_degree, no_accum, identity<double>{}, rank, dangling_only);
    const double dangling_rank = reduce(plus_monoid<double>{}, dangling);
    // next = teleport + share' * A, over plus.times
    ewise_mult(share, no_mask, no_accum, damped_share{damping}, rank, out_degree);
    const double teleport = (1 - damping) / n + damping * dangling_rank / n;
    assign(next, no_mask, no_accum, teleport, all);
    vxm(next, no_mask, plus<double>{}, plus_times<double>{}, share, edges);
    // The L1 change of this step.
    ewise_mult(difference, no_mask, no_accum, absolute_difference{}, next, rank);
    result.change = reduce(plus_monoid<double>{}, difference);
    std::swap(rank, next);
    ++result.iterations;
    if (result.change < options.tolerance) break;
  }
  result.rank = std::move(rank);
  return result;
}

}  // namespace GRB_OPERATIONS_NAMESPACE
}  // namespace grb::examples
