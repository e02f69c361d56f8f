// Connected components on the runner's backend: FastSV. nvcc compiles this file in CUDA builds,
// so that the algorithm's operations see the cuda backend.
#include <optional>

#include "../runner.hpp"
#include "cc/fastsv.hpp"
#include "synchronize.hpp"

namespace grb::app {
namespace {

class CcRunner final : public Runner {
 public:
  explicit CcRunner(Backend backend) : backend_(backend) {}

  // FastSV needs an undirected graph: a directed one becomes A + A' here, once, as LAGraph
  // asks of its callers, so that the runs time the algorithm alone.
  void prepare(const io::Graph& graph) override {
    Matrix<bool> adjacency = pattern(graph.matrix);
    if (graph.directed) {
      const Index n = adjacency.nrows();
      Matrix<bool> undirected(n, n, Backend::cpu);
      ewise_add(undirected, no_mask, no_accum, lor<bool>{}, adjacency, adjacency,
                Descriptor{.transpose_second = true});
      adjacency = std::move(undirected);
    }
    adjacency_ = adjacency.to(backend_);
  }

  void run(Index) override {
    label_.emplace(algorithms::connected_components(adjacency_, true));
    wait_for(backend_);
  }

  std::vector<double> values() const override {
    const std::vector<Index> label = labels();
    return std::vector<double>(label.begin(), label.end());
  }

  validate::Result validate(const io::Graph& graph, Index) const override {
    const std::vector<Index> label = labels();
    return validate::components(graph.matrix, std::span<const Index>(label));
  }

 private:
  Backend backend_;
  Matrix<bool> adjacency_;
  std::optional<Vector<Index>> label_;

  std::vector<Index> labels() const {
    std::vector<Index> indices, values;
    label_->extract_tuples(indices, values);
    std::vector<Index> label(label_->size(), no_index);
    for (std::size_t e = 0; e < indices.size(); ++e) label[indices[e]] = values[e];
    return label;
  }
};

}  // namespace

std::unique_ptr<Runner> make_cc_runner(Backend backend) {
  return std::make_unique<CcRunner>(backend);
}

}  // namespace grb::app
