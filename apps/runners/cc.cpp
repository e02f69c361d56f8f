// Connected components through the engine registry (cc/engine.hpp): the engine's prepare() forms
// A + A' for a directed graph (weakly connected components) and makes its own copies, so that
// the runs time the algorithm alone.
#include <memory>
#include <vector>

#include "../graph_matrix.hpp"
#include "../runner.hpp"

namespace grb::app {
namespace {

class CcRunner final : public EngineRunner<cc::Engine, cc::Result> {
 public:
  explicit CcRunner(const cc::EngineInfo& info) : EngineRunner(info.make()) {}

  void prepare(const io::Graph& graph) override { prepare_on_pattern(*engine_, graph); }

  void run(Index) override {
    engine_->run();
    ran();
  }

  std::vector<double> values() const override {
    const std::vector<Index>& label = labels();
    return std::vector<double>(label.begin(), label.end());
  }

  validate::Result validate(const io::Graph& graph, Index) const override {
    return with_matrix(graph, [&](const auto& matrix) {
      return validate::components(matrix, std::span<const Index>(labels()));
    });
  }

  Work work() const override {
    Work work;
    work.rounds = result().stats.iterations;
    return work;
  }

 protected:
  std::string_view values_noun() const override { return "labels"; }

 private:
  const std::vector<Index>& labels() const { return result().label; }
};

}  // namespace

std::unique_ptr<Runner> make_cc_runner(const cc::EngineInfo& engine) {
  return std::make_unique<CcRunner>(engine);
}

std::unique_ptr<Runner> make_cc_runner(Backend backend) {
  return make_cc_runner(cc::find_engine("fastsv", backend));
}

}  // namespace grb::app
