// SNAP-style edge lists: "source destination [weight]" per line.
#include <algorithm>
#include <charconv>
#include <optional>
#include <limits>
#include <string>

#include "csr_assembly.hpp"
#include "fields.hpp"
#include "grb/io.hpp"
#include "line_reader.hpp"
#include "text_pieces.hpp"
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

/// The edges of the file in file order: ids as the file gives them, weights empty when the
/// file has none.
struct Edges {
  detail::IdColumn sources, targets;
  std::vector<double> weights;
  bool weighted = false;
  std::uint64_t max_id = 0;
};

/// The edge lines one at a time: every malformed line is reported at its exact line.
void parse_edges(detail::LineReader& reader, Edges& edges) {
  detail::IdColumn& sources = edges.sources;
  detail::IdColumn& targets = edges.targets;
  std::vector<double>& weights = edges.weights;
  std::uint64_t& max_id = edges.max_id;
  std::optional<bool> weighted;  // decided by the first edge line
  std::size_t first_edge_line = 0;
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

  edges.weighted = *weighted;
}

template <class Number>
bool whole_number(std::string_view field, Number& value) {
  const char* end = field.data() + field.size();
  auto [stop, error] = std::from_chars(field.data(), end, value);
  return error == std::errc{} && stop == end;
}

/// Where one thread writes its piece's edges: slots of the final columns.
struct EdgeSlots {
  Index* sources;
  Index* targets;
  double* weights;  // null for files without weights
  std::uint64_t max_id = 0;
};

/// Parses the edge lines of one piece into its slots. Only plain edges are taken: false at the
/// first line that the one-line-at-a-time parse would reject or read through a slower route
/// (an id of 32 bits or more, a weight out of double's range), or whose weight
/// column differs from the file's first edge.
bool parse_piece(std::string_view piece, bool weighted, EdgeSlots& out) {
  detail::PieceLines lines(piece);
  std::string_view line;
  std::uint64_t slot = 0;
  while (lines.next(line)) {
    line = detail::trim(line);
    if (line.empty() || line[0] == '#' || line[0] == '%') continue;
    detail::FieldSplitter fields(line, true);
    std::string_view source_field, target_field, weight_field, extra;
    std::uint64_t source = 0, target = 0;
    fields.next(source_field);
    if (!fields.next(target_field) || fields.next(weight_field) != weighted ||
        fields.next(extra) || !whole_number(source_field, source) ||
        !whole_number(target_field, target) || source >= no_index || target >= no_index)
      return false;
    if (weighted && !whole_number(detail::without_plus(weight_field), out.weights[slot]))
      return false;
    out.sources[slot] = static_cast<Index>(source);
    out.targets[slot] = static_cast<Index>(target);
    out.max_id = std::max({out.max_id, source, target});
    ++slot;
  }
  return true;
}

/// Whether the file's first edge line has a weight: the line decides for the whole file.
std::optional<bool> first_edge_weighted(std::string_view text) {
  detail::PieceLines lines(text);
  std::string_view line;
  while (lines.next(line)) {
    line = detail::trim(line);
    if (line.empty() || line[0] == '#' || line[0] == '%') continue;
    detail::FieldSplitter fields(line, true);
    std::string_view field;
    std::size_t count = 0;
    while (count < 3 && fields.next(field)) ++count;
    return count == 3;
  }
  return std::nullopt;
}

/// The edge lines parsed by several threads, for large plain files: each piece's edge lines
/// are counted first, so that every thread writes straight into its own part of the final
/// columns. False (and nothing parsed) when the file is small or compressed, or when any piece
/// met a line it does not take: parse_edges then reads the file from the start and reports the
/// first problem at its exact line.
bool parse_edges_in_parallel(const detail::LineReader& reader, Edges& edges) {
  if (reader.compressed() || reader.file_bytes() < detail::piece_sizing().piece_bytes)
    return false;
  const detail::MappedText mapped(reader.file_name(), 0);
  const std::optional<bool> weighted = first_edge_weighted(mapped.text());
  if (!weighted) return false;
  const std::vector<std::string_view> pieces =
      detail::split_at_lines(mapped.text(), detail::parse_workers(mapped.text().size()));
  std::vector<std::uint64_t> lines(pieces.size());
  detail::parallel_for(pieces.size(), [&](std::size_t k) {
    lines[k] = detail::count_content_lines(pieces[k], "#%");
  });
  std::uint64_t total = 0;
  for (std::uint64_t count : lines) total += count;

  std::vector<Index> sources(static_cast<std::size_t>(total)), targets(sources.size());
  std::vector<double> weights(*weighted ? sources.size() : 0);
  std::vector<EdgeSlots> slots;
  for (std::size_t k = 0, start = 0; k < pieces.size(); start += lines[k], ++k)
    slots.push_back({sources.data() + start, targets.data() + start,
                     *weighted ? weights.data() + start : nullptr});
  std::vector<char> ok(pieces.size(), 0);
  detail::parallel_for(pieces.size(), [&](std::size_t k) {
    ok[k] = parse_piece(pieces[k], *weighted, slots[k]);
  });
  if (std::find(ok.begin(), ok.end(), 0) != ok.end()) return false;
  for (const EdgeSlots& piece : slots) edges.max_id = std::max(edges.max_id, piece.max_id);
  edges.sources.assign_narrow(std::move(sources));
  edges.targets.assign_narrow(std::move(targets));
  edges.weights = std::move(weights);
  edges.weighted = *weighted;
  return true;
}

}  // namespace

Graph read_edge_list(const std::filesystem::path& path, const ReadOptions& options) {
  detail::LineReader reader(path, options.progress);
  Edges parsed;
  if (!parse_edges_in_parallel(reader, parsed)) parse_edges(reader, parsed);
  detail::IdColumn& sources = parsed.sources;
  detail::IdColumn& targets = parsed.targets;
  std::vector<double>& weights = parsed.weights;
  const std::uint64_t max_id = parsed.max_id;

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
  if (options.symmetrize) graph.matrix.mark_symmetric();
  graph.directed = !options.symmetrize;
  graph.weighted = parsed.weighted;
  graph.name = detail::graph_name(path);
  return graph;
}

}  // namespace grb::io
