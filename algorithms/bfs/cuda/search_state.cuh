// What every device engine keeps per search: levels, parents, two frontier queues and the
// level's counters, all allocated once in prepare() so that run() allocates nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "bfs/engine.hpp"
#include "bfs/cuda/device_graph.cuh"
#include "bfs/cuda/tally.cuh"
#include "bfs/cuda/visit.cuh"
#include "grb/array.hpp"

namespace grb::bfs::kernels {

/// level = unreached and parent = no_index everywhere but the source; the queue holds the source.
__global__ void start_search(Index vertices, Index source, std::int32_t* level, Index* parent,
                             Index* queue);

class SearchState {
 public:
  void allocate(Index vertices) {
    vertices_ = vertices;
    level_ = detail::Array<std::int32_t>(vertices, Backend::cuda);
    parent_ = detail::Array<Index>(vertices, Backend::cuda);
    queue_ = detail::Array<Index>(vertices, Backend::cuda);
    next_queue_ = detail::Array<Index>(vertices, Backend::cuda);
    counters_ = detail::Array<Tally>(1, Backend::cuda);
  }

  void start(Index source) {
    start_search<<<blocks_for(vertices_, 256), 256, 0, current_stream()>>>(
        vertices_, source, level_.data(), parent_.data(), queue_.data());
    GRB_CUDA_CHECK_LAUNCH();
  }

  std::int32_t* level() { return level_.data(); }
  Index* parent() { return parent_.data(); }
  Index* queue() { return queue_.data(); }
  Index* next_queue() { return next_queue_.data(); }
  void swap_queues() { queue_.swap(next_queue_); }
  Tally* counters() { return counters_.data(); }

  void clear_counters() {
    GRB_CUDA_CHECK(cudaMemsetAsync(counters_.data(), 0, sizeof(Tally), current_stream()));
  }
  /// The one host round trip of a level: waits for the level's kernels, reads its counters.
  Tally read_counters() {
    GRB_CUDA_CHECK(cudaMemcpyAsync(host_counters_.get(), counters_.data(), sizeof(Tally),
                                   cudaMemcpyDeviceToHost, current_stream()));
    GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
    return *host_counters_;
  }

  std::vector<std::int32_t> levels() const { return level_.to_vector(); }
  std::vector<Index> parents() const { return parent_.to_vector(); }

  std::size_t bytes() const {
    return level_.size() * sizeof(std::int32_t) +
           (parent_.size() + queue_.size() + next_queue_.size()) * sizeof(Index) + sizeof(Tally);
  }

 private:
  Index vertices_ = 0;
  detail::Array<std::int32_t> level_;
  detail::Array<Index> parent_, queue_, next_queue_;
  detail::Array<Tally> counters_;
  PinnedValue<Tally> host_counters_;
};

/// Per-level statistics as the host loop sees them, with optional event timing per level.
class LevelLog {
 public:
  void start(const Options& options) {
    timing_ = options.level_timing;
    levels_.clear();
  }
  void begin_level() {
    if (timing_) begin_.record();
  }
  /// After the level's counters were read (so its work is done).
  void end_level(Offset frontier, Offset edges, Direction direction) {
    double milliseconds = 0;
    if (timing_) {
      end_.record();
      end_.synchronize();
      milliseconds = end_.since(begin_);
    }
    levels_.push_back({static_cast<Index>(frontier), edges, direction, milliseconds});
  }
  /// Several levels done in one launch: its time is shared evenly among them.
  void end_levels(const std::vector<LevelStats>& levels) {
    double milliseconds = 0;
    if (timing_) {
      end_.record();
      end_.synchronize();
      milliseconds = end_.since(begin_) / static_cast<double>(levels.size());
    }
    for (LevelStats stats : levels) {
      stats.milliseconds = milliseconds;
      levels_.push_back(stats);
    }
  }
  const std::vector<LevelStats>& levels() const { return levels_; }

 private:
  bool timing_ = false;
  std::vector<LevelStats> levels_;
  Event begin_, end_;
};

}  // namespace grb::bfs::kernels
