// The name of what runs a backend's work, as benchmark records carry it: absolute times mean
// something only together with the GPU they were taken on.
#include <string>

#include "grb/error.hpp"
#include "grb/types.hpp"

#if GRB_WITH_CUDA
#include <cuda_runtime.h>
#endif

namespace grb {

std::string device_name(Backend backend) {
  if (backend == Backend::cpu) return "cpu";
#if GRB_WITH_CUDA
  if (cuda_available()) {
    int device = 0;
    cudaDeviceProp properties{};
    cudaError_t status = cudaGetDevice(&device);
    if (status == cudaSuccess) status = cudaGetDeviceProperties(&properties, device);
    if (status != cudaSuccess)
      throw CudaError(std::string("device_name: cannot read the GPU's properties: ") +
                      cudaGetErrorString(status));
    return properties.name;
  }
#endif
  throw BackendUnavailable("device_name: the cuda backend is not available here");
}

}  // namespace grb
