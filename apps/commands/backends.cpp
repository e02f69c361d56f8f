#include "commands.hpp"

#include "grb/error.hpp"

namespace grb::app {

std::vector<Backend> select_backends(const std::string& name) {
  if (name == "all") return available_backends();
  const Backend backend = parse_backend(name);
  if (backend == Backend::cuda && !cuda_available())
    throw BackendUnavailable(GRB_WITH_CUDA
                                 ? "--backend cuda: no usable GPU was found on this machine"
                                 : "--backend cuda: this grb was built without CUDA");
  return {backend};
}

}  // namespace grb::app
