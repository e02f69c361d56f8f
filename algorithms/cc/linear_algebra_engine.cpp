// The FastSV engine of a cpu-only grb. With CUDA, cuda/linear_algebra.cu builds both
// backends' engines instead, with nvcc, so that only one definition of the algorithm's template
// instances exists (nvcc's sees the cuda operations, the host compiler's would not).
#if !GRB_WITH_CUDA
#include "cc/linear_algebra_engine.hpp"

namespace grb::cc {

std::unique_ptr<Engine> make_fastsv(Backend backend) {
  if (backend != Backend::cpu)
    throw BackendUnavailable("cc engine fastsv: grb was built without CUDA");
  return std::make_unique<FastSvEngine<Backend::cpu>>();
}

}  // namespace grb::cc
#endif
