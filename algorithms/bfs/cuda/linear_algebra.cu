// The linear-algebra engine on both backends, compiled by nvcc so that the algorithm's
// operations dispatch to the cuda backend (see bfs/linear_algebra_engine.hpp).
#include "bfs/linear_algebra_engine.hpp"

namespace grb::bfs {

std::unique_ptr<Engine> make_linear_algebra(Backend backend) {
  if (backend == Backend::cpu) return std::make_unique<LinearAlgebraEngine<Backend::cpu>>();
  return std::make_unique<LinearAlgebraEngine<Backend::cuda>>();
}

}  // namespace grb::bfs
