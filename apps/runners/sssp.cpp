// SSSP through the engine interface: the engine's prepare() checks the lengths and does its own
// copies and setup (light/heavy split, device graph).
#include <span>

#include "../runner.hpp"

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
    result_.reset();
  }

  std::vector<double> values() const override { return result().distance; }

  validate::Result validate(const io::Graph& graph, Index source) const override {
    const sssp::Result& searched = result();
    return validate::sssp(graph.matrix, source, std::span<const double>(searched.distance),
                          std::span<const Index>(searched.parent));
  }

 private:
  std::unique_ptr<sssp::Engine> engine_;
  sssp::Options options_;
  // The engine's result, fetched from it once per run.
  mutable std::unique_ptr<sssp::Result> result_;

  const sssp::Result& result() const {
    if (!result_) result_ = std::make_unique<sssp::Result>(engine_->result());
    return *result_;
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
