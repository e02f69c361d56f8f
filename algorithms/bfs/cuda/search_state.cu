// The kernel that starts every device engine's search.
#include "bfs/cuda/search_state.cuh"

namespace grb::bfs::kernels {

__global__ void start_search(Index vertices, Index source, std::int32_t* level, Index* parent,
                             Index* queue) {
  const Index v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= vertices) return;
  level[v] = v == source ? 0 : unreached;
  parent[v] = v == source ? source : no_index;
  if (v == 0) queue[0] = source;
}

}  // namespace grb::bfs::kernels
