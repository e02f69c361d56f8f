// Waiting for the GPU: cuda operations may still be queued when an algorithm returns, and the
// caller's clock must stop only when the result is complete. Included by the runners that
// nvcc compiles (a cpu-only build has nothing to wait for).
#pragma once

#include "grb/types.hpp"

#if GRB_WITH_CUDA && defined(__CUDACC__)
#include "grb/cuda/check.cuh"
#endif

namespace grb::app {

inline void wait_for(Backend backend) {
#if GRB_WITH_CUDA && defined(__CUDACC__)
  if (backend == Backend::cuda) GRB_CUDA_CHECK(cudaDeviceSynchronize());
#else
  (void)backend;
#endif
}

}  // namespace grb::app
