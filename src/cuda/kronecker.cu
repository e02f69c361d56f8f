// The Graph500 Kronecker generator on the GPU: one thread per output position runs the very
// KroneckerSampler the host generator runs (a __host__ __device__ header), so the same seed gives
// the same edge list on both, bit for bit.
#include "../generate/device.hpp"
#include "../generate/kronecker_sampler.hpp"
#include "grb/cuda/runtime.cuh"

namespace grb::generate::detail {
namespace {

__global__ void sample_kronecker_edges(KroneckerSampler sampler, std::uint64_t nedges,
                                       Index* source, Index* target, double* weight) {
  GRB_GRID_STRIDE_LOOP(position, nedges) {
    const KroneckerEdge edge = sampler(position);
    source[position] = edge.source;
    target[position] = edge.target;
    weight[position] = edge.weight;
  }
}

}  // namespace

void fill_kronecker_cuda(int scale, std::uint64_t seed, DeviceEdgeList& edges) {
  using namespace grb::cuda::detail;
  const std::uint64_t nedges = edges.size();
  if (nedges == 0) return;
  const KroneckerSampler sampler(scale, nedges, seed);
  sample_kronecker_edges<<<blocks_for(nedges), block_threads, 0, current_stream()>>>(
      sampler, nedges, edges.source.data(), edges.target.data(), edges.weight.data());
  GRB_CUDA_CHECK_LAUNCH();
}

}  // namespace grb::generate::detail
