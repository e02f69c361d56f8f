// direction-optimized (Beamer, Asanović & Patterson, SC'12): push from a queue while the frontier
// is small; pull, over a bitmap of the frontier, once the frontier's out-edges exceed the
// unexplored edges / alpha (a pull level then reads fewer edges: each unvisited vertex stops at
// its first frontier in-neighbour); back to push once the shrinking frontier falls below
// n / beta. Pull walks in-edges, so directed graphs are handled. Push levels use the bucketed
// expansion, or the edge-parallel one when a few vertices hold many edges (the first levels of a
// power-law graph: a handful of hubs in one tile would leave one block doing all the work); a
// pull level writes the next frontier's bitmap one word per warp (ballot), with no atomics and
// no clearing.
#include "bfs/frontier/bitmap.cuh"
#include "bfs/frontier/bucketed_expand.cuh"
#include "bfs/frontier/device_engine.cuh"
#include "bfs/frontier/engines.hpp"
#include "bfs/frontier/load_balance.cuh"

namespace grb::bfs::frontier {
namespace {

constexpr int block = 256;
// Beamer et al.'s tuned constants (they report them robust across graphs).
constexpr double alpha = 14;
constexpr double beta = 24;
// Above this many frontier edges per thread of the bucketed grid, push edge-parallel instead.
constexpr Offset edges_per_thread = 16;

__global__ void __launch_bounds__(block)
    queue_to_bitmap(const Index* frontier, Index frontier_size, unsigned* bitmap) {
  const Index i = blockIdx.x * block + threadIdx.x;
  if (i < frontier_size) bitmap_set(bitmap, frontier[i]);
}

/// The vertices on level `depth`, in id order (a pull level leaves the frontier in the levels).
__global__ void __launch_bounds__(block)
    level_to_queue(Index vertices, const std::int32_t* level, std::int32_t depth, Index* queue,
                   unsigned long long* tail) {
  const Index v = blockIdx.x * block + threadIdx.x;
  warp_enqueue(v < vertices && level[v] == depth, v, queue, tail);
}

__global__ void __launch_bounds__(block)
    pull_with_bitmap(GraphView in, GraphView out, const unsigned* frontier,
                     unsigned* next_frontier, std::int32_t depth, std::int32_t* level,
                     Index* parent, Tally* counters) {
  const Index v = blockIdx.x * block + threadIdx.x;
  Tally local;
  bool found = false;
  if (v < in.vertices && level[v] == unreached) {
    for (Offset e = in.begin(v); e < in.end(v); ++e) {
      ++local.edges;
      const Index u = in.targets[e];
      if (bitmap_test(frontier, u)) {
        level[v] = depth + 1;
        parent[v] = u;
        found = true;
        local.discovered = 1;
        local.discovered_edges = out.degree(v);
        break;
      }
    }
  }
  // A warp's 32 vertices are exactly one bitmap word.
  const unsigned word = __ballot_sync(0xffffffffu, found);
  if (lane_id() == 0 && v / 32 < bitmap_words(in.vertices)) next_frontier[v / 32] = word;
  add_block_tally<block>(counters, local);
}

class DirectionOptimized final : public DeviceEngine {
 public:
  DirectionOptimized() : DeviceEngine("direction-optimized", DeviceGraph::Edges::out_and_in) {}

 private:
  void prepare_engine() override {
    bitmap_ = detail::Array<unsigned>(bitmap_words(graph_.vertices()), Backend::cuda);
    next_bitmap_ = detail::Array<unsigned>(bitmap_words(graph_.vertices()), Backend::cuda);
    edge_parallel_.allocate(graph_.vertices());
  }
  std::size_t engine_bytes() const override {
    return (bitmap_.size() + next_bitmap_.size()) * sizeof(unsigned) + edge_parallel_.bytes();
  }

  void search(Index source) override {
    const Index n = graph_.vertices();
    std::int32_t depth = 0;
    Offset frontier = 1, previous_frontier = 0;
    Offset frontier_edges = graph_.out_degree(source);
    Offset unexplored_edges = graph_.edges() - frontier_edges;
    bool pulling = false;
    while (frontier > 0) {
      if (!pulling && double(frontier_edges) > double(unexplored_edges) / alpha) {
        check_cuda(cudaMemsetAsync(bitmap_.data(), 0, bitmap_.size() * sizeof(unsigned)),
                   "cudaMemsetAsync(bitmap)");
        queue_to_bitmap<<<blocks_for(frontier, block), block>>>(
            state_.queue(), static_cast<Index>(frontier), bitmap_.data());
        check_launch("queue_to_bitmap");
        pulling = true;
      } else if (pulling && double(frontier) < double(n) / beta && frontier < previous_frontier) {
        state_.clear_counters();
        level_to_queue<<<blocks_for(n, block), block>>>(n, state_.level(), depth, state_.queue(),
                                                         &state_.counters()->frontier);
        check_launch("level_to_queue");
        pulling = false;
      }
      state_.clear_counters();
      log_.begin_level();
      if (pulling) {
        pull_with_bitmap<<<blocks_for(bitmap_.size() * 32, block), block>>>(
            graph_.in(), graph_.out(), bitmap_.data(), next_bitmap_.data(), depth,
            state_.level(), state_.parent(), state_.counters());
        check_launch("pull_with_bitmap");
      } else if (frontier_edges > edges_per_thread * blocks_for(frontier, bucketed_block) *
                                        Offset(bucketed_block)) {
        edge_parallel_.expand(graph_.out(), state_.queue(), static_cast<Index>(frontier),
                              frontier_edges, depth + 1, state_.level(), state_.parent(),
                              state_.next_queue(), state_.counters());
      } else {
        launch_expand_bucketed(graph_.out(), state_.queue(), static_cast<Index>(frontier),
                               depth + 1, state_.level(), state_.parent(), state_.next_queue(),
                               state_.counters());
      }
      const Tally counted = state_.read_counters();
      log_.end_level(frontier, pulling ? counted.edges : frontier_edges,
                     pulling ? Direction::pull : Direction::push);
      if (pulling) bitmap_.swap(next_bitmap_);
      else state_.swap_queues();
      previous_frontier = frontier;
      frontier = counted.discovered;
      frontier_edges = counted.discovered_edges;
      unexplored_edges -= frontier_edges;
      ++depth;
    }
  }

  detail::Array<unsigned> bitmap_, next_bitmap_;
  EdgeParallelPush edge_parallel_;
};

}  // namespace

std::unique_ptr<Engine> make_direction_optimized() {
  return std::make_unique<DirectionOptimized>();
}

}  // namespace grb::bfs::frontier
