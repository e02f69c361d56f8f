// What `grb bench` shows: one JSON line per (graph, engine, root) run for programs and plots
// (benchmarks/plot reads them), and a table per graph and engine for people.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "grb/io.hpp"
#include "selection.hpp"
#include "../../runner.hpp"

namespace grb::app::bench {

/// "near-far@2x" for a delta-sweep entry, "auto->persistent" for an engine that delegates.
std::string engine_label(const Entry& entry, const std::string& chosen);

/// One root's timed runs of one entry, all of them validated.
struct RootRun {
  std::uint64_t root = 0;   // the graph's own id
  std::vector<double> run_ms;
  double median_ms = 0;
  double input_edges = 0;   // of the part of the graph the run covered
  Work work;
  std::vector<bfs::LevelStats> levels;  // the per-level run (BFS); empty if none
  bool levels_counted = false;          // levels hold edges, direction and time
  std::string validated_on;

  double teps() const { return median_ms > 0 ? input_edges / (median_ms / 1000.0) : 0.0; }
};

/// What stays the same over the roots of one entry on one graph.
struct EntryRun {
  const io::Graph* graph = nullptr;
  double load_ms = 0;
  Entry entry;
  std::string chosen;
  double prepare_ms = 0;
  std::size_t device_bytes = 0;
  bool warm = false;
  std::size_t load_peak_host_bytes = 0;  // the process's resident peak while the graph loaded
  // Since prepare() began, up to the root recorded: the process's resident peak (the graph
  // included), and the device memory taken beyond what was in use before (the validators' copy
  // of the graph excluded).
  std::size_t peak_host_bytes = 0;
  std::size_t peak_device_bytes = 0;
};

/// The JSON line of one root: the fields of `grb bfs --json` that apply (graph, n, m, directed,
/// algorithm, engine, backend, runs, ms = the median, times_ms, load_ms, prepare_ms, edges,
/// teps, validated), then root (null for cc and tc), warm, the work counters (levels,
/// edges_inspected, per_level, rounds, buckets, delta, delta_factor, triangles: null where
/// they do not apply), chosen, device_bytes, load_peak_host_bytes, peak_host_bytes,
/// peak_device_bytes, validated_on, device, commit, date.
nlohmann::ordered_json root_record(const EntryRun& run, const RootRun& root,
                                   const std::string& device, const std::string& commit,
                                   const std::string& date);

/// One graph x entry over its roots, for the table.
struct Summary {
  std::string graph;
  Entry entry;
  std::string chosen;
  std::vector<double> median_ms;  // per root
  std::vector<double> teps;       // per root
  std::vector<double> edges_inspected;
  Offset stored_entries = 0;  // the graph's: edges inspected per entry is the work efficiency
  std::size_t peak_host_bytes = 0;    // see EntryRun
  std::size_t peak_device_bytes = 0;
  std::size_t failures = 0;
  std::size_t skipped = 0;  // roots left out by --seconds

  double median() const;
  /// Graph500's mean of rates: the harmonic mean.
  double harmonic_gteps() const;
};

/// The table: per graph and entry the roots, median ms, GTEPS (harmonic mean), the ratio of the
/// best GTEPS of the graph and algorithm to this one's, mean edges inspected, and the peaks of
/// host and device memory.
void print_summaries(std::ostream& out, const std::vector<Summary>& summaries);

}  // namespace grb::app::bench
