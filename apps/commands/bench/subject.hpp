// One engine as `grb bench` measures it: prepared once per graph, run from each root, and every
// run checked. The first engine of an algorithm to run on a graph gives each root its
// reference, validated in full (grb::validate: the Graph500 rules for BFS, relaxation and tree
// edges for SSSP, a partition check for CC); every later run must reproduce the reference
// exactly (the same levels, the bit-identical distances, the same labels, the same triangle
// count) and, for BFS and SSSP, have a valid parent tree. So every run is followed by the same
// host work, whichever engine it is and wherever it stands in the list (docs/bfs.md,
// "Measuring"). Triangle counting has no validator: its counts must agree with the first
// engine's.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bfs/engine.hpp"
#include "grb/io.hpp"
#include "selection.hpp"

namespace grb::app::bench {

/// A root's validated result: per vertex the BFS level, SSSP distance or CC label (+infinity
/// where unreached); for TC the count alone. Empty until a run has been validated.
struct Reference {
  std::vector<double> values;
  /// Input edges of the part of the graph the run covered: Graph500's TEPS numerator.
  double input_edges = 0;
  bool known() const { return !values.empty(); }
};

/// What the last run did, as the engine counts it; nothing where it does not.
struct Work {
  std::optional<std::int64_t> levels;           // BFS: levels of the search
  std::optional<std::uint64_t> edges_inspected;  // BFS, SSSP: edges read; TC: lists intersected
  std::optional<std::uint64_t> rounds;           // SSSP relaxation rounds; CC iterations
  std::optional<std::uint64_t> buckets;          // SSSP buckets processed
  std::optional<double> delta;                   // SSSP bucket width used
  std::optional<std::uint64_t> triangles;        // TC
};

class Subject {
 public:
  virtual ~Subject() = default;
  /// `graph.matrix` is a square host matrix.
  virtual void prepare(const io::Graph& graph) = 0;
  /// One run from `root` (ignored by CC and TC); returns when its result is complete.
  virtual void run(Index root) = 0;
  /// The last run's verdict, empty when it is valid: against `reference` where it is known,
  /// else validated in full, and then it becomes the reference.
  virtual std::string check(const io::Graph& graph, Index root, Reference& reference) = 0;
  /// Where check() decided: "device" (the device validator), "host", or "agreement" (TC).
  virtual std::string validated_on() const { return "host"; }
  virtual Work work() const = 0;
  virtual std::size_t device_bytes() const = 0;
  /// For an engine that delegates (BFS auto): the engine prepare() picked; else empty.
  virtual std::string chosen() const { return {}; }
  /// What each level of the last run did (BFS); else empty.
  virtual std::vector<bfs::LevelStats> level_stats() const { return {}; }
  /// Whether level_stats() counts each level's edges and direction, and after time_levels(true)
  /// its time (bfs::Engine::counts_levels).
  virtual bool counts_levels() const { return false; }
  /// Time every level of the following runs; the per-level clocks perturb the total, so the
  /// timed runs leave it off.
  virtual void time_levels(bool) {}
  /// From now on check() uses the device validators against `graph`, the run's graph held on
  /// the cuda backend (BFS and SSSP engines on cuda); null: the host's.
  void validate_against(const Matrix<double>* graph) { device_graph_ = graph; }

 protected:
  const Matrix<double>* device_graph_ = nullptr;
};

/// The subject of `entry`; `delta` is the SSSP bucket width to run with (0: the engine's
/// default).
std::unique_ptr<Subject> make_subject(const Entry& entry, double delta);

}  // namespace grb::app::bench
