// load-balanced (seed 004): edge-parallel expansion. Per level, the frontier's degrees are
// exclusive-scanned (CUB), then one thread per frontier edge finds the vertex owning its edge
// by binary search in the scan. Perfect balance whatever the degrees, paid for with a scan and
// a log-time search per edge; discoveries are appended one atomic per warp (ballot + popc).
#include <algorithm>

#include <cub/device/device_scan.cuh>

#include "bfs/frontier/device_engine.cuh"
#include "bfs/frontier/engines.hpp"
#include "bfs/frontier/load_balance.cuh"

namespace grb::bfs::frontier {
namespace {

constexpr int block = 256;
constexpr unsigned max_blocks = 1u << 20;

__global__ void __launch_bounds__(block)
    frontier_degrees(GraphView out, const Index* frontier, Index frontier_size, Offset* degrees) {
  const Index i = blockIdx.x * block + threadIdx.x;
  if (i < frontier_size) degrees[i] = out.degree(frontier[i]);
}

__global__ void __launch_bounds__(block)
    expand_edge_per_thread(GraphView out, const Index* frontier, Index frontier_size,
                           const Offset* starts, Offset frontier_edges, std::int32_t next_level,
                           std::int32_t* level, Index* parent, Index* next_frontier,
                           Tally* counters) {
  Tally local;
  // A block-uniform loop, so that every lane reaches warp_enqueue each round.
  for (Offset tile = Offset(blockIdx.x) * block; tile < frontier_edges;
       tile += Offset(gridDim.x) * block) {
    const Offset item = tile + threadIdx.x;
    Index v = 0;
    bool found = false;
    if (item < frontier_edges) {
      const Index segment = owning_segment(starts, frontier_size, item);
      const Index u = frontier[segment];
      v = out.targets[out.begin(u) + (item - starts[segment])];
      found = claim(level, v, next_level);
      if (found) {
        parent[v] = u;
        local.discovered_edges += out.degree(v);
      }
    }
    warp_enqueue(found, v, next_frontier, &counters->discovered);
  }
  add_block_tally<block>(counters, local);
}

class LoadBalanced final : public DeviceEngine {
 public:
  LoadBalanced() : DeviceEngine("load-balanced") {}

 private:
  void prepare_engine() override {
    const Index n = graph_.vertices();
    degrees_ = detail::Array<Offset>(n, Backend::cuda);
    starts_ = detail::Array<Offset>(n, Backend::cuda);
    std::size_t bytes = 0;
    check_cuda(cub::DeviceScan::ExclusiveSum(nullptr, bytes, degrees_.data(), starts_.data(), n),
               "cub::DeviceScan::ExclusiveSum (size)");
    scan_storage_ = detail::Array<unsigned char>(std::max<std::size_t>(bytes, 1), Backend::cuda);
  }
  std::size_t engine_bytes() const override {
    return (degrees_.size() + starts_.size()) * sizeof(Offset) + scan_storage_.size();
  }

  void search(Index source) override {
    push_levels(0, 1, graph_.out_degree(source),
                [&](std::int32_t depth, Index frontier, Offset frontier_edges) {
      if (frontier_edges == 0) return;  // nothing to expand: the counters stay zero
      frontier_degrees<<<blocks_for(frontier, block), block>>>(graph_.out(), state_.queue(),
                                                               frontier, degrees_.data());
      check_launch("frontier_degrees");
      std::size_t bytes = scan_storage_.size();
      check_cuda(cub::DeviceScan::ExclusiveSum(scan_storage_.data(), bytes, degrees_.data(),
                                               starts_.data(), frontier),
                 "cub::DeviceScan::ExclusiveSum");
      const unsigned blocks = std::min(blocks_for(frontier_edges, block), max_blocks);
      expand_edge_per_thread<<<blocks, block>>>(graph_.out(), state_.queue(), frontier,
                                                starts_.data(), frontier_edges, depth + 1,
                                                state_.level(), state_.parent(),
                                                state_.next_queue(), state_.counters());
      check_launch("expand_edge_per_thread");
    });
  }

  detail::Array<Offset> degrees_, starts_;
  detail::Array<unsigned char> scan_storage_;
};

}  // namespace

std::unique_ptr<Engine> make_load_balanced() { return std::make_unique<LoadBalanced>(); }

}  // namespace grb::bfs::frontier
