// Basic types shared by every layer: ids, offsets, backends.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#if defined(__CUDACC__)
#define GRB_HOST_DEVICE __host__ __device__
#else
#define GRB_HOST_DEVICE
#endif

namespace grb {

/// Row, column and vertex ids are 32-bit (graphs up to 2^32-1 vertices).
using Index = std::uint32_t;
/// Offsets into the stored entries are 64-bit: graphs of more than 2^31 edges work.
using Offset = std::uint64_t;

/// "No vertex": unreached parent, missing id.
inline constexpr Index no_index = ~Index{0};

/// Where an object's storage lives and where operations on it run.
enum class Backend { cpu, cuda };

std::string_view to_string(Backend backend);
/// Parses "cpu" or "cuda"; throws grb::InvalidValue otherwise.
Backend parse_backend(std::string_view name);

/// True when grb was built with CUDA and a usable GPU is present.
bool cuda_available();
/// The backends usable on this machine, cpu first.
std::vector<Backend> available_backends();
/// What runs `backend`'s work, for benchmark records: "cpu", or the current GPU's name
/// (cudaGetDeviceProperties); throws grb::BackendUnavailable for cuda without a usable GPU.
std::string device_name(Backend backend);

/// The backend new objects get when none is named (cpu unless changed).
Backend default_backend();
void set_default_backend(Backend backend);

}  // namespace grb
