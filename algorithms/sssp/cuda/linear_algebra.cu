// The linear-algebra engines on both backends, compiled by nvcc so that the algorithms'
// operations dispatch to the cuda backend (see sssp/linear_algebra_engine.hpp), and the graph
// checks every engine's prepare() runs (sssp/graph_checks.hpp).
#include "sssp/graph_checks.hpp"
#include "sssp/linear_algebra_engine.hpp"

namespace grb::sssp {

std::unique_ptr<Engine> make_linear_algebra(Method method, Backend backend) {
  if (method == Method::bellman_ford) {
    if (backend == Backend::cpu)
      return std::make_unique<LinearAlgebraEngine<Method::bellman_ford, Backend::cpu>>();
    return std::make_unique<LinearAlgebraEngine<Method::bellman_ford, Backend::cuda>>();
  }
  if (backend == Backend::cpu)
    return std::make_unique<LinearAlgebraEngine<Method::delta_stepping, Backend::cpu>>();
  return std::make_unique<LinearAlgebraEngine<Method::delta_stepping, Backend::cuda>>();
}

}  // namespace grb::sssp
