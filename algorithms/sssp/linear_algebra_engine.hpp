// The linear-algebra SSSP formulations (bellman_ford.hpp, delta_stepping.hpp) behind the engine
// interface, on either backend, so that they sit in the same table as the hand-written kernels.
// The template is instantiated where the cuda operations are visible: by nvcc in
// cuda/linear_algebra.cu when grb has CUDA, else in linear_algebra_engine.cpp (cpu only).
#pragma once

#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sssp/bellman_ford.hpp"
#include "sssp/delta_stepping.hpp"
#include "sssp/engine.hpp"

namespace grb::sssp {

enum class Method { bellman_ford, delta_stepping };

/// The linear-algebra engine of `method` for `backend` (cuda: only in a CUDA build).
std::unique_ptr<Engine> make_linear_algebra(Method method, Backend backend);

template <Method method, Backend backend>
class LinearAlgebraEngine final : public Engine {
 public:
  void prepare(const Matrix<double>& graph) override {
    summary_ = check_weights(graph, name());
    graph_ = graph.to(backend);
    split_.reset();
    if constexpr (method == Method::delta_stepping) split_for(default_delta(summary_));
    prepared_ = true;
  }

  void run(Index source, const Options& options) override {
    if (!prepared_) throw InvalidValue("sssp engine " + std::string(name()) + ": run() before prepare()");
    if constexpr (method == Method::bellman_ford) {
      search_.emplace(algorithms::sssp(graph_, source));
      delta_ = 0;
    } else {
      delta_ = options.delta > 0 ? options.delta : default_delta(summary_);
      split_for(delta_);
      search_.emplace(algorithms::delta_stepping(*split_, source));
    }
    grb::wait();  // run() is synchronous: the last operations may still be on the GPU
    parents_ = options.parents;
  }

  Result result() const override {
    Result result;
    const Index n = graph_.nrows();
    std::vector<Index> indices;
    std::vector<double> distances;
    search_->distance.extract_tuples(indices, distances);
    result.distance.assign(n, std::numeric_limits<double>::infinity());
    for (std::size_t k = 0; k < indices.size(); ++k) result.distance[indices[k]] = distances[k];
    if (parents_) {
      std::vector<Index> parents;
      search_->parent.extract_tuples(indices, parents);
      result.parent.assign(n, no_index);
      for (std::size_t k = 0; k < indices.size(); ++k) result.parent[indices[k]] = parents[k];
    }
    result.stats.iterations = search_->iterations;
    result.stats.phases = search_->phases;
    result.stats.delta = delta_;
    return result;
  }

  std::size_t device_bytes() const override {
    if constexpr (backend == Backend::cpu) return 0;
    else {
      std::size_t bytes = matrix_bytes(graph_);
      if (split_) bytes += matrix_bytes(split_->light) + matrix_bytes(split_->heavy);
      return bytes;
    }
  }

 private:
  Matrix<double> graph_;
  WeightSummary summary_;
  std::optional<algorithms::LengthSplit<double>> split_;
  std::optional<algorithms::SsspResult<double>> search_;
  double delta_ = 0;
  bool prepared_ = false;
  bool parents_ = true;

  static constexpr const char* name() {
    return method == Method::bellman_ford ? "bellman-ford" : "delta-stepping";
  }
  /// The light/heavy split is per delta: kept from prepare() (the default delta) and redone only
  /// when a run asks for another one.
  void split_for(double delta) {
    if (!split_ || split_->delta != delta) split_.emplace(algorithms::split_by_length(graph_, delta));
  }
  static std::size_t matrix_bytes(const Matrix<double>& m) {
    return m.csr().row_offsets.size() * sizeof(Offset) +
           m.csr().col_indices.size() * (sizeof(Index) + sizeof(double));
  }
};

}  // namespace grb::sssp
