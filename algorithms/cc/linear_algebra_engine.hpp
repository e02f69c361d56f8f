// The linear-algebra FastSV (fastsv.hpp) behind the engine interface, on either backend, so
// that it sits in the same table as the hand-written kernels. The template is instantiated where
// the cuda operations are visible: by nvcc in cuda/linear_algebra.cu when grb has CUDA,
// else in linear_algebra_engine.cpp (cpu only), as the BFS linear-algebra engine is.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cc/engine.hpp"
#include "cc/fastsv.hpp"

namespace grb::cc {

/// The FastSV engine for `backend` (cuda: only in a CUDA build).
std::unique_ptr<Engine> make_fastsv(Backend backend);

template <Backend backend>
class FastSvEngine final : public Engine {
 public:
  // A + A' is formed here, once, on the host (as LAGraph asks of its callers), so that the runs
  // time the hooking rounds alone; for a graph marked symmetric it is the graph itself.
  void prepare(const Matrix<bool>& graph) override {
    if (graph.nrows() != graph.ncols())
      throw DimensionMismatch("cc engine fastsv: the adjacency matrix must be square, not " +
                              std::to_string(graph.nrows()) + " x " +
                              std::to_string(graph.ncols()));
    label_.reset();
    prepared_ = false;
    if (graph.symmetric()) {
      graph_ = graph.to(backend);
    } else {
      const Matrix<bool> host = graph.to(Backend::cpu);
      Matrix<bool> undirected(host.nrows(), host.ncols(), Backend::cpu);
      ewise_add(undirected, no_mask, no_accum, lor<bool>{}, host, host,
                Descriptor{.transpose_second = true});
      graph_ = undirected.to(backend);
    }
    prepared_ = true;
  }

  void run() override {
    if (!prepared_) throw InvalidValue("cc engine fastsv: run() before prepare()");
    label_.emplace(algorithms::connected_components(graph_, true, &rounds_));
    grb::wait();  // run() is synchronous: work after the last round's read-back may still run
  }

  Result result() const override {
    if (!label_) throw InvalidValue("cc engine fastsv: result() before run()");
    Result result;
    std::vector<Index> indices, labels;
    label_->extract_tuples(indices, labels);
    result.label.assign(label_->size(), no_index);
    for (std::size_t k = 0; k < indices.size(); ++k) result.label[indices[k]] = labels[k];
    result.stats.iterations = rounds_;
    return result;
  }

  std::size_t device_bytes() const override {
    if constexpr (backend == Backend::cpu) return 0;
    else
      return graph_.csr().row_offsets.size() * sizeof(Offset) +
             graph_.csr().col_indices.size() * (sizeof(Index) + sizeof(bool));
  }

 private:
  Matrix<bool> graph_;
  std::optional<Vector<Index>> label_;
  std::uint32_t rounds_ = 0;
  bool prepared_ = false;
};

}  // namespace grb::cc
