// One algorithm on one backend, as the command runs it: prepare once (copies to the backend and
// per-graph setup, timed apart from the algorithm), then any number of runs, each of which
// returns when its result is complete, so that the caller's clock measures the algorithm alone.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bfs/engine.hpp"
#include "cc/engine.hpp"
#include "grb/io.hpp"
#include "grb/types.hpp"
#include "sssp/engine.hpp"
#include "validate/validate.hpp"

namespace grb::app {

enum class Algorithm { bfs, sssp, cc };
std::string_view to_string(Algorithm algorithm);

class Runner {
 public:
  virtual ~Runner() = default;
  /// `graph.matrix` is a square host matrix.
  virtual void prepare(const io::Graph& graph) = 0;
  /// One run from `source` (ignored by connected components).
  virtual void run(Index source) = 0;
  /// The last run's result per vertex, on the host: BFS level, SSSP distance, or CC label (the
  /// component's smallest vertex); +infinity where the source does not reach.
  virtual std::vector<double> values() const = 0;
  /// The last run checked by grb::validate, whose checkers share no code with the algorithms.
  virtual validate::Result validate(const io::Graph& graph, Index source) const = 0;
  /// What each level of the last run did (BFS); else empty.
  virtual std::vector<bfs::LevelStats> level_stats() const { return {}; }
  /// Whether level_stats() counts each level's edges and direction and, after time_levels(true),
  /// its time (bfs::Engine::counts_levels); false: the frontier sizes alone, or nothing.
  virtual bool counts_levels() const { return false; }
  /// Time every level of the following runs (bfs::Options::level_timing), where the engine can:
  /// the per-level clocks perturb the total, so timed runs leave it off.
  virtual void time_levels(bool) {}
  /// From now on validate() checks against `graph`, the run's graph held on the cuda backend
  /// (validate/on_device.hpp: the same verdict and message as the host's, in milliseconds where
  /// the host takes a second per kron22 search), where the runner has a device validator (BFS,
  /// SSSP); null: on the host again.
  void validate_against(const Matrix<double>* graph) { device_graph_ = graph; }

 protected:
  const Matrix<double>* device_graph_ = nullptr;
};

/// A runner's copy of its engine's last result, fetched on first use after each run. run() only
/// marks it stale: the old copy is replaced when the next one is fetched, outside the caller's
/// clock (freeing kron22's 48 MB BFS result cost 1-4 ms, up to 5x the search it was timed with).
template <class Result>
class LastResult {
 public:
  void stale() { fresh_ = false; }
  template <class Fetch>
  const Result& get(Fetch&& fetch) const {
    if (!fresh_) {
      result_ = fetch();
      fresh_ = true;
    }
    return result_;
  }

 private:
  mutable Result result_{};
  mutable bool fresh_ = false;
};

/// BFS through the engine registry (levels and parents).
std::unique_ptr<Runner> make_bfs_runner(const bfs::EngineInfo& engine);
/// SSSP through the engine registry (distances and parents); `options.delta` for the
/// delta-stepping engines.
std::unique_ptr<Runner> make_sssp_runner(const sssp::EngineInfo& engine,
                                         const sssp::Options& options = {});
/// The bellman-ford engine (min.plus, algorithms/sssp/bellman_ford.hpp) on `backend`.
std::unique_ptr<Runner> make_sssp_runner(Backend backend);
/// Connected components through the engine registry; directed graphs give weakly connected
/// components.
std::unique_ptr<Runner> make_cc_runner(const cc::EngineInfo& engine);
/// The fastsv engine on `backend`.
std::unique_ptr<Runner> make_cc_runner(Backend backend);

}  // namespace grb::app
