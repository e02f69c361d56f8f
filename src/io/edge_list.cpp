// SNAP-style edge lists: "source destination [weight]" per line.
#include <algorithm>
#include <limits>
#include <string>

#include "csr_assembly.hpp"
#include "fields.hpp"
#include "grb/io.hpp"
#include "line_reader.hpp"
#include "vertex_ids.hpp"

namespace grb::io {

namespace {

/// Ids are kept as they are while this many vertices are not far more than the edges need:
/// a few isolated ids are harmless, a 32-bit id range over ten edges is not.
bool ids_dense_enough(std::uint64_t max_id, std::uint64_t edges) {
  return max_id < no_index && max_id < (std::uint64_t{1} << 20) + 8 * edges;
}

/// Numbers the distinct ids in ascending order; returns them, and rewrites the columns.
std::vector<std::uint64_t> compact_ids(const detail::LineReader& reader, detail::IdColumn& sources,
                                       detail::IdColumn& targets, std::vector<Index>& rows,
                                       std::vector<Index>& cols) {
  std::vector<std::uint64_t> ids;
  ids.reserve(sources.size() + targets.size());
  for (std::size_t e = 0; e < sources.size(); ++e) ids.push_back(sources[e]);
  for (std::size_t e = 0; e < targets.size(); ++e) ids.push_back(targets[e]);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (ids.size() >= no_index)
    reader.fail(std::to_string(ids.size()) +
                " distinct vertex ids: more than grb's 32-bit vertex ids can number");
  ids.shrink_to_fit();
  auto internal = [&](std::uint64_t id) {
    return static_cast<Index>(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
  };
  rows.resize(sources.size());
  cols.resize(targets.size());
  for (std::size_t e = 0; e < sources.size(); ++e) rows[e] = internal(sources[e]);
  sources.clear();
  for (std::size_t e = 0; e < targets.size(); ++e) cols[e] = internal(targets[e]);
  targets.clear();
  return ids;
}

}  // namespace

Graph read_edge_list(const std::filesystem::path& path, const ReadOptions& options) {
  detail::LineReader reader(path, options.progress);
  detail::IdColumn sources, targets;
  std::vector<double> weights;
  std::optional<bool> weighted;  // decided by the first edge line
  std::size_t first_edge_line = 0;
  std::uint64_t max_id = 0;
  std::string_view line;
  while (reader.next(line)) {
    line = detail::trim(line);
    if (line.empty() || line[0] == '#' || line[0] == '%') continue;
    detail::FieldSplitter fields(line, true);
    std::string_view source_field, target_field, weight_field, extra;
    fields.next(source_field);
    if (!fields.next(target_field))
      reader.fail("edge " + detail::quoted(line) +
                  " has no destination (expected 'source destination [weight]')");
    const bool has_weight = fields.next(weight_field);
    if (fields.next(extra))
      reader.fail("unexpected " + detail::quoted(extra) +
                  " after the weight (expected 'source destination [weight]')");
    if (!weighted) {
      weighted = has_weight;
      first_edge_line = reader.line_number();
      const std::size_t expected_edges = reader.estimated_lines();
      sources.reserve(expected_edges);
      targets.reserve(expected_edges);
      if (has_weight) weights.reserve(expected_edges);
    } else if (*weighted != has_weight) {
      reader.fail(std::string(has_weight ? "a weight" : "no weight") + " on this edge, but " +
                  (*weighted ? "a weight" : "none") + " on the first edge (line " +
                  std::to_string(first_edge_line) + ")");
    }
    const std::uint64_t source = detail::parse_unsigned(source_field, reader, "source id");
    const std::uint64_t target = detail::parse_unsigned(target_field, reader, "destination id");
    max_id = std::max({max_id, source, target});
    sources.push_back(source);
    targets.push_back(target);
    if (has_weight) weights.push_back(detail::parse_real(weight_field, reader, "weight"));
  }
  if (!weighted)
    throw ParseError(reader.file_name(), reader.line_number(),
                     "no edges: expected lines 'source destination [weight]'");

  Graph graph;
  const std::uint64_t edges = sources.size();
  std::vector<Index> rows, cols;
  Index n = 0;
  if (ids_dense_enough(max_id, edges)) {
    n = static_cast<Index>(max_id + 1);
    rows = sources.take_narrow();
    cols = targets.take_narrow();
  } else {
    graph.vertex_ids = compact_ids(reader, sources, targets, rows, cols);
    n = static_cast<Index>(graph.vertex_ids.size());
  }
  Csr<double> csr = detail::assemble_csr(n, n, std::move(rows), std::move(cols),
                                         std::move(weights), detail::Duplicates::last);
  if (options.symmetrize) csr = detail::symmetrize_min(csr);
  graph.matrix = Matrix<double>(std::move(csr));
  graph.directed = !options.symmetrize;
  graph.weighted = *weighted;
  graph.name = detail::graph_name(path);
  return graph;
}

}  // namespace grb::io
