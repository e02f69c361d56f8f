// BFS through the engine interface: the engine's prepare() does its own copies and setup.
#include <limits>

#include "../runner.hpp"
#include "validate/on_device.hpp"

namespace grb::app {
namespace {

class BfsRunner final : public Runner {
 public:
  explicit BfsRunner(const bfs::EngineInfo& info) : engine_(info.make()) {}

  void prepare(const io::Graph& graph) override { engine_->prepare(pattern(graph.matrix)); }

  void run(Index source) override {
    engine_->run(source, bfs::Options{.parents = true, .level_timing = level_timing_});
    result_.stale();
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
    return validate::bfs(graph.matrix, source, searched.level, searched.parent);
  }

  std::vector<bfs::LevelStats> level_stats() const override { return result().levels; }

  bool counts_levels() const override { return engine_->counts_levels(); }

  void time_levels(bool on) override { level_timing_ = on; }

 private:
  std::unique_ptr<bfs::Engine> engine_;
  bool level_timing_ = false;
  LastResult<bfs::Result> result_;

  const bfs::Result& result() const {
    return result_.get([&] { return engine_->result(); });
  }
};

}  // namespace

std::unique_ptr<Runner> make_bfs_runner(const bfs::EngineInfo& engine) {
  return std::make_unique<BfsRunner>(engine);
}

}  // namespace grb::app
