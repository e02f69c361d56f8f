// The one table of connected-components engines (see cc/engine.hpp). Cuda engines are listed
// only in a CUDA build.
#include <string>

#include "cc/engine.hpp"
#include "engine_table.hpp"
#include "cc/linear_algebra_engine.hpp"
#include "grb/error.hpp"
#if GRB_WITH_CUDA
#include "cc/cuda/engines.hpp"
#endif

namespace grb::cc {
namespace {

std::unique_ptr<Engine> make_fastsv_cpu() { return make_fastsv(Backend::cpu); }
#if GRB_WITH_CUDA
std::unique_ptr<Engine> make_fastsv_cuda() { return make_fastsv(Backend::cuda); }
#endif

}  // namespace

const std::vector<EngineInfo>& engines() {
  static const std::vector<EngineInfo> table{
      {"fastsv", "FastSV hooking and shortcutting over min.second (grb operations only)",
       Backend::cpu, make_fastsv_cpu},
#if GRB_WITH_CUDA
      {"fastsv", "FastSV hooking and shortcutting over min.second (grb operations only)",
       Backend::cuda, make_fastsv_cuda},
      {"label-propagation",
       "min label over neighbours, pushed from a worklist of vertices whose label fell",
       Backend::cuda, kernels::make_label_propagation},
      {"hook-jump",
       "union-find hooking and pointer jumping; sampled neighbours, largest component skipped",
       Backend::cuda, kernels::make_hook_jump},
#endif
  };
  return table;
}

const EngineInfo& find_engine(std::string_view name, Backend backend) {
  return engine_table::find(engines(), name, backend, "connected-components");
}

}  // namespace grb::cc
