#include "output.hpp"

#include <algorithm>
#include <cstdio>

#include "../../graph_input.hpp"
#include "../../measure.hpp"
#include "../../table.hpp"

namespace grb::app::bench {
namespace {

template <class T>
nlohmann::ordered_json optional_json(const std::optional<T>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json per_level_json(const std::vector<bfs::LevelStats>& stats, bool counted) {
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  for (const bfs::LevelStats& level : stats) {
    if (!counted) {
      levels.push_back({{"frontier", level.frontier}});
      continue;
    }
    levels.push_back({{"frontier", level.frontier},
                      {"edges", level.edges_inspected},
                      {"direction", bfs::to_string(level.direction)},
                      {"ms", level.milliseconds}});
  }
  return levels;
}

}  // namespace

std::string engine_label(const Entry& entry, const std::string& chosen) {
  std::string label = entry.engine;
  if (!chosen.empty()) label += "->" + chosen;
  if (entry.delta_factor > 0) {
    char factor[32];
    std::snprintf(factor, sizeof factor, "@%gx", entry.delta_factor);
    label += factor;
  }
  return label;
}

nlohmann::ordered_json root_record(const EntryRun& run, const RootRun& root,
                                   const std::string& device, const std::string& commit,
                                   const std::string& date) {
  const io::Graph& graph = *run.graph;
  const bool rooted = run.entry.algorithm == Algorithm::bfs ||
                      run.entry.algorithm == Algorithm::sssp;
  const Work& work = root.work;
  return {
      {"graph", graph.name},
      {"n", vertices(graph)},
      {"m", stored_entries(graph)},
      {"directed", graph.directed},
      {"algorithm", to_string(run.entry.algorithm)},
      {"engine", run.entry.engine},
      {"backend", to_string(run.entry.backend)},
      {"runs", root.run_ms.size()},
      {"ms", root.median_ms},
      {"times_ms", root.run_ms},
      {"load_ms", run.load_ms},
      {"prepare_ms", run.prepare_ms},
      {"edges", root.input_edges},
      {"teps", root.teps()},
      {"validated", true},
      {"root", rooted ? nlohmann::ordered_json(root.root) : nlohmann::ordered_json(nullptr)},
      {"warm", run.warm},
      {"levels", optional_json(work.levels)},
      {"edges_inspected", optional_json(work.edges_inspected)},
      {"per_level", run.entry.algorithm == Algorithm::bfs
                        ? per_level_json(root.levels, root.levels_counted)
                        : nlohmann::ordered_json(nullptr)},
      {"rounds", optional_json(work.rounds)},
      {"buckets", optional_json(work.buckets)},
      {"delta", optional_json(work.delta)},
      {"delta_factor", run.entry.delta_factor > 0 ? nlohmann::ordered_json(run.entry.delta_factor)
                                                  : nlohmann::ordered_json(nullptr)},
      {"triangles", optional_json(work.triangles)},
      {"chosen", run.chosen.empty() ? nlohmann::ordered_json(nullptr)
                                    : nlohmann::ordered_json(run.chosen)},
      {"device_bytes", run.device_bytes},
      {"load_peak_host_bytes", run.load_peak_host_bytes},
      {"peak_host_bytes", run.peak_host_bytes},
      {"peak_device_bytes", run.peak_device_bytes},
      {"validated_on", root.validated_on},
      {"device", device},
      {"commit", commit},
      {"date", date},
  };
}

double Summary::median() const { return app::median(median_ms); }

double Summary::harmonic_gteps() const {
  double inverse = 0;
  for (double rate : teps) {
    if (rate <= 0) return 0;
    inverse += 1 / rate;
  }
  return teps.empty() ? 0 : static_cast<double>(teps.size()) / inverse / 1e9;
}

void print_summaries(std::ostream& out, const std::vector<Summary>& summaries) {
  using Align = Table::Align;
  Table table({{"graph"},
               {"algorithm"},
               {"engine"},
               {"backend"},
               {"roots", Align::right},
               {"median ms", Align::right},
               {"GTEPS (hm)", Align::right},
               {"x best", Align::right},
               {"edges/run", Align::right},
               {"per entry", Align::right},
               {"host MiB", Align::right},
               {"device MiB", Align::right}});
  for (const Summary& row : summaries) {
    double best = 0;
    for (const Summary& other : summaries)
      if (other.graph == row.graph && other.entry.algorithm == row.entry.algorithm &&
          other.failures == 0)
        best = std::max(best, other.harmonic_gteps());
    const std::string algorithm(to_string(row.entry.algorithm));
    const std::string backend(to_string(row.entry.backend));
    const std::string engine = engine_label(row.entry, row.chosen);
    std::string roots = std::to_string(row.teps.size() + row.failures);
    if (row.skipped > 0) roots += " of " + std::to_string(row.teps.size() + row.failures + row.skipped);
    if (row.failures > 0) {
      table.add({row.graph, algorithm, engine, backend, roots, "FAILED", "FAILED", "-", "-", "-",
                 "-", "-"});
      continue;
    }
    double edges = 0;
    for (double inspected : row.edges_inspected) edges += inspected / row.edges_inspected.size();
    const double gteps = row.harmonic_gteps();
    table.add({row.graph, algorithm, engine, backend, roots, fixed(row.median(), 3),
               fixed(gteps, 4), gteps > 0 ? fixed(best / gteps, 2) : std::string("-"),
               row.edges_inspected.empty() ? std::string("-") : grouped(std::uint64_t(edges)),
               row.edges_inspected.empty() || row.stored_entries == 0
                   ? std::string("-")
                   : fixed(edges / double(row.stored_entries), 2),
               mebibytes(row.peak_host_bytes), mebibytes(row.peak_device_bytes)});
  }
  table.print(out);
}

}  // namespace grb::app::bench
