// edge-centric (PMPP fig. 15.10): a thread per edge of the COO form; an edge whose source is on
// the current level and whose target is unvisited writes the target's level and parent. All
// threads do the same work, so there is no load imbalance however skewed the degrees, but every
// level reads all m edges: good for few-level power-law graphs, hopeless for meshes.
#include <algorithm>

#include "bfs/cuda/device_engine.cuh"
#include "bfs/cuda/engines.hpp"

namespace grb::bfs::kernels {
namespace {

constexpr int block = 256;
// A grid-stride loop over this many blocks keeps every SM busy without a grid per edge.
constexpr unsigned max_blocks = 1u << 16;

/// The COO row ids: sources[e] is the vertex whose adjacency list holds edge e.
__global__ void __launch_bounds__(block) expand_row_ids(GraphView out, Index* sources) {
  const Index u = blockIdx.x * block + threadIdx.x;
  if (u >= out.nrows) return;
  for (Offset e = out.begin(u); e < out.end(u); ++e) sources[e] = u;
}

__global__ void __launch_bounds__(block)
    push_along_every_edge(const Index* sources, GraphView out, std::int32_t depth,
                          std::int32_t* level, Index* parent, Tally* counters) {
  const Offset first = Offset(blockIdx.x) * block + threadIdx.x;
  const Offset stride = Offset(gridDim.x) * block;
  Tally local;
  for (Offset u = first; u < out.nrows; u += stride)
    if (level[u] == depth) ++local.frontier;
  for (Offset e = first; e < out.nvals; e += stride) {
    ++local.edges;
    const Index u = sources[e];
    const Index v = out.col_indices[e];
    if (level[u] == depth && level[v] == unreached) {
      level[v] = depth + 1;
      parent[v] = u;
      local.discovered = 1;
    }
  }
  add_block_tally<block>(counters, local);
}

class EdgeCentric final : public DeviceEngine {
 public:
  EdgeCentric() : DeviceEngine("edge-centric") {}

 private:
  void prepare_engine() override {
    sources_ = detail::Array<Index>(graph_.edges(), Backend::cuda);
    if (graph_.vertices() > 0) {
      expand_row_ids<<<blocks_for(graph_.vertices(), block), block, 0, current_stream()>>>(
          graph_.out(), sources_.data());
      GRB_CUDA_CHECK_LAUNCH();
    }
  }
  std::size_t engine_bytes() const override { return sources_.size() * sizeof(Index); }

  void search(Index) override {
    const unsigned blocks =
        std::min(blocks_for(std::max<Offset>(graph_.edges(), graph_.vertices()), block), max_blocks);
    sweep_levels(Direction::push, [&](std::int32_t depth) {
      push_along_every_edge<<<blocks, block, 0, current_stream()>>>(
          sources_.data(), graph_.out(), depth, state_.level(), state_.parent(), state_.counters());
      GRB_CUDA_CHECK_LAUNCH();
    });
  }

  detail::Array<Index> sources_;
};

}  // namespace

std::unique_ptr<Engine> make_edge_centric() { return std::make_unique<EdgeCentric>(); }

}  // namespace grb::bfs::kernels
