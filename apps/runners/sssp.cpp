// SSSP on the runner's backend: Bellman-Ford over min.plus. nvcc compiles this file in CUDA
// builds, so that the algorithm's operations see the cuda backend.
#include <limits>
#include <optional>

#include "../runner.hpp"
#include "sssp/bellman_ford.hpp"
#include "synchronize.hpp"

namespace grb::app {
namespace {

class SsspRunner final : public Runner {
 public:
  explicit SsspRunner(Backend backend) : backend_(backend) {}

  void prepare(const io::Graph& graph) override { weights_ = graph.matrix.to(backend_); }

  void run(Index source) override {
    result_.emplace(algorithms::sssp(weights_, source));
    wait_for(backend_);
  }

  std::vector<double> values() const override {
    return dense(result_->distance, std::numeric_limits<double>::infinity());
  }

  validate::Result validate(const io::Graph& graph, Index source) const override {
    const std::vector<double> distance = values();
    const std::vector<Index> parent = dense(result_->parent, no_index);
    return validate::sssp(graph.matrix, source, std::span<const double>(distance),
                          std::span<const Index>(parent));
  }

 private:
  Backend backend_;
  Matrix<double> weights_;
  std::optional<algorithms::SsspResult<double>> result_;

  /// A host copy with `absent` where the vector has no entry (unreached vertices).
  template <class T>
  static std::vector<T> dense(const Vector<T>& sparse, T absent) {
    std::vector<Index> indices;
    std::vector<T> entries;
    sparse.extract_tuples(indices, entries);
    std::vector<T> result(sparse.size(), absent);
    for (std::size_t e = 0; e < indices.size(); ++e) result[indices[e]] = entries[e];
    return result;
  }
};

}  // namespace

std::unique_ptr<Runner> make_sssp_runner(Backend backend) {
  return std::make_unique<SsspRunner>(backend);
}

}  // namespace grb::app
