// frontier-bellman-ford: Bellman-Ford over a worklist (seed 001's atomicMin relaxation): each
// round relaxes the out-edges of exactly the vertices whose distance changed in the round
// before, until none changes. No buckets: every improvement is relaxed in the next round, so a
// vertex may be relaxed many times before its distance settles (label correcting), but every
// round has all the parallelism there is. The worklist (worklist.cuh) runs with its split at
// +inf, so its far pile stays empty.
#include <limits>

#include "sssp/cuda/engines.hpp"
#include "sssp/cuda/worklist.cuh"

namespace grb::sssp::kernels {
namespace {

class FrontierBellmanFord final : public WorklistEngine {
 public:
  FrontierBellmanFord() : WorklistEngine("frontier-bellman-ford") {}

 private:
  void search(Index source, const Options&) override {
    worklist_.start(source, std::numeric_limits<double>::infinity());
    worklist_.drain();
    phases_ = 1;
    delta_ = 0;
  }
};

}  // namespace

std::unique_ptr<Engine> make_frontier_bellman_ford() {
  return std::make_unique<FrontierBellmanFord>();
}

}  // namespace grb::sssp::kernels
