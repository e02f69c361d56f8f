// Triangle counting through the engine registry (tc/engine.hpp): the engine's prepare()
// symmetrizes a directed graph and orients it, so that the runs time the count alone. There is
// no validator for a count: `grb bench` checks the engines against each other (check()).
#include <memory>
#include <string>
#include <vector>

#include "../graph_matrix.hpp"
#include "../runner.hpp"

namespace grb::app {
namespace {

class TcRunner final : public EngineRunner<tc::Engine, tc::Result> {
 public:
  explicit TcRunner(const tc::EngineInfo& info) : EngineRunner(info.make()) {}

  void prepare(const io::Graph& graph) override { prepare_on_pattern(*engine_, graph); }

  void run(Index) override {
    engine_->run();
    ran();
  }

  std::vector<double> values() const override {
    return {static_cast<double>(result().triangles)};
  }

  /// Never valid: nothing validates a count on its own, and a caller that asks must not take
  /// silence for a verdict.
  validate::Result validate(const io::Graph&, Index) const override {
    return {false, "triangle counts have no validator; only engines' agreement checks them"};
  }

  /// The first count is the reference, and every later one must agree with it.
  std::string check(const io::Graph& graph, Index, Reference& reference) const override {
    const std::uint64_t triangles = result().triangles;
    if (!reference.known()) {
      reference.values = {static_cast<double>(triangles)};
      // Every input edge takes part in the count.
      reference.input_edges = static_cast<double>(stored_entries(graph)) / (graph.directed ? 1 : 2);
      return {};
    }
    if (static_cast<double>(triangles) == reference.values.front()) return {};
    return "counts " + std::to_string(triangles) + " triangles, the first engine " +
           std::to_string(static_cast<std::uint64_t>(reference.values.front()));
  }

  std::string validated_on() const override { return "agreement"; }

  Work work() const override {
    Work work;
    work.triangles = result().triangles;
    work.edges_inspected = result().edges_intersected;
    return work;
  }
};

}  // namespace

std::unique_ptr<Runner> make_tc_runner(const tc::EngineInfo& engine) {
  return std::make_unique<TcRunner>(engine);
}

}  // namespace grb::app
