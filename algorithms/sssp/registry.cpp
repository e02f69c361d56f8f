// The one table of SSSP engines: `grb engines` lists it, `grb sssp --engine NAME`, the tests and
// the benchmark look engines up in it. Cuda engines are listed only in a CUDA build.
#include <algorithm>
#include <cmath>
#include <string>

#include "sssp/engine.hpp"
#include "engine_table.hpp"
#include "sssp/linear_algebra_engine.hpp"
#if GRB_WITH_CUDA
#include "sssp/cuda/engines.hpp"
#endif

namespace grb::sssp {

namespace {

std::unique_ptr<Engine> make_bellman_ford_cpu() {
  return make_linear_algebra(Method::bellman_ford, Backend::cpu);
}
std::unique_ptr<Engine> make_delta_stepping_cpu() {
  return make_linear_algebra(Method::delta_stepping, Backend::cpu);
}
std::unique_ptr<Engine> make_auto_cpu() { return make_auto(Backend::cpu); }
#if GRB_WITH_CUDA
std::unique_ptr<Engine> make_bellman_ford_cuda() {
  return make_linear_algebra(Method::bellman_ford, Backend::cuda);
}
std::unique_ptr<Engine> make_delta_stepping_cuda() {
  return make_linear_algebra(Method::delta_stepping, Backend::cuda);
}
std::unique_ptr<Engine> make_auto_cuda() { return make_auto(Backend::cuda); }
#endif

constexpr std::string_view bellman_ford_description =
    "vxm over min.plus (on paths) from the improved vertices, until none improves";
constexpr std::string_view auto_description =
    "picks the engine for the graph: light-heavy for skewed degrees, else near-far-persistent "
    "(cuda); bellman-ford (cpu)";
constexpr std::string_view delta_stepping_description =
    "buckets as selects on distance; light/heavy edges as two selected matrices";

}  // namespace

const std::vector<EngineInfo>& engines() {
  static const std::vector<EngineInfo> table{
    {"bellman-ford", bellman_ford_description, Backend::cpu, make_bellman_ford_cpu},
        {"delta-stepping", delta_stepping_description, Backend::cpu, make_delta_stepping_cpu,
         default_delta},
        {"auto", auto_description, Backend::cpu, make_auto_cpu},
#if GRB_WITH_CUDA
        {"bellman-ford", bellman_ford_description, Backend::cuda, make_bellman_ford_cuda},
        {"delta-stepping", delta_stepping_description, Backend::cuda, make_delta_stepping_cuda,
         default_delta},
        {"frontier-bellman-ford",
         "worklist of improved vertices; ordered-bits atomicMin, one queue slot per vertex per "
         "round",
         Backend::cuda, kernels::make_frontier_bellman_ford},
        {"near-far", "delta-stepping worklist: near queue below the split, far pile above it",
         Backend::cuda, kernels::make_near_far, default_delta},
        {"near-far-persistent",
         "near-far in one cooperative launch: grid barriers between rounds, the split on the "
         "device",
         Backend::cuda, kernels::make_near_far_persistent, default_delta},
        {"light-heavy",
         "delta-stepping with light and heavy edges: heavy edges once per settled vertex; rounds "
         "balanced by edges; one cooperative launch",
         Backend::cuda, kernels::make_light_heavy, light_heavy_delta},
        {"auto", auto_description, Backend::cuda, make_auto_cuda},
#endif
  };
  return table;
}

const EngineInfo& find_engine(std::string_view name, Backend backend) {
  return engine_table::find(engines(), name, backend, "SSSP");
}

double default_delta(const WeightSummary& summary) {
  if (summary.mean_weight <= 0 || summary.mean_degree <= 0) return 1.0;
  return 128.0 * summary.mean_weight / summary.mean_degree;
}

double light_heavy_delta(const WeightSummary& summary) {
  if (summary.mean_weight <= 0 || summary.mean_degree <= 0) return 1.0;
  return 4.0 * summary.mean_weight / summary.mean_degree;
}

}  // namespace grb::sssp
