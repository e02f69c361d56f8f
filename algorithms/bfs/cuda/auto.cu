// auto: picks an engine from the graph's shape at prepare() time, then delegates to it.
//
// The rule (see docs/bfs.md for the measurements behind it):
//   0. A small graph (at most `small_graph` stored entries): persistent. Every level of such a
//      graph is tiny, so a search costs its launches and round trips, not its edges; persistent
//      runs the whole search in one launch. On the six real graphs of 10^3-10^4 vertices (up to
//      176 K entries) it was the best engine or within 1.4x of it, where rules 2 and 3 picked
//      engines up to 7x slower on the two meshes.
//   1. Estimate the diameter: the number of levels of one BFS (direction-optimized) from the
//      vertex of largest out-degree, which on power-law graphs sits in the core.
//   2. More than `many_levels` levels (meshes, roads, long paths): persistent. Such searches
//      are thousands of small levels whose cost is per-level latency: a launch and one counter
//      read (about 20 us on an H100) for the queue engines, a grid barrier and a short chain
//      of reads (about 3.4 us) for persistent, which runs the whole search in one cooperative
//      launch (grid2000: 9.6 ms against frontier-queue's 62 ms). Where the GPU cannot launch
//      cooperative kernels: frontier-queue. (single-block's in-block levels are slower still: one SM cannot keep
//      enough memory accesses in flight for a frontier of thousands of vertices.)
//   3. Otherwise (low diameter): direction-optimized when the degrees are skewed (largest over
//      mean out-degree above `skewed`: a power-law graph, where pulling skips most edges of the
//      big middle levels), else bucketed (an even-degree graph: frontiers never dominate).
#include <algorithm>
#include <string>
#include <vector>

#include "bfs/cuda/engines.hpp"

namespace grb::bfs::kernels {
namespace {

constexpr Offset small_graph = Offset{1} << 18;
constexpr std::size_t many_levels = 64;
constexpr double skewed = 16;

class Auto final : public Engine {
 public:
  void prepare(const Matrix<bool>& graph) override {
    const std::vector<Offset> offsets = graph.csr().row_offsets.to_vector();
    const Index n = graph.nrows();
    Index hub = 0;
    Offset largest = 0;
    for (Index v = 0; v < n; ++v) {
      const Offset degree = offsets[v + 1] - offsets[v];
      if (degree > largest) largest = degree, hub = v;
    }
    const double mean = n > 0 ? double(graph.nvals()) / n : 0;
    skew_ = mean > 0 ? double(largest) / mean : 0;

    if (graph.nvals() <= small_graph) {
      choose_persistent(graph);
      return;
    }
    auto probe = make_direction_optimized();
    probe->prepare(graph);
    if (n > 0) {
      probe->run(hub, Options{.parents = false});
      estimated_diameter_ = probe->result().levels.size();
    }
    if (estimated_diameter_ > many_levels) {
      choose_persistent(graph);
    } else if (skew_ > skewed) {
      chosen_name_ = "direction-optimized";
      chosen_ = std::move(probe);
    } else {
      chosen_name_ = "bucketed";
      chosen_ = make_bucketed();
      chosen_->prepare(graph);
    }
  }
  void run(Index source, const Options& options) override {
    if (!chosen_) throw InvalidValue("bfs engine auto: run() before prepare()");
    chosen_->run(source, options);
  }
  Result result() const override { return chosen_ ? chosen_->result() : Result{}; }
  std::size_t device_bytes() const override { return chosen_ ? chosen_->device_bytes() : 0; }
  std::string_view chosen() const override { return chosen_name_; }

 private:
  void choose_persistent(const Matrix<bool>& graph) {
    try {
      chosen_ = make_persistent();
      chosen_->prepare(graph);
      chosen_name_ = "persistent";
    } catch (const BackendUnavailable&) {  // no cooperative launch on this GPU
      chosen_ = make_frontier_queue();
      chosen_->prepare(graph);
      chosen_name_ = "frontier-queue";
    }
  }

  std::unique_ptr<Engine> chosen_;
  std::string chosen_name_;
  std::size_t estimated_diameter_ = 0;
  double skew_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_auto() { return std::make_unique<Auto>(); }

}  // namespace grb::bfs::kernels
