// The one table of triangle-counting engines (see tc/engine.hpp). Cuda engines are listed only
// in a CUDA build.
#include <string>

#include "grb/error.hpp"
#include "tc/engine.hpp"
#include "engine_table.hpp"
#include "tc/linear_algebra_engine.hpp"
#if GRB_WITH_CUDA
#include "tc/cuda/engines.hpp"
#endif

namespace grb::tc {
namespace {

std::unique_ptr<Engine> make_linear_algebra_cpu() { return make_linear_algebra(Backend::cpu); }
#if GRB_WITH_CUDA
std::unique_ptr<Engine> make_linear_algebra_cuda() { return make_linear_algebra(Backend::cuda); }
#endif

}  // namespace

const std::vector<EngineInfo>& engines() {
  static const std::vector<EngineInfo> table{
      {"linalg", "C<L> = L plus.pair L over the lower triangle, then a sum (grb operations only)",
       Backend::cpu, make_linear_algebra_cpu},
#if GRB_WITH_CUDA
      {"linalg", "C<L> = L plus.pair L over the lower triangle, then a sum (grb operations only)",
       Backend::cuda, make_linear_algebra_cuda},
      {"merge",
       "sorted-list merge per edge of the degree-ordered DAG; a warp per edge for long lists",
       Backend::cuda, kernels::make_merge},
#endif
  };
  return table;
}

const EngineInfo& find_engine(std::string_view name, Backend backend) {
  return engine_table::find(engines(), name, backend, "triangle-counting");
}

}  // namespace grb::tc
