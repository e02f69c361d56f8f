// The Graph500 Kronecker generator (specification 3.0, section 3): edge k is drawn by
// KroneckerSampler from (seed, k) alone, so the edge list, or the matrix, is filled in parallel.
#include <string>

#include "edges_to_csr.hpp"
#include "grb/array.hpp"
#include "grb/error.hpp"
#include "grb/generate.hpp"
#include "kronecker_arguments.hpp"
#include "kronecker_sampler.hpp"
#include "parallel.hpp"

namespace grb::generate {

EdgeList kronecker_edges(int scale, int edge_factor, std::uint64_t seed) {
  detail::check_kronecker_arguments(scale, edge_factor);
  const std::uint64_t nvertices = std::uint64_t{1} << scale;
  const std::uint64_t nedges = static_cast<std::uint64_t>(edge_factor) * nvertices;

  EdgeList edges;
  edges.nvertices = static_cast<Index>(nvertices);
  grb::detail::resize_on_huge_pages(edges.source, nedges);
  grb::detail::resize_on_huge_pages(edges.target, nedges);
  grb::detail::resize_on_huge_pages(edges.weight, nedges);
  const detail::KroneckerSampler sampler(scale, nedges, seed);
  Index* source = edges.source.data();
  Index* target = edges.target.data();
  double* weight = edges.weight.data();
  detail::parallel_for(nedges, [&](std::uint64_t begin, std::uint64_t end) {
    // A private copy: stores to the (unsigned) ids could otherwise alias the sampler's (int)
    // fields, forcing a reload of its keys for every edge.
    const detail::KroneckerSampler local = sampler;
    for (std::uint64_t position = begin; position < end; ++position) {
      const detail::KroneckerEdge edge = local(position);
      source[position] = edge.source;
      target[position] = edge.target;
      weight[position] = edge.weight;
    }
  });
  return edges;
}

namespace {

/// kronecker() with the weights (T = double) or without (T = bool).
template <class T>
Matrix<T> kronecker_as(int scale, int edge_factor, const Options& options) {
  detail::check_kronecker_arguments(scale, edge_factor);
  const std::uint64_t nvertices = std::uint64_t{1} << scale;
  const std::uint64_t nedges = static_cast<std::uint64_t>(edge_factor) * nvertices;
  // Straight to the CSR, with no edge list of 16 bytes an edge (17 GB at scale 26): the
  // endpoints are drawn once and kept for the second pass where memory allows (weight()).
  struct Edges {
    detail::KroneckerSampler sampler;
    detail::Edge operator()(std::uint64_t k) const {
      const detail::KroneckerEdge edge = sampler(k);
      return {edge.source, edge.target, edge.weight};
    }
    double weight(std::uint64_t k) const { return sampler.weight(k); }
  };
  const Edges edges{detail::KroneckerSampler(scale, nedges, options.seed)};
  return detail::edges_to_csr<T>(static_cast<Index>(nvertices), nedges, edges, options,
                                 "kron-" + std::to_string(scale));
}

}  // namespace

Matrix<double> kronecker(int scale, int edge_factor, const Options& options) {
  return kronecker_as<double>(scale, edge_factor, options);
}

Matrix<bool> kronecker_pattern(int scale, int edge_factor, const Options& options) {
  return kronecker_as<bool>(scale, edge_factor, options);
}

}  // namespace grb::generate
