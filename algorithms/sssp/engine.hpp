// The SSSP engine interface, mirroring the BFS one (bfs/engine.hpp): the linear-algebra
// formulations (Bellman-Ford, delta-stepping) and the hand-written GPU worklists sit behind it,
// registered in one table (registry.cpp) that `grb engines`, `grb sssp --engine`, the tests and
// the benchmark all use. run() is synchronous and the caller times it; engines only count.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "grb/matrix.hpp"
#include "grb/types.hpp"

namespace grb::sssp {

struct Options {
  /// Bucket width of the delta-stepping engines; 0 = default_delta(graph). Ignored by the others.
  double delta = 0;
  bool parents = true;  // compute the shortest-path tree as well as distances
  /// Time every step of the run on the device (Stats::steps): light-heavy and
  /// near-far-persistent (their persistent launches); the others ignore it. Costs one clock
  /// read and store a step.
  bool trace_steps = false;
};

/// One step of a traced run, as the device clocked it: a light or heavy round, or a phase
/// change (the split moves and the far pile is sorted around it).
struct Step {
  enum class Kind : std::uint8_t { light, heavy, split };
  Kind kind = Kind::light;
  /// Work given to the step: queued vertices (light), vertices owing heavy edges (heavy), or
  /// the far pile's size (split); and the edges of the long rows the previous round spread.
  std::uint64_t items = 0;
  std::uint64_t spread_edges = 0;
  double microseconds = 0;  // from this step's start to the next one's (or the run's end)
};

/// What a run did. iterations: relaxation rounds (one vxm, or one worklist kernel, each);
/// phases: buckets processed (delta-stepping, near-far; 1 for the Bellman-Fords);
/// relaxations: edges inspected (0 where the engine does not count them: the linear-algebra ones).
struct Stats {
  std::uint64_t iterations = 0;
  std::uint64_t phases = 0;
  std::uint64_t relaxations = 0;
  double delta = 0;  // the bucket width used (0 where the engine has none)
  std::vector<Step> steps;  // with Options::trace_steps, where the engine traces
};

/// A finished run, on the host. distance[v] = +inf and parent[v] = no_index where unreached;
/// parent[source] == source.
struct Result {
  std::vector<double> distance;
  std::vector<Index> parent;  // empty when Options::parents was false
  Stats stats;
};

class Engine {
 public:
  virtual ~Engine() = default;
  /// One-time setup on a graph: copies to the device, light/heavy splits, transposes. Not timed
  /// as part of a run. `graph` is square; A(i, j) is the length of edge i -> j (a stored 0 is an
  /// edge of length 0). Throws InvalidValue for a negative or NaN length, DimensionMismatch for a
  /// non-square matrix.
  virtual void prepare(const Matrix<double>& graph) = 0;
  /// One run from `source` (throws IndexOutOfBounds for a bad source). Returns when done.
  virtual void run(Index source, const Options& options) = 0;
  /// The last run's distances, parents and counts (copied to the host).
  virtual Result result() const = 0;
  /// Device bytes this engine holds after prepare() (0 for cpu engines).
  virtual std::size_t device_bytes() const { return 0; }
  /// The engine that `auto` picked in prepare() (empty for the others).
  virtual std::string_view chosen() const { return {}; }
};

struct WeightSummary;

struct EngineInfo {
  std::string_view name;         // as given to `grb sssp --engine NAME`
  std::string_view description;  // one line
  Backend backend;               // where it runs
  std::unique_ptr<Engine> (*make)();
  /// The engine's bucket width when Options::delta is 0; nullptr for engines without buckets.
  double (*default_delta)(const WeightSummary&) = nullptr;
};

/// Every engine built into this grb (cuda engines only when built with CUDA), in table order.
const std::vector<EngineInfo>& engines();
/// The engine called `name` on `backend`; throws InvalidValue naming the known engines.
const EngineInfo& find_engine(std::string_view name, Backend backend);

/// What prepare() learns from the edge lengths: every engine checks them the same way.
struct WeightSummary {
  double mean_weight = 0;  // over stored edges (0 for a graph without edges)
  double mean_degree = 0;  // stored edges / vertices
};

/// Checks that `graph` is square and every length is >= 0 (InvalidValue naming the edge and
/// `engine` otherwise; NaN counts as invalid) and returns the summary. Runs where the graph
/// lives (sssp/graph_checks.hpp).
WeightSummary check_weights(const Matrix<double>& graph, std::string_view engine);
/// The length of the graph's longest row (the auto engine's skew test).
Offset longest_row(const Matrix<double>& graph);

/// The delta-stepping engines' default bucket width: 128 x mean length / mean out-degree.
/// Davidson et al. 2014 scale delta with the warp width x the mean length over the mean degree:
/// on sparse high-diameter graphs (roads, grids: degree 2-4) a bucket then spans many
/// mean-length hops, enough vertices per round to fill the GPU; on dense power-law graphs it
/// stays narrow, since each settled vertex already brings many relaxations. The constant is 4
/// warps, not 1: on the H100 a round costs ~15-20 us of latency whatever its size, so wider
/// buckets (fewer rounds and phases, more redundant relaxations) won on every benchmark graph
/// (docs/sssp.md: 32 vs 128 vs 8 on Berlin, grid1000/2000, kron20). 1 when every length is 0
/// (any width then settles everything in one bucket).
double default_delta(const WeightSummary& summary);

/// light-heavy's default bucket width: 4 x mean length / mean out-degree, 1/32 of near-far's.
/// Heavy edges are relaxed once whatever delta is, so light-heavy gains from narrow buckets
/// where near-far loses; each bucket still costs a heavy round and a phase change. In a sweep of
/// 1, 2, 4 and 8 on the H200 (kron20, kron22 with Graph500 and with 1..64 lengths) 2 and 4 were
/// best, within 3% of each other on the Graph500 lengths and 4 by 14% on the integer ones
/// (docs/sssp.md; `grb bench --algorithms sssp --engines light-heavy --delta-factors 0.5,2`).
double light_heavy_delta(const WeightSummary& summary);

/// The `auto` engine on `backend` (auto_engine.cpp): picks an engine from the graph in prepare().
std::unique_ptr<Engine> make_auto(Backend backend);

}  // namespace grb::sssp
