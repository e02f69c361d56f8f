// Status checks for the CUDA runtime and cuSPARSE: every call's status is checked, and a
// failure becomes a grb::CudaError naming the call, the file and line, and the library's message.
#pragma once

#include <cuda_runtime.h>
#include <cusparse.h>

#include <string>

#include "grb/error.hpp"

namespace grb::cuda::detail {

[[noreturn]] inline void throw_cuda_error(cudaError_t status, const char* call, const char* file,
                                          int line) {
  throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                  cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

[[noreturn]] inline void throw_cusparse_error(cusparseStatus_t status, const char* call,
                                              const char* file, int line) {
  throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                  cusparseGetErrorName(status) + " (" + cusparseGetErrorString(status) + ")");
}

}  // namespace grb::cuda::detail

#define GRB_CUDA_CHECK(call)                                                        \
  do {                                                                              \
    const cudaError_t grb_status_ = (call);                                         \
    if (grb_status_ != cudaSuccess)                                                 \
      ::grb::cuda::detail::throw_cuda_error(grb_status_, #call, __FILE__, __LINE__); \
  } while (0)

#define GRB_CUSPARSE_CHECK(call)                                                        \
  do {                                                                                  \
    const cusparseStatus_t grb_status_ = (call);                                        \
    if (grb_status_ != CUSPARSE_STATUS_SUCCESS)                                         \
      ::grb::cuda::detail::throw_cusparse_error(grb_status_, #call, __FILE__, __LINE__); \
  } while (0)

/// After a kernel launch: a bad configuration shows up here, not at some later call.
#define GRB_CUDA_CHECK_LAUNCH() GRB_CUDA_CHECK(cudaPeekAtLastError())
