// A CUDA graph's conditional while node: the GPU repeats its body graph while a kernel in it
// leaves the condition set (cudaGraphSetConditional), with no host in the loop. Used by the
// device loop of grb::repeat_while (src/cuda/loop.cu) and by the direction-optimized BFS's
// level loop.
#pragma once

#include <cuda_runtime.h>

namespace grb::cuda::detail {

/// Adds a while node to `graph`, its condition set at each launch (the body runs at least
/// once). On success `handle` is the condition's handle and `body` the node's body graph, owned
/// by `graph`. Returns the runtime's status: an error where the driver has no conditional nodes.
inline cudaError_t add_while_node(cudaGraph_t graph, cudaGraphConditionalHandle& handle,
                                  cudaGraph_t& body) {
  cudaError_t status =
      cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault);
  if (status != cudaSuccess) return status;
  cudaGraphNodeParams params{};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = handle;
  params.conditional.type = cudaGraphCondTypeWhile;
  params.conditional.size = 1;
  cudaGraphNode_t node;
  status = cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &params);
  if (status == cudaSuccess) body = params.conditional.phGraph_out[0];
  return status;
}

}  // namespace grb::cuda::detail
