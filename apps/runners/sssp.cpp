// SSSP through the engine interface: the engine's prepare() checks the lengths and does its own
// copies and setup (light/heavy split, device graph).
#include <span>

#include "../runner.hpp"
#include "validate/on_device.hpp"

namespace grb::app {
namespace {

class SsspRunner final : public Runner {
 public:
  SsspRunner(const sssp::EngineInfo& info, const sssp::Options& options)
      : engine_(info.make()), options_(options) {
    options_.parents = true;  // validation needs the tree
  }

  void prepare(const io::Graph& graph) override { engine_->prepare(graph.matrix); }

  void run(Index source) override {
    engine_->run(source, options_);
    result_.stale();
  }

  std::vector<double> values() const override { return result().distance; }

  validate::Result validate(const io::Graph& graph, Index source) const override {
    const sssp::Result& searched = result();
    const std::span<const double> distance(searched.distance);
    const std::span<const Index> parent(searched.parent);
#if GRB_WITH_CUDA
    if (device_graph_) return validate::sssp_on_device(*device_graph_, source, distance, parent);
#endif
    return validate::sssp(graph.matrix, source, distance, parent);
  }

 private:
  std::unique_ptr<sssp::Engine> engine_;
  sssp::Options options_;
  LastResult<sssp::Result> result_;

  const sssp::Result& result() const {
    return result_.get([&] { return engine_->result(); });
  }
};

}  // namespace

std::unique_ptr<Runner> make_sssp_runner(const sssp::EngineInfo& engine,
                                         const sssp::Options& options) {
  return std::make_unique<SsspRunner>(engine, options);
}

std::unique_ptr<Runner> make_sssp_runner(Backend backend) {
  return make_sssp_runner(sssp::find_engine("bellman-ford", backend));
}

}  // namespace grb::app
