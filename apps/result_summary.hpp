// What a run found, in a few numbers: the vertices a search reached and how far it went, or the
// components and the largest one's size. Shown under the table and as fields of --json.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "runner.hpp"

namespace grb::app {

struct ResultSummary {
  Algorithm algorithm = Algorithm::bfs;
  std::uint64_t vertices = 0;
  /// bfs, sssp: vertices with a finite value (the source included).
  std::uint64_t reached = 0;
  /// bfs: the largest level (the depth); sssp: the largest finite distance.
  double farthest = 0;
  /// cc: the number of components (isolated vertices count, one each) and the largest's size.
  std::uint64_t components = 0;
  std::uint64_t largest_component = 0;
};

/// The summary of one run's per-vertex values: levels, distances (inf where unreached) or
/// component labels.
ResultSummary summarize(Algorithm algorithm, const std::vector<double>& values);

/// One line for people, e.g. "reached 34 of 34 vertices, depth 4" or "3 components, the
/// largest 1,024 vertices".
std::string describe(const ResultSummary& summary);

/// Adds the summary's fields to a --json record: reached and depth (bfs), reached and
/// max_distance (sssp), components and
/// largest_component (cc).
void add_fields(nlohmann::ordered_json& record, const ResultSummary& summary);

}  // namespace grb::app
