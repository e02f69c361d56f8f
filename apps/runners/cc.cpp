// Connected components through the engine registry (cc/engine.hpp): the engine's prepare() forms
// A + A' for a directed graph (weakly connected components) and makes its own copies, so that
// the runs time the algorithm alone.
#include <memory>

#include "../runner.hpp"

namespace grb::app {
namespace {

class CcRunner final : public Runner {
 public:
  explicit CcRunner(const cc::EngineInfo& info) : engine_(info.make()) {}

  void prepare(const io::Graph& graph) override { engine_->prepare(pattern(graph.matrix)); }

  void run(Index) override {
    engine_->run();
    label_.reset();
  }

  std::vector<double> values() const override {
    const std::vector<Index>& label = labels();
    return std::vector<double>(label.begin(), label.end());
  }

  validate::Result validate(const io::Graph& graph, Index) const override {
    return validate::components(graph.matrix, std::span<const Index>(labels()));
  }

 private:
  std::unique_ptr<cc::Engine> engine_;
  // The engine's labels, fetched from it once per run.
  mutable std::unique_ptr<std::vector<Index>> label_;

  const std::vector<Index>& labels() const {
    if (!label_) label_ = std::make_unique<std::vector<Index>>(engine_->result().label);
    return *label_;
  }
};

}  // namespace

std::unique_ptr<Runner> make_cc_runner(const cc::EngineInfo& engine) {
  return std::make_unique<CcRunner>(engine);
}

std::unique_ptr<Runner> make_cc_runner(Backend backend) {
  return make_cc_runner(cc::find_engine("fastsv", backend));
}

}  // namespace grb::app
