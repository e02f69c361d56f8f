// The public GPU generator functions: argument checks here, in plain C++, so that they read the
// same as the host generators'; the kernels are in src/cuda. Without CUDA every function reports
// the backend unavailable.
#include <string>
#include <utility>

#include "device.hpp"
#include "grb/error.hpp"
#include "grb/generate.hpp"
#include "kronecker_arguments.hpp"

namespace grb::generate {
namespace {

void require_cuda(const char* what) {
  if (!cuda_available())
    throw BackendUnavailable(std::string(what) + ": no usable GPU" +
                             (GRB_WITH_CUDA ? "" : " (grb was built without CUDA)"));
}

void check_lengths(const DeviceEdgeList& edges) {
  if (edges.target.size() != edges.size() || edges.weight.size() != edges.size())
    throw DimensionMismatch("to_matrix: " + std::to_string(edges.size()) + " sources, " +
                            std::to_string(edges.target.size()) + " targets and " +
                            std::to_string(edges.weight.size()) + " weights");
}

/// `consumed` is the list itself when the caller gave it up (to_matrix of an rvalue), else null.
Matrix<double> device_to_matrix(const DeviceEdgeList& edges, const Options& options,
                                DeviceEdgeList* consumed) {
  require_cuda("to_matrix");
  check_lengths(edges);
#if GRB_WITH_CUDA
  Matrix<double> matrix(detail::edge_list_to_csr_cuda(edges, options, consumed));
  // As on the cpu: every entry has its mirror with the same combined weight.
  if (options.symmetrize) matrix.mark_symmetric();
  return matrix;
#else
  (void)options, (void)consumed;
  return {};  // unreachable: require_cuda threw
#endif
}

}  // namespace

DeviceEdgeList to_device(const EdgeList& edges) {
  require_cuda("to_device");
  using grb::detail::Array;
  return DeviceEdgeList{edges.nvertices,
                        Array<Index>::from(std::span<const Index>(edges.source), Backend::cuda),
                        Array<Index>::from(std::span<const Index>(edges.target), Backend::cuda),
                        Array<double>::from(std::span<const double>(edges.weight), Backend::cuda)};
}

EdgeList to_host(const DeviceEdgeList& edges) {
  return EdgeList{edges.nvertices, edges.source.to_vector(), edges.target.to_vector(),
                  edges.weight.to_vector()};
}

DeviceEdgeList kronecker_edges_cuda(int scale, int edge_factor, std::uint64_t seed) {
  detail::check_kronecker_arguments(scale, edge_factor);
  require_cuda("kronecker_edges_cuda");
  const std::uint64_t nvertices = std::uint64_t{1} << scale;
  const std::uint64_t nedges = static_cast<std::uint64_t>(edge_factor) * nvertices;
  DeviceEdgeList edges{static_cast<Index>(nvertices),
                       grb::detail::Array<Index>(nedges, Backend::cuda),
                       grb::detail::Array<Index>(nedges, Backend::cuda),
                       grb::detail::Array<double>(nedges, Backend::cuda)};
#if GRB_WITH_CUDA
  detail::fill_kronecker_cuda(scale, seed, edges);
#else
  (void)seed;
#endif
  return edges;
}

Matrix<double> to_matrix(const DeviceEdgeList& edges, const Options& options) {
  return device_to_matrix(edges, options, nullptr);
}

Matrix<double> to_matrix(DeviceEdgeList&& edges, const Options& options) {
  return device_to_matrix(edges, options, &edges);
}

}  // namespace grb::generate
