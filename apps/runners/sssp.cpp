// SSSP through the engine interface: the engine's prepare() checks the lengths and does its own
// copies and setup (light/heavy split, device graph).
#include <span>

#include "../runner.hpp"
#include "validate/on_device.hpp"

namespace grb::app {
namespace {

class SsspRunner final : public EngineRunner<sssp::Engine, sssp::Result> {
 public:
  SsspRunner(const sssp::EngineInfo& info, const sssp::Options& options)
      : EngineRunner(info.make()), options_(options) {
    options_.parents = true;  // validation needs the tree
  }

  void prepare(const io::Graph& graph) override { engine_->prepare(graph.matrix); }

  void run(Index source) override {
    engine_->run(source, options_);
    ran();
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

  std::string chosen() const override { return std::string(engine_->chosen()); }

  std::string validated_on() const override { return device_validates() ? "device" : "host"; }

  Work work() const override {
    const sssp::Stats& stats = result().stats;
    Work work;
    work.rounds = stats.iterations;
    work.buckets = stats.phases;
    if (stats.relaxations > 0) work.edges_inspected = stats.relaxations;
    if (stats.delta > 0) work.delta = stats.delta;
    work.steps = stats.steps;
    return work;
  }

 protected:
  std::string_view values_noun() const override { return "distances"; }

  std::optional<Tree> tree() const override { return Tree{result().parent, true}; }

 private:
  sssp::Options options_;
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
