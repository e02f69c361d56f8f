// near-far: delta-stepping as a worklist (Davidson, Baxter, Garland & Owens, IPDPS 2014). The
// split starts at delta; improvements below it are relaxed in the next round (the near side),
// improvements at or above it go to the far pile. When the near side runs dry, every vertex
// below the split has its final distance; the split then moves to the smallest live distance in
// the far pile plus delta (empty bands of width delta are skipped), and the far vertices below
// it become the next near queue. Compared with frontier-bellman-ford, a vertex far from the
// source waits until the band reaching it is settled, so it is relaxed about once instead of
// once per improvement: fewer relaxations, for more (smaller) rounds.
//
// delta: Options::delta, or default_delta() (engine.hpp) from the mean length and out-degree.
#include "sssp/frontier/engines.hpp"
#include "sssp/frontier/worklist.cuh"

namespace grb::sssp::frontier {
namespace {

class NearFar final : public WorklistEngine {
 public:
  NearFar() : WorklistEngine("near-far") {}

 private:
  void search(Index source, const Options& options) override {
    delta_ = options.delta > 0 ? options.delta : default_delta(summary_);
    worklist_.start(source, delta_);
    phases_ = 0;
    do {
      worklist_.drain();
      ++phases_;
    } while (worklist_.advance_split(delta_));
  }
};

}  // namespace

std::unique_ptr<Engine> make_near_far() { return std::make_unique<NearFar>(); }

}  // namespace grb::sssp::frontier
