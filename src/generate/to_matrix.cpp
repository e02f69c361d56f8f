// Edge list -> CSR adjacency matrix (edges_to_csr.hpp).
#include <string>

#include "edges_to_csr.hpp"
#include "grb/error.hpp"
#include "grb/generate.hpp"

namespace grb::generate {

Matrix<double> to_matrix(const EdgeList& edges, const Options& options) {
  const std::uint64_t nedges = edges.source.size();
  if (edges.target.size() != nedges || edges.weight.size() != nedges)
    throw DimensionMismatch("to_matrix: " + std::to_string(nedges) + " sources, " +
                            std::to_string(edges.target.size()) + " targets and " +
                            std::to_string(edges.weight.size()) + " weights");
  return detail::edges_to_csr<double>(
      edges.nvertices, nedges,
      [&edges](std::uint64_t k) {
        return detail::Edge{edges.source[k], edges.target[k], edges.weight[k]};
      },
      options, "to_matrix");
}

}  // namespace grb::generate
