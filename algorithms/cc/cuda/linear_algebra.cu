// The FastSV engine on both backends, compiled by nvcc so that the algorithm's operations
// dispatch to the cuda backend (see cc/linear_algebra_engine.hpp).
#include "cc/linear_algebra_engine.hpp"

namespace grb::cc {

std::unique_ptr<Engine> make_fastsv(Backend backend) {
  if (backend == Backend::cpu) return std::make_unique<FastSvEngine<Backend::cpu>>();
  return std::make_unique<FastSvEngine<Backend::cuda>>();
}

}  // namespace grb::cc
