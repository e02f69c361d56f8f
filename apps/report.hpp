// How measurements are shown: a table row for people, a JSON object per run for programs.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "graph_input.hpp"
#include "grb/io.hpp"
#include "measure.hpp"
#include "table.hpp"

namespace grb::app {

/// algorithm, backend, engine, prepare ms, ms, GTEPS, validated.
Table measurement_table();
void add_row(Table& table, const Measurement& measurement);

/// The --json object of one measurement: graph, n, m, directed, algorithm, engine, backend,
/// source (the graph's own id; null for cc), runs, ms (median), times_ms, load_ms,
/// load_peak_host_bytes, prepare_ms, edges (input edges traversed), teps, validated (null when
/// not validated), peak_host_bytes, peak_device_bytes, and what the run found (result_summary.hpp: reached and depth, reached and max_distance, or components and
/// largest_component).
nlohmann::ordered_json to_json(const LoadedGraph& loaded, const Measurement& measurement);

/// "bfs on cuda (engine vertex-push): <the validator's message>"
std::string failure(const Measurement& measurement);

}  // namespace grb::app
