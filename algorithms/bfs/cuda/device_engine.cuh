// The common shell of the hand-written GPU engines: prepare() uploads the graph and allocates
// every per-search buffer; run() starts the search and calls the engine's own level loop;
// result() copies levels and parents back. An engine supplies search() and, if it needs more,
// prepare_engine() for its own buffers.
#pragma once

#include <string>
#include <string_view>

#include "bfs/engine.hpp"
#include "bfs/cuda/device_graph.cuh"
#include "bfs/cuda/search_state.cuh"

namespace grb::bfs::kernels {

class DeviceEngine : public Engine {
 public:
  explicit DeviceEngine(std::string_view name, DeviceGraph::Edges edges = DeviceGraph::Edges::out)
      : name_(name), edges_(edges) {}

  void prepare(const Matrix<bool>& graph) final {
    graph_.upload(graph, edges_, name_);
    state_.allocate(graph_.vertices());
    prepare_engine();
    GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
    prepared_ = true;
  }

  void run(Index source, const Options& options) final {
    if (!prepared_) throw InvalidValue("bfs engine " + name_ + ": run() before prepare()");
    if (source >= graph_.vertices())
      throw IndexOutOfBounds("bfs engine " + name_ + ": source " + std::to_string(source) +
                             " is not a vertex (n = " + std::to_string(graph_.vertices()) + ")");
    parents_ = options.parents;
    log_.start(options);
    state_.start(source);
    search(source);
    GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
  }

  Result result() const final {
    Result result;
    result.level = state_.levels();
    if (parents_) result.parent = state_.parents();
    result.levels = log_.levels();
    return result;
  }

  std::size_t device_bytes() const override {
    return graph_.bytes() + state_.bytes() + engine_bytes();
  }

 protected:
  /// The engine's level loop; state_ holds the started search (the source in the queue).
  virtual void search(Index source) = 0;
  virtual void prepare_engine() {}
  virtual std::size_t engine_bytes() const { return 0; }

  /// Push levels from the queue until the frontier is empty. `expand(depth, frontier)` launches
  /// one level's kernels reading state_.queue() and appending to state_.next_queue() with
  /// counters()->discovered as its tail and discovered_edges summed. Edges inspected per level
  /// are the frontier's out-degree sum, known from the level before.
  template <class Expand>
  void push_levels(std::int32_t depth, Offset frontier, Offset frontier_edges, Expand expand) {
    while (frontier > 0) {
      state_.clear_counters();
      log_.begin_level();
      expand(depth, static_cast<Index>(frontier), frontier_edges);
      const Tally counted = state_.read_counters();
      log_.end_level(frontier, frontier_edges, Direction::push);
      state_.swap_queues();
      frontier = counted.discovered;
      frontier_edges = counted.discovered_edges;
      ++depth;
    }
  }

  /// Levels that sweep every vertex or edge: `launch(depth)` runs one level, counting its
  /// frontier, the edges it read and the vertices it discovered (a flag: racing writers may each
  /// count the same vertex). Stops after a level that discovers nothing.
  template <class Launch>
  void sweep_levels(Direction direction, Launch launch) {
    for (std::int32_t depth = 0;; ++depth) {
      state_.clear_counters();
      log_.begin_level();
      launch(depth);
      const Tally counted = state_.read_counters();
      log_.end_level(counted.frontier, counted.edges, direction);
      if (counted.discovered == 0) return;
    }
  }

  std::string name_;
  DeviceGraph graph_;
  SearchState state_;
  LevelLog log_;

 private:
  DeviceGraph::Edges edges_;
  bool prepared_ = false;
  bool parents_ = true;
};

}  // namespace grb::bfs::kernels
