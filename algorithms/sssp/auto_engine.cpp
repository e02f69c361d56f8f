// auto: picks an SSSP engine from the graph in prepare(), then delegates to it.
//
// The rule (docs/sssp.md has the measurements behind it):
//   - cpu: bellman-ford, the faster of the two linear-algebra engines on every benchmark graph;
//   - cuda, skewed degrees (largest over mean out-degree above `skewed`: power-law graphs):
//     light-heavy. A hub's distance improves several times within its bucket, and near-far
//     relaxes all of its edges each time; light-heavy relaxes its heavy edges once;
//   - cuda, even degrees (roads, grids, meshes): near-far-persistent. Searches there are
//     thousands of small rounds whose cost is latency, and near-far's wide buckets need the
//     fewest rounds; few edges are heavy at its delta anyway.
#include <string>

#include "sssp/engine.hpp"

namespace grb::sssp {
namespace {

constexpr double skewed = 16;

class Auto final : public Engine {
 public:
  explicit Auto(Backend backend) : backend_(backend) {}

  void prepare(const Matrix<double>& graph) override {
    const Offset largest = longest_row(graph);
    const double mean = graph.nrows() > 0 ? double(graph.nvals()) / graph.nrows() : 0;
    const bool skew = mean > 0 && double(largest) / mean > skewed;
    chosen_name_ = backend_ == Backend::cpu ? "bellman-ford"
                   : skew                   ? "light-heavy"
                                            : "near-far-persistent";
    chosen_ = find_engine(chosen_name_, backend_).make();
    chosen_->prepare(graph);
  }
  void run(Index source, const Options& options) override {
    if (!chosen_) throw InvalidValue("sssp engine auto: run() before prepare()");
    chosen_->run(source, options);
  }
  Result result() const override { return chosen_ ? chosen_->result() : Result{}; }
  std::size_t device_bytes() const override { return chosen_ ? chosen_->device_bytes() : 0; }
  std::string_view chosen() const override { return chosen_name_; }

 private:
  Backend backend_;
  std::unique_ptr<Engine> chosen_;
  std::string chosen_name_;
};

}  // namespace

std::unique_ptr<Engine> make_auto(Backend backend) { return std::make_unique<Auto>(backend); }

}  // namespace grb::sssp
