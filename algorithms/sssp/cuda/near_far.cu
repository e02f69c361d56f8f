// near-far: delta-stepping as a worklist (Davidson, Baxter, Garland & Owens, IPDPS 2014). The
// split starts at delta; improvements below it are relaxed in the next round (the near side),
// improvements at or above it go to the far pile. When the near side runs dry, every vertex
// below the split has its final distance; the split then moves to the smallest live distance in
// the far pile plus delta (empty bands of width delta are skipped), and the far vertices below
// it become the next near queue. Compared with frontier-bellman-ford, a vertex far from the
// source waits until the band reaching it is settled, so it is relaxed about once instead of
// once per improvement: fewer relaxations, for more (smaller) rounds.
//
// near-far-persistent: the same rounds and phases in one cooperative launch (Worklist::settle):
// a grid barrier between rounds and the split moved on the device, where near-far launches
// every round and reads the counters back on the host between batches of rounds. On grids and
// roads (thousands of rounds of a few thousand vertices) a round then costs a barrier instead
// of a launch and a share of a host round trip. Without cooperative launches it runs
// near-far's host loop.
//
// delta: Options::delta, or default_delta() (engine.hpp) from the mean length and out-degree.
#include "sssp/cuda/engines.hpp"
#include "sssp/cuda/worklist.cuh"

namespace grb::sssp::kernels {
namespace {

class NearFar final : public WorklistEngine {
 public:
  explicit NearFar(bool persistent)
      : WorklistEngine(persistent ? "near-far-persistent" : "near-far"), persistent_(persistent) {}

 private:
  void search(Index source, const Options& options) override {
    delta_ = options.delta > 0 ? options.delta : default_delta(summary_);
    worklist_.start(source, delta_);
    if (persistent_ && worklist_.persistent()) {
      phases_ = worklist_.settle(delta_, options.trace_steps);
      return;
    }
    phases_ = worklist_.settle_on_host(delta_);
  }

  bool persistent_;
};

}  // namespace

std::unique_ptr<Engine> make_near_far() { return std::make_unique<NearFar>(false); }
std::unique_ptr<Engine> make_near_far_persistent() { return std::make_unique<NearFar>(true); }

}  // namespace grb::sssp::kernels
