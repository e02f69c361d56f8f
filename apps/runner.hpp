// One algorithm on one backend, as the commands run it (`grb bfs|sssp|cc`, demo, graph500, and
// every engine `grb bench` measures): prepare once (copies to the backend and per-graph setup,
// timed apart from the algorithm), then any number of runs, each of which returns when its
// result is complete, so that the caller's clock measures the algorithm alone. After a run, its
// result can be validated in full (validate()) or checked against a reference run (check()), and
// its work counters read.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bfs/engine.hpp"
#include "cc/engine.hpp"
#include "grb/io.hpp"
#include "grb/types.hpp"
#include "sssp/engine.hpp"
#include "tc/engine.hpp"
#include "validate/validate.hpp"

namespace grb::app {

enum class Algorithm { bfs, sssp, cc };
std::string_view to_string(Algorithm algorithm);

/// What the last run did, as the engine counts it; nothing where it does not.
struct Work {
  std::optional<std::int64_t> levels;           // BFS: levels of the search
  std::optional<std::uint64_t> edges_inspected;  // BFS, SSSP: edges read; TC: lists intersected
  std::optional<std::uint64_t> rounds;           // SSSP relaxation rounds; CC iterations
  std::optional<std::uint64_t> buckets;          // SSSP buckets processed
  std::optional<double> delta;                   // SSSP bucket width used
  std::optional<std::uint64_t> triangles;        // TC
  std::vector<sssp::Step> steps;                 // SSSP with Options::trace_steps, if traced
};

/// A source's validated result, which later runs must reproduce (Runner::check): per vertex the
/// BFS level, SSSP distance or CC label (+infinity where unreached); for TC the count alone.
/// Empty until a run has been validated.
struct Reference {
  std::vector<double> values;
  /// Input edges of the part of the graph the run covered: Graph500's TEPS numerator.
  double input_edges = 0;
  bool known() const { return !values.empty(); }
};

class Runner {
 public:
  virtual ~Runner() = default;
  /// `graph.matrix` is a square host matrix.
  virtual void prepare(const io::Graph& graph) = 0;
  /// One run from `source` (ignored by connected components and triangle counting).
  virtual void run(Index source) = 0;
  /// The last run's result per vertex, on the host: BFS level, SSSP distance, or CC label (the
  /// component's smallest vertex); +infinity where the source does not reach. TC: the count
  /// alone (so measure(), which reads one value per vertex, does not apply to it).
  virtual std::vector<double> values() const = 0;
  /// The last run checked by grb::validate, whose checkers share no code with the algorithms.
  virtual validate::Result validate(const io::Graph& graph, Index source) const = 0;
  /// The last run's verdict, empty when it is valid. Where `reference` is known, the run must
  /// reproduce its values exactly (the same levels, the bit-identical distances, the same
  /// labels), which leaves only what the values do not settle to check: for BFS and SSSP the
  /// parent tree (tree()). Else the run is validated in full and becomes the reference. So
  /// every run costs the same host work after it, whichever engine made it (docs/bfs.md,
  /// "Measuring").
  virtual std::string check(const io::Graph& graph, Index source, Reference& reference) const;
  /// Where validate() and check() decide: "device" (the device validator), "host", or
  /// "agreement" (TC: the counts of the engines must agree).
  virtual std::string validated_on() const { return "host"; }
  /// What the last run did, as the engine counts it.
  virtual Work work() const = 0;
  /// Device bytes the engine holds after prepare() (0 on the cpu).
  virtual std::size_t device_bytes() const = 0;
  /// For an engine that delegates (BFS auto): the engine prepare() picked; else empty.
  virtual std::string chosen() const { return {}; }
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

  /// Whether validate_against() gave a graph and this build has the device validators.
  bool device_validates() const;
  /// The plural noun of values() in check()'s messages ("levels", "distances", "labels").
  virtual std::string_view values_noun() const { return "values"; }
  /// The last run's parent tree, where it has one (BFS, SSSP): check() checks it beyond the
  /// values, since values equal to the validated ones do not make a valid tree; `weighted`:
  /// SSSP's tree edges add their length, BFS's one level. Nothing: the values are the whole
  /// result (CC).
  struct Tree {
    std::span<const Index> parent;
    bool weighted = false;
  };
  virtual std::optional<Tree> tree() const { return std::nullopt; }
};

/// check()'s parent-tree check of a run whose values equal the validated ones: each tree edge
/// parent[v] -> v is a graph edge that achieves v's value (unweighted, BFS: one level more;
/// weighted, SSSP: the edge's length more), and only the reached vertices have parents. With
/// the validated values the tree is then valid, since its values decrease strictly towards the
/// root, except along SSSP's zero-length edges: weighted trees are also walked to the root.
std::string check_tree(const Csr<double>& csr, const std::vector<double>& valid,
                       std::span<const Index> parent, Index root, bool weighted);

/// What every runner of an engine registry holds: the engine, and a copy of its last result,
/// fetched on first use after each run. A run only marks the copy stale (ran()): the old copy is
/// replaced when the next one is fetched, outside the caller's clock (freeing kron22's 48 MB BFS
/// result cost 1-4 ms, up to 5x the search it was timed with).
template <class Engine, class EngineResult>
class EngineRunner : public Runner {
 public:
  std::size_t device_bytes() const override { return engine_->device_bytes(); }

 protected:
  explicit EngineRunner(std::unique_ptr<Engine> engine) : engine_(std::move(engine)) {}
  /// After each run of the engine.
  void ran() { fresh_ = false; }
  const EngineResult& result() const {
    if (!fresh_) {
      result_ = engine_->result();
      fresh_ = true;
    }
    return result_;
  }

  std::unique_ptr<Engine> engine_;

 private:
  mutable EngineResult result_{};
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
/// Triangle counting through the engine registry. It has no validator: check() takes the first
/// count as the reference, and every later engine's must agree.
std::unique_ptr<Runner> make_tc_runner(const tc::EngineInfo& engine);

}  // namespace grb::app
