#include "result_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "table.hpp"

namespace grb::app {

namespace {

/// How many classes of equal labels there are, and the largest class's size.
std::pair<std::uint64_t, std::uint64_t> label_classes(const std::vector<double>& labels) {
  // Labels are vertices (each component's smallest), so a count per vertex does; anything else
  // (a label that is not a vertex) is counted by sorting a copy.
  const std::size_t n = labels.size();
  const bool vertex_labels = std::all_of(labels.begin(), labels.end(), [n](double label) {
    return label >= 0 && label < double(n) && label == std::floor(label);
  });
  std::uint64_t classes = 0, largest = 0;
  if (vertex_labels) {
    std::vector<std::uint64_t> size(n, 0);
    for (double label : labels) ++size[static_cast<std::size_t>(label)];
    for (std::uint64_t s : size)
      if (s > 0) ++classes, largest = std::max(largest, s);
    return {classes, largest};
  }
  std::vector<double> sorted(labels);
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t begin = 0, end = 0; begin < n; begin = end) {
    while (end < n && sorted[end] == sorted[begin]) ++end;
    ++classes;
    largest = std::max<std::uint64_t>(largest, end - begin);
  }
  return {classes, largest};
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

}  // namespace

ResultSummary summarize(Algorithm algorithm, const std::vector<double>& values) {
  ResultSummary summary;
  summary.algorithm = algorithm;
  summary.vertices = values.size();
  if (algorithm == Algorithm::cc) {
    std::tie(summary.components, summary.largest_component) = label_classes(values);
    return summary;
  }
  for (double value : values)
    if (std::isfinite(value)) {
      ++summary.reached;
      summary.farthest = std::max(summary.farthest, value);
    }
  return summary;
}

std::string describe(const ResultSummary& summary) {
  if (summary.algorithm == Algorithm::cc)
    return grouped(summary.components) + (summary.components == 1 ? " component" : " components") +
           ", the largest " + grouped(summary.largest_component) + " of " +
           grouped(summary.vertices) + " vertices";
  std::string line = "reached " + grouped(summary.reached) + " of " + grouped(summary.vertices) +
                     " vertices, ";
  if (summary.algorithm == Algorithm::bfs)
    return line + "depth " + grouped(static_cast<std::uint64_t>(summary.farthest));
  return line + "largest distance " + number(summary.farthest);
}

void add_fields(nlohmann::ordered_json& record, const ResultSummary& summary) {
  switch (summary.algorithm) {
    case Algorithm::bfs:
      record["reached"] = summary.reached;
      record["depth"] = static_cast<std::uint64_t>(summary.farthest);
      break;
    case Algorithm::sssp:
      record["reached"] = summary.reached;
      record["max_distance"] = summary.farthest;
      break;
    case Algorithm::cc:
      record["components"] = summary.components;
      record["largest_component"] = summary.largest_component;
      break;
  }
}

}  // namespace grb::app
