// cub-select (seed 001's last step): each level's expansion writes levels and parents with plain
// stores (as vertex-push, no atomics and no queue bookkeeping), then the next frontier is
// compacted from the level array by cub::DeviceSelect::If over all vertex ids. The compaction
// costs O(n) per level, so it pays on few-level graphs with large frontiers and loses on meshes.
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cub/device/device_select.cuh>

#include "bfs/cuda/device_engine.cuh"
#include "bfs/cuda/engines.hpp"

namespace grb::bfs::kernels {
namespace {

constexpr int block = 256;

__global__ void __launch_bounds__(block)
    expand_without_atomics(GraphView out, const Index* frontier, Index frontier_size,
                           std::int32_t next_level, std::int32_t* level, Index* parent,
                           Tally* counters) {
  const Index i = blockIdx.x * block + threadIdx.x;
  Tally local;
  if (i < frontier_size) {
    const Index u = frontier[i];
    local.edges = out.degree(u);
    for (Offset e = out.begin(u); e < out.end(u); ++e) {
      const Index v = out.col_indices[e];
      if (level[v] == unreached) {
        level[v] = next_level;
        parent[v] = u;
      }
    }
  }
  add_block_tally<block>(counters, local);
}

struct OnLevel {
  const std::int32_t* level;
  std::int32_t depth;
  __device__ bool operator()(Index v) const { return level[v] == depth; }
};

class CubSelect final : public DeviceEngine {
 public:
  CubSelect() : DeviceEngine("cub-select") {}

 private:
  void prepare_engine() override {
    std::size_t bytes = 0;
    GRB_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, thrust::counting_iterator<Index>(0),
                                         state_.next_queue(), &state_.counters()->discovered,
                                         graph_.vertices(), OnLevel{state_.level(), 0},
                                         current_stream()));
    select_storage_ = detail::Array<unsigned char>(std::max<std::size_t>(bytes, 1), Backend::cuda);
  }
  std::size_t engine_bytes() const override { return select_storage_.size(); }

  void search(Index) override {
    Offset frontier = 1;
    for (std::int32_t depth = 0; frontier > 0; ++depth) {
      state_.clear_counters();
      log_.begin_level();
      expand_without_atomics<<<blocks_for(frontier, block), block, 0, current_stream()>>>(
          graph_.out(), state_.queue(), static_cast<Index>(frontier), depth + 1, state_.level(),
          state_.parent(), state_.counters());
      GRB_CUDA_CHECK_LAUNCH();
      std::size_t bytes = select_storage_.size();
      GRB_CUDA_CHECK(cub::DeviceSelect::If(select_storage_.data(), bytes,
                                           thrust::counting_iterator<Index>(0), state_.next_queue(),
                                           &state_.counters()->discovered, graph_.vertices(),
                                           OnLevel{state_.level(), depth + 1}, current_stream()));
      const Tally counted = state_.read_counters();
      log_.end_level(frontier, counted.edges, Direction::push);
      state_.swap_queues();
      frontier = counted.discovered;
    }
  }

  detail::Array<unsigned char> select_storage_;
};

}  // namespace

std::unique_ptr<Engine> make_cub_select() { return std::make_unique<CubSelect>(); }

}  // namespace grb::bfs::kernels
