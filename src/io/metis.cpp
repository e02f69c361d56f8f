// METIS / DIMACS10 graph files (.graph): a header, then one line of neighbours per vertex
// (METIS manual, section 4.1.1; https://www.cc.gatech.edu/dimacs10/downloads.shtml).
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fields.hpp"
#include "grb/io.hpp"
#include "line_reader.hpp"
#include "csr_assembly.hpp"
#include "numbered_graph.hpp"

namespace grb::io {

namespace {

using detail::FieldSplitter;
using detail::LineReader;

struct Header {
  Index n = 0;
  std::uint64_t m = 0;
  bool vertex_sizes = false;    // fmt 1xx
  bool vertex_weights = false;  // fmt x1x
  bool edge_weights = false;    // fmt xx1
  std::uint64_t ncon = 0;       // vertex weights per line
  std::size_t line = 0;
};

/// The header `N M [FMT [NCON]]`.
Header parse_header(std::string_view line, const LineReader& reader) {
  FieldSplitter fields(line, false);
  std::string_view n_field, m_field, fmt_field, ncon_field, extra;
  fields.next(n_field);
  if (!fields.next(m_field))
    reader.fail("header " + detail::quoted(line) + " must be 'VERTICES EDGES [FMT [NCON]]'");
  const bool has_fmt = fields.next(fmt_field);
  const bool has_ncon = has_fmt && fields.next(ncon_field);
  if (fields.next(extra))
    reader.fail("unexpected " + detail::quoted(extra) +
                " in the header (expected 'VERTICES EDGES [FMT [NCON]]')");
  Header header;
  header.line = reader.line_number();
  header.n = detail::parse_vertex_count(n_field, reader, "vertex count");
  header.m = detail::parse_unsigned(m_field, reader, "edge count");
  if (has_fmt) {
    if (fmt_field.size() > 3 ||
        fmt_field.find_first_not_of("01") != std::string_view::npos)
      reader.fail("fmt " + detail::quoted(fmt_field) +
                  " must be up to three digits 0 or 1: vertex sizes, vertex weights, edge "
                  "weights (as 1, 10, 11, 100 ...)");
    const std::string digits = std::string(3 - fmt_field.size(), '0') + std::string(fmt_field);
    header.vertex_sizes = digits[0] == '1';
    header.vertex_weights = digits[1] == '1';
    header.edge_weights = digits[2] == '1';
  }
  if (header.vertex_weights) header.ncon = 1;
  if (has_ncon) {
    const std::uint64_t ncon = detail::parse_unsigned(ncon_field, reader, "ncon");
    if (header.vertex_weights && ncon == 0)
      reader.fail("ncon 0: fmt " + std::string(fmt_field) + " says each vertex has weights");
    // Without vertex weights the lines hold none, whatever NCON says.
    if (header.vertex_weights) header.ncon = ncon;
  }

  // Nothing is allocated for N or M before they are checked against what the file can hold:
  // every vertex needs a line (its line end), every edge at least one neighbour entry of two
  // bytes (a self loop is listed once).
  const std::uint64_t bound = detail::text_bytes_bound(reader);
  const std::uint64_t rest = bound > reader.offset() ? bound - reader.offset() : 0;
  const std::string size = std::to_string(reader.file_bytes()) + " bytes" +
                           (reader.compressed() ? " (compressed)" : "");
  if (header.n > rest + 1)
    reader.fail("the header declares " + std::to_string(header.n) +
                " vertices, but a METIS file has a line for each (an empty one for a vertex "
                "without neighbours) and this one of " + size + " cannot hold that many");
  if (header.m > rest / 2 + 1)
    reader.fail("the header declares " + std::to_string(header.m) +
                " edges, listed at both ends, but a file of " + size +
                " cannot hold that many neighbour entries");
  return header;
}

/// Which line each vertex is on: the vertices of a run are on consecutive lines, and a new
/// run starts where comment lines come between two vertices.
class VertexLines {
 public:
  void add(Index vertex, std::size_t line) {
    if (runs_.empty() || line != runs_.back().second + (vertex - runs_.back().first))
      runs_.emplace_back(vertex, line);
  }
  std::size_t line(Index vertex) const {
    auto run = std::upper_bound(runs_.begin(), runs_.end(), vertex,
                                [](Index v, const auto& r) { return v < r.first; });
    --run;
    return run->second + (vertex - run->first);
  }

 private:
  std::vector<std::pair<Index, std::size_t>> runs_;
};

}  // namespace

Graph read_metis(const std::filesystem::path& path, const ReadOptions& options) {
  LineReader reader(path, options.progress);
  std::string_view line;
  // Before the header, comments and blank lines are skipped.
  bool found = false;
  while (!found && reader.next(line)) {
    line = detail::trim(line);
    found = !line.empty() && line[0] != '%';
  }
  if (!found)
    throw ParseError(reader.file_name(), reader.line_number(),
                     "no header 'VERTICES EDGES [FMT [NCON]]': the file is empty or all comments");
  const Header header = parse_header(line, reader);
  const std::uint64_t declared_entries = 2 * header.m;
  const auto fail_at = [&](std::size_t at, const std::string& message) {
    throw ParseError(reader.file_name(), at, message);
  };

  std::vector<Index> rows, cols;
  std::vector<double> weights;
  {
    const std::uint64_t reserve = reader.compressed()
                                      ? std::min<std::uint64_t>(declared_entries, reader.file_bytes())
                                      : declared_entries;
    rows.reserve(static_cast<std::size_t>(reserve));
    cols.reserve(static_cast<std::size_t>(reserve));
    if (header.edge_weights) weights.reserve(static_cast<std::size_t>(reserve));
  }
  VertexLines lines;
  Index vertex = 0;  // the vertex whose line comes next
  std::uint64_t entries = 0;
  while (reader.next(line)) {
    line = detail::trim(line);
    if (!line.empty() && line[0] == '%') continue;
    if (vertex == header.n) {
      if (line.empty()) continue;  // blank lines after the last vertex
      reader.fail("a line after the last vertex's: the header (line " +
                  std::to_string(header.line) + ") declares " + std::to_string(header.n) +
                  " vertices, one line each");
    }
    lines.add(vertex, reader.line_number());
    FieldSplitter fields(line, false);
    std::string_view field;
    if (header.vertex_sizes) {
      if (!fields.next(field))
        reader.fail("vertex " + std::to_string(vertex + 1) +
                    " has no vertex size (fmt 1xx: each line starts with one)");
      detail::parse_unsigned(field, reader, "vertex size");
    }
    for (std::uint64_t k = 0; k < header.ncon; ++k) {
      if (!fields.next(field))
        reader.fail("vertex " + std::to_string(vertex + 1) + " has " + std::to_string(k) +
                    " vertex weights, but the header asks for " + std::to_string(header.ncon));
      detail::parse_unsigned(field, reader, "vertex weight");
    }
    while (fields.next(field)) {
      const Index neighbour = detail::parse_vertex(field, reader, "neighbour", header.n);
      double weight = 1.0;
      if (header.edge_weights) {
        std::string_view weight_field;
        if (!fields.next(weight_field))
          reader.fail("neighbour " + detail::quoted(field) +
                      " has no edge weight (fmt xx1: each neighbour is followed by the weight)");
        weight = detail::parse_real(weight_field, reader, "edge weight");
      }
      // A self loop is one edge listed once: it counts for both of its ends.
      entries += neighbour == vertex ? 2 : 1;
      if (entries > declared_entries)
        reader.fail("more neighbour entries than the " + std::to_string(declared_entries) +
                    " that the header's " + std::to_string(header.m) + " edges make (line " +
                    std::to_string(header.line) +
                    "; M counts each undirected edge once, and both ends list it)");
      rows.push_back(vertex);
      cols.push_back(neighbour);
      if (header.edge_weights) weights.push_back(weight);
    }
    ++vertex;
  }
  if (vertex < header.n)
    fail_at(reader.line_number(),
            "the header (line " + std::to_string(header.line) + ") declares " +
                std::to_string(header.n) + " vertices, but the file has lines for only " +
                std::to_string(vertex) +
                " (truncated? a vertex without neighbours still needs an empty line)");
  if (entries < declared_entries)
    fail_at(header.line,
            "the header declares " + std::to_string(header.m) + " edges, so " +
                std::to_string(declared_entries) +
                " neighbour entries (each edge is listed by both ends), but the vertex lines "
                "hold " + std::to_string(entries) +
                (entries * 2 == declared_entries
                     ? " (is each edge listed only once? METIS lists it at both ends)"
                     : ""));

  Csr<double> csr =
      detail::assemble_csr(header.n, header.n, std::move(rows), std::move(cols), std::move(weights),
                             detail::Duplicates::min);
  // Both ends must list every edge; where they give it different weights, both take the
  // smaller.
  for (Index i = 0; i < csr.nrows; ++i) {
    for (Offset e = csr.row_offsets[i]; e < csr.row_offsets[i + 1]; ++e) {
      const Index j = csr.col_indices[e];
      const Index* begin = csr.col_indices.data() + csr.row_offsets[j];
      const Index* end = csr.col_indices.data() + csr.row_offsets[j + 1];
      const Index* mirror = std::lower_bound(begin, end, i);
      if (mirror == end || *mirror != i)
        fail_at(lines.line(i), "vertex " + std::to_string(i + 1) + " lists " +
                                   std::to_string(j + 1) + " as a neighbour, but vertex " +
                                   std::to_string(j + 1) + " (line " +
                                   std::to_string(lines.line(j)) + ") does not list " +
                                   std::to_string(i + 1) +
                                   ": METIS lists every edge at both ends");
      if (j > i) {
        double& forward = csr.values[e];
        double& backward = csr.values[static_cast<Offset>(mirror - csr.col_indices.data())];
        if (backward < forward) forward = backward;
        else backward = forward;
      }
    }
  }

  Graph graph;
  graph.matrix = Matrix<double>(std::move(csr));
  graph.matrix.mark_symmetric();
  graph.directed = false;
  graph.weighted = header.edge_weights;
  graph.name = detail::graph_name(path);
  return graph;
}

}  // namespace grb::io
