// Backend names and the process-wide default backend.
#include <string>

#include "grb/error.hpp"
#include "grb/types.hpp"

namespace grb {

namespace {
Backend default_backend_value = Backend::cpu;
}

std::string_view to_string(Backend backend) {
  return backend == Backend::cpu ? "cpu" : "cuda";
}

Backend parse_backend(std::string_view name) {
  if (name == "cpu") return Backend::cpu;
  if (name == "cuda") return Backend::cuda;
  throw InvalidValue("unknown backend '" + std::string(name) + "' (expected cpu or cuda)");
}

std::vector<Backend> available_backends() {
  std::vector<Backend> backends{Backend::cpu};
  if (cuda_available()) backends.push_back(Backend::cuda);
  return backends;
}

Backend default_backend() { return default_backend_value; }

void set_default_backend(Backend backend) {
  if (backend == Backend::cuda && !cuda_available())
    throw BackendUnavailable("set_default_backend: the cuda backend is not available here");
  default_backend_value = backend;
}

std::string_view to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::dimension_mismatch: return "dimension mismatch";
    case ErrorCode::index_out_of_bounds: return "index out of bounds";
    case ErrorCode::invalid_value: return "invalid value";
    case ErrorCode::out_of_memory: return "out of memory";
    case ErrorCode::parse_error: return "parse error";
    case ErrorCode::io_error: return "i/o error";
    case ErrorCode::backend_mismatch: return "backend mismatch";
    case ErrorCode::backend_unavailable: return "backend unavailable";
    case ErrorCode::cuda_error: return "cuda error";
    case ErrorCode::validation_failed: return "validation failed";
    case ErrorCode::context_mismatch: return "context mismatch";
    case ErrorCode::communication_error: return "communication error";
    case ErrorCode::not_in_loop:
      return "not in a device loop";
  }
  return "unknown error";
}

}  // namespace grb
