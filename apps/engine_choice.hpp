// Which engines each algorithm has, and the runner for one (algorithm, engine, backend): the one
// place that knows where the engines of bfs, sssp and cc are listed. `grb bench` picks its runs
// from here.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "grb/types.hpp"
#include "runner.hpp"

namespace grb::app {

struct EngineChoice {
  Algorithm algorithm = Algorithm::bfs;
  std::string engine;  // as `grb engines` names it
  Backend backend = Backend::cpu;
};

/// Every engine of `algorithm` built into this grb, on every backend it exists for, in table
/// order (cuda entries only in a CUDA build, whether or not a GPU is present).
std::vector<EngineChoice> engines_of(Algorithm algorithm);

/// The runner for `choice`; InvalidValue naming the known engines when there is no such engine.
std::unique_ptr<Runner> make_runner(const EngineChoice& choice);

}  // namespace grb::app
