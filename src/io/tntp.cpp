// TransportationNetworks `_net.tntp` road networks (github.com/bstabler/TransportationNetworks):
// `<KEY> value` metadata, a `~` line naming the columns, then one link per line.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "csr_assembly.hpp"
#include "fields.hpp"
#include "grb/io.hpp"
#include "line_reader.hpp"
#include "numbered_graph.hpp"

namespace grb::io {

namespace {

using detail::FieldSplitter;
using detail::LineReader;

/// The shortest link line, "1 2 0 0 0" with its line end, is 10 bytes; 6 is what the bound
/// promises.
constexpr std::uint64_t least_link_bytes = 6;

std::string lowercase(std::string_view text) {
  std::string result(text);
  std::transform(result.begin(), result.end(), result.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return result;
}

std::string uppercase(std::string_view text) {
  std::string result(text);
  std::transform(result.begin(), result.end(), result.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return result;
}

/// The columns the reader needs, 0-based; the standard order until a `~` line names them.
struct Columns {
  std::size_t init = 0, term = 1, length = 3, free_flow_time = 4;
  std::size_t line = 0;  // the `~` line, 0 when none was seen
  std::vector<std::string> names;
};

/// The `~` line: `~ init_node term_node capacity length free_flow_time ... ;`.
Columns parse_columns(std::string_view line, const LineReader& reader, TntpWeight weight) {
  Columns columns;
  columns.line = reader.line_number();
  line.remove_prefix(1);  // the '~'
  FieldSplitter fields(line, false);
  std::string_view field;
  while (fields.next(field)) {
    if (field == ";") continue;
    if (field.back() == ';') field.remove_suffix(1);
    columns.names.push_back(lowercase(field));
  }
  auto find = [&](std::initializer_list<const char*> names, const char* what) {
    for (const char* name : names) {
      auto it = std::find(columns.names.begin(), columns.names.end(), name);
      if (it != columns.names.end()) return static_cast<std::size_t>(it - columns.names.begin());
    }
    std::string listed;
    for (const std::string& name : columns.names) listed += (listed.empty() ? "" : " ") + name;
    reader.fail("the '~' line naming the columns has no '" + std::string(what) +
                "' column (it names: " + detail::quoted(listed) + ")");
  };
  columns.init = find({"init_node", "tail", "tail_node", "from_node"}, "init_node");
  columns.term = find({"term_node", "head", "head_node", "to_node"}, "term_node");
  if (weight == TntpWeight::length) columns.length = find({"length"}, "length");
  else columns.free_flow_time = find({"free_flow_time", "fftt", "free_flow"}, "free_flow_time");
  return columns;
}

struct Metadata {
  std::optional<Index> nodes;
  std::optional<std::uint64_t> links;
  std::size_t nodes_line = 0, links_line = 0;
};

/// One `<KEY> value` line; false at `<END OF METADATA>`.
bool parse_metadata(std::string_view line, const LineReader& reader, Metadata& metadata) {
  const std::size_t close = line.find('>');
  if (close == std::string_view::npos)
    reader.fail("metadata line " + detail::quoted(line) + " has no closing '>'");
  const std::string key = uppercase(detail::trim(line.substr(1, close - 1)));
  const std::string_view rest = detail::trim(line.substr(close + 1));
  if (key == "END OF METADATA") return false;
  if (key != "NUMBER OF NODES" && key != "NUMBER OF LINKS") return true;  // zones, notes ...
  FieldSplitter fields(rest, false);
  std::string_view value;
  if (!fields.next(value)) reader.fail("<" + key + "> has no value");
  const std::uint64_t bytes = detail::text_bytes_bound(reader);
  const std::string size = std::to_string(reader.file_bytes()) + " bytes" +
                           (reader.compressed() ? " (compressed)" : "");
  if (key == "NUMBER OF NODES") {
    metadata.nodes = detail::parse_vertex_count(value, reader, "<NUMBER OF NODES>");
    metadata.nodes_line = reader.line_number();
    if (*metadata.nodes > detail::plausible_vertices(bytes / least_link_bytes + 1))
      reader.fail("<NUMBER OF NODES> " + std::to_string(*metadata.nodes) +
                  ": a file of " + size + " holds too few links for that many nodes "
                  "(a corrupt header?)");
  } else {
    metadata.links = detail::parse_unsigned(value, reader, "<NUMBER OF LINKS>");
    metadata.links_line = reader.line_number();
    if (*metadata.links > bytes / least_link_bytes + 1)
      reader.fail("<NUMBER OF LINKS> " + std::to_string(*metadata.links) + ": a file of " +
                  size + " cannot hold that many link lines");
  }
  return true;
}

}  // namespace

Graph read_tntp(const std::filesystem::path& path, const ReadOptions& options) {
  LineReader reader(path, options.progress);
  Metadata metadata;
  Columns columns;
  bool in_metadata = true;
  bool reserved = false;
  std::vector<Index> rows, cols;
  std::vector<double> weights;
  std::vector<std::string_view> fields;
  const bool by_length = options.tntp_weight == TntpWeight::length;
  const char* weight_name = by_length ? "length" : "free_flow_time";
  std::uint64_t links = 0;
  std::string_view line;
  while (reader.next(line)) {
    line = detail::trim(line);
    if (line.empty()) continue;
    if (in_metadata) {
      if (line[0] == '<') {
        in_metadata = parse_metadata(line, reader, metadata);
        continue;
      }
      // A file without <END OF METADATA>: the metadata ends where the columns or links begin.
      if (line[0] != '~' && !std::isdigit(static_cast<unsigned char>(line[0])))
        reader.fail("expected a '<KEY> value' metadata line or '<END OF METADATA>', not " +
                    detail::quoted(line));
      in_metadata = false;
    }
    if (line[0] == '~') {
      // The first '~' line names the columns; later ones are comments.
      if (columns.line == 0 && links == 0)
        columns = parse_columns(line, reader, options.tntp_weight);
      continue;
    }
    if (line[0] == '<')
      reader.fail("metadata line " + detail::quoted(line) + " after the metadata ended");

    // A link: `init term capacity length free_flow_time ... ;`.
    if (!metadata.nodes)
      reader.fail("a link before any <NUMBER OF NODES> metadata line (not a TNTP _net file?)");
    if (!reserved) {
      reserved = true;
      if (metadata.links) {
        const std::size_t reserve = static_cast<std::size_t>(
            reader.compressed() ? std::min<std::uint64_t>(*metadata.links, reader.file_bytes())
                                : *metadata.links);
        rows.reserve(reserve);
        cols.reserve(reserve);
        weights.reserve(reserve);
      }
    }
    if (metadata.links && links == *metadata.links)
      reader.fail("more link lines than the " + std::to_string(*metadata.links) +
                  " of <NUMBER OF LINKS> (line " + std::to_string(metadata.links_line) + ")");
    std::string_view link = line.substr(0, line.find(';'));
    fields.clear();
    FieldSplitter splitter(link, false);
    std::string_view field;
    while (splitter.next(field)) fields.push_back(field);
    const std::size_t weight_column = by_length ? columns.length : columns.free_flow_time;
    const std::size_t needed = std::max({columns.init, columns.term, weight_column}) + 1;
    if (fields.size() < needed)
      reader.fail("link " + detail::quoted(line) + " has " + std::to_string(fields.size()) +
                  " columns, but its '" + weight_name + "' is column " +
                  std::to_string(weight_column + 1) +
                  (columns.line ? " (as the '~' line, line " + std::to_string(columns.line) +
                                      ", names them)"
                                : " (the standard order: no '~' line names the columns)"));
    rows.push_back(detail::parse_vertex(fields[columns.init], reader, "init_node", *metadata.nodes));
    cols.push_back(detail::parse_vertex(fields[columns.term], reader, "term_node", *metadata.nodes));
    weights.push_back(detail::parse_real(fields[weight_column], reader, weight_name));
    ++links;
  }
  if (!metadata.nodes)
    throw ParseError(reader.file_name(), reader.line_number(),
                     "no <NUMBER OF NODES> metadata line: not a TNTP _net file?");
  if (metadata.links && links < *metadata.links)
    throw ParseError(reader.file_name(), reader.line_number(),
                     "<NUMBER OF LINKS> (line " + std::to_string(metadata.links_line) +
                         ") declares " + std::to_string(*metadata.links) +
                         " links but the file ends after " + std::to_string(links) +
                         " (truncated?)");
  const Index n = *metadata.nodes;
  if (n > detail::plausible_vertices(links))
    throw ParseError(reader.file_name(), metadata.nodes_line,
                     "<NUMBER OF NODES> " + std::to_string(n) + " for " + std::to_string(links) +
                         " links: more than 2^20 + 8 per link is no road network (a corrupt "
                         "header?)");

  // "SiouxFalls_net.tntp" is the network SiouxFalls.
  std::string name = detail::graph_name(path);
  if (name.size() > 4 && name.ends_with("_net")) name.resize(name.size() - 4);
  return detail::weighted_arcs_graph(n, std::move(rows), std::move(cols), std::move(weights),
                                     std::move(name), options);
}

}  // namespace grb::io
