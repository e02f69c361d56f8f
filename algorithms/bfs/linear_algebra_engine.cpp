// The linear-algebra engine of a cpu-only grb. With CUDA, cuda/linear_algebra.cu builds
// both backends' engines instead, with nvcc, so that only one definition of the algorithm's
// template instances exists (nvcc's sees the cuda operations, the host compiler's would not).
#if !GRB_WITH_CUDA
#include "bfs/linear_algebra_engine.hpp"

namespace grb::bfs {

std::unique_ptr<Engine> make_linear_algebra(Backend backend) {
  if (backend != Backend::cpu)
    throw BackendUnavailable("bfs engine linalg: grb was built without CUDA");
  return std::make_unique<LinearAlgebraEngine<Backend::cpu>>();
}

}  // namespace grb::bfs
#endif
