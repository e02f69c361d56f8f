// The one table of BFS engines: `grb engines` lists it, `grb bfs --engine NAME`, the tests and
// the benchmark look engines up in it. Cuda engines are listed only in a CUDA build.
#include <string>

#include "bfs/engine.hpp"
#include "engine_table.hpp"
#include "bfs/linear_algebra_engine.hpp"
#if GRB_WITH_CUDA
#include "bfs/cuda/engines.hpp"
#endif

namespace grb::bfs {

std::string_view to_string(Direction direction) {
  return direction == Direction::push ? "push" : "pull";
}

namespace {

std::unique_ptr<Engine> make_linear_algebra_cpu() { return make_linear_algebra(Backend::cpu); }
#if GRB_WITH_CUDA
std::unique_ptr<Engine> make_linear_algebra_cuda() { return make_linear_algebra(Backend::cuda); }
#endif

}  // namespace

const std::vector<EngineInfo>& engines() {
  static const std::vector<EngineInfo> table{
      {"linalg", "masked vxm per level over any.secondi (grb operations only)", Backend::cpu,
       make_linear_algebra_cpu},
#if GRB_WITH_CUDA
      {"linalg", "masked vxm per level over any.secondi (grb operations only)", Backend::cuda,
       make_linear_algebra_cuda},
      {"vertex-push", "thread per vertex over out-edges; idempotent writes, no atomics",
       Backend::cuda, kernels::make_vertex_push},
      {"vertex-pull", "thread per unvisited vertex over in-edges; stops at the first parent",
       Backend::cuda, kernels::make_vertex_pull},
      {"edge-centric", "thread per edge (COO); every level reads every edge", Backend::cuda,
       kernels::make_edge_centric},
      {"frontier-queue", "thread per frontier vertex; atomicCAS level, atomicAdd queue tail",
       Backend::cuda, kernels::make_frontier_queue},
      {"frontier-privatized",
       "frontier queue with a block-local shared-memory next frontier and overflow",
       Backend::cuda, kernels::make_frontier_privatized},
      {"warp-cooperative", "warp per frontier vertex; ballot/popc compaction, one atomic per warp",
       Backend::cuda, kernels::make_warp_cooperative},
      {"bucketed", "lists split by degree: thread / warp / block per vertex (Merrill-Garland)",
       Backend::cuda, kernels::make_bucketed},
      {"load-balanced", "thread per frontier edge: scan of degrees + binary search of owners",
       Backend::cuda, kernels::make_load_balanced},
      {"single-block", "many small levels per launch in one block; grid levels when it overflows",
       Backend::cuda, kernels::make_single_block},
      {"direction-optimized", "push from a queue, pull over a bitmap when the frontier is large",
       Backend::cuda, kernels::make_direction_optimized},
      {"persistent", "one cooperative launch for the whole search; a grid barrier per level",
       Backend::cuda, kernels::make_persistent},
      {"cub-select", "plain-store expansion; next frontier compacted by cub::DeviceSelect",
       Backend::cuda, kernels::make_cub_select},
      {"auto", "picks persistent, direction-optimized or bucketed from the graph's shape",
       Backend::cuda, kernels::make_auto},
#endif
  };
  return table;
}

const EngineInfo& find_engine(std::string_view name, Backend backend) {
  return engine_table::find(engines(), name, backend, "BFS");
}

}  // namespace grb::bfs
