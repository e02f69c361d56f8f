// The linear-algebra BFS (linear_algebra.hpp: one masked vxm per level) behind the engine
// interface, on either backend, so that it sits in the same table as the hand-written kernels.
// The template is instantiated where the cuda operations are visible: by nvcc in
// cuda/linear_algebra.cu when grb has CUDA, else in linear_algebra_engine.cpp (cpu only).
#pragma once

#include <cstdint>
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "bfs/engine.hpp"
#include "bfs/linear_algebra.hpp"

namespace grb::bfs {

/// The linear-algebra engine for `backend` (cuda: only in a CUDA build).
std::unique_ptr<Engine> make_linear_algebra(Backend backend);

template <Backend backend>
class LinearAlgebraEngine final : public Engine {
 public:
  void prepare(const Matrix<bool>& graph) override {
    if (graph.nrows() != graph.ncols())
      throw DimensionMismatch("bfs engine linalg: the adjacency matrix must be square, not " +
                              std::to_string(graph.nrows()) + " x " +
                              std::to_string(graph.ncols()));
    graph_ = graph.to(backend);
    graph_.csc();  // pull levels need the transpose: build it now, outside the timed search
    prepared_ = true;
  }

  void run(Index source, const Options& options) override {
    if (!prepared_) throw InvalidValue("bfs engine linalg: run() before prepare()");
    // The last search's vectors are reused: their storage is allocated once per graph.
    algorithms::bfs(search_, graph_, source, options.parents);
    grb::wait();  // run() is synchronous: the last level's assigns may still be on the GPU
    parents_ = options.parents;
  }

  /// Levels and parents as dense arrays (filled on the device where the vectors live: one copy
  /// each, as the hand-written engines' results). The algorithm reports no per-level work, so the
  /// per-level stats hold the frontier sizes alone (counted from the levels).
  Result result() const override {
    Result result;
    search_.level.extract_dense(result.level, -1);
    std::int32_t deepest = -1;
    for (std::int32_t level : result.level) deepest = std::max(deepest, level);
    result.levels.resize(std::size_t(deepest + 1));
    for (std::int32_t level : result.level)
      if (level >= 0) ++result.levels[std::size_t(level)].frontier;
    if (parents_) search_.parent.extract_dense(result.parent, no_index);
    return result;
  }

  /// The backend picks each product's direction: the algorithm sees neither it nor the edges.
  bool counts_levels() const override { return false; }

  std::size_t device_bytes() const override {
    if constexpr (backend == Backend::cpu) return 0;
    else
      return 2 * (graph_.csr().row_offsets.size() * sizeof(Offset) +
                  graph_.csr().col_indices.size() * (sizeof(Index) + sizeof(bool))) +
             // the pull's 32-bit copy of its row offsets (Matrix::narrow_offsets)
             (graph_.nvals() < (Offset{1} << 32)
                  ? graph_.csr().row_offsets.size() * sizeof(std::uint32_t)
                  : 0);
  }

 private:
  Matrix<bool> graph_;
  algorithms::BfsResult search_;
  bool prepared_ = false;
  bool parents_ = true;
};

}  // namespace grb::bfs
