// BFS through the engine interface: the engine's prepare() does its own copies and setup.
#include <algorithm>
#include <limits>

#include "../graph_matrix.hpp"
#include "../runner.hpp"
#include "validate/on_device.hpp"

namespace grb::app {
namespace {

class BfsRunner final : public EngineRunner<bfs::Engine, bfs::Result> {
 public:
  explicit BfsRunner(const bfs::EngineInfo& info) : EngineRunner(info.make()) {}

  void prepare(const io::Graph& graph) override { prepare_on_pattern(*engine_, graph); }

  void run(Index source) override {
    engine_->run(source, bfs::Options{.parents = true, .level_timing = level_timing_});
    ran();
  }

  std::vector<double> values() const override {
    const bfs::Result& searched = result();
    std::vector<double> values(searched.level.size());
    for (std::size_t v = 0; v < values.size(); ++v)
      values[v] = searched.level[v] < 0 ? std::numeric_limits<double>::infinity()
                                        : static_cast<double>(searched.level[v]);
    return values;
  }

  validate::Result validate(const io::Graph& graph, Index source) const override {
    const bfs::Result& searched = result();
#if GRB_WITH_CUDA
    if (device_graph_)
      return validate::bfs_on_device(*device_graph_, source, searched.level, searched.parent);
#endif
    return with_matrix(graph, [&](const auto& matrix) {
      return validate::bfs(matrix, source, searched.level, searched.parent);
    });
  }

  std::string validated_on() const override { return device_validates() ? "device" : "host"; }

  Work work() const override {
    const bfs::Result& searched = result();
    Work work;
    std::int32_t deepest = -1;
    for (std::int32_t level : searched.level) deepest = std::max(deepest, level);
    work.levels = deepest + 1;
    if (engine_->counts_levels()) {
      std::uint64_t inspected = 0;
      for (const bfs::LevelStats& level : searched.levels) inspected += level.edges_inspected;
      work.edges_inspected = inspected;
    }
    return work;
  }

  std::string chosen() const override { return std::string(engine_->chosen()); }

  std::vector<bfs::LevelStats> level_stats() const override { return result().levels; }

  bool counts_levels() const override { return engine_->counts_levels(); }

  void time_levels(bool on) override { level_timing_ = on; }

 protected:
  std::string_view values_noun() const override { return "levels"; }

  std::optional<Tree> tree() const override { return Tree{result().parent, false}; }

 private:
  bool level_timing_ = false;
};

}  // namespace

std::unique_ptr<Runner> make_bfs_runner(const bfs::EngineInfo& engine) {
  return std::make_unique<BfsRunner>(engine);
}

}  // namespace grb::app
