// The linear-algebra engines of a cpu-only grb. With CUDA, cuda/linear_algebra.cu builds
// both backends' engines instead, with nvcc, so that only one definition of the algorithms'
// template instances exists (nvcc's sees the cuda operations, the host compiler's would not).
#if !GRB_WITH_CUDA
#include "sssp/linear_algebra_engine.hpp"

#include "sssp/graph_checks.hpp"

namespace grb::sssp {

std::unique_ptr<Engine> make_linear_algebra(Method method, Backend backend) {
  if (backend != Backend::cpu)
    throw BackendUnavailable("sssp linear-algebra engines: grb was built without CUDA");
  if (method == Method::bellman_ford)
    return std::make_unique<LinearAlgebraEngine<Method::bellman_ford, Backend::cpu>>();
  return std::make_unique<LinearAlgebraEngine<Method::delta_stepping, Backend::cpu>>();
}

}  // namespace grb::sssp
#endif
