// read_graph's choice of reader, format names, and vertex id translation.
#include <algorithm>
#include <cctype>
#include <string>

#include "csr_assembly.hpp"
#include "fields.hpp"
#include "grb/io.hpp"
#include "line_reader.hpp"

namespace grb::io {

namespace fs = std::filesystem;

Index to_internal(const Graph& graph, std::uint64_t id) {
  const Index n = graph.matrix.nrows();
  if (graph.vertex_ids.empty()) {
    if (id < n) return static_cast<Index>(id);
  } else {
    auto it = std::find(graph.vertex_ids.begin(), graph.vertex_ids.end(), id);
    if (it != graph.vertex_ids.end()) return static_cast<Index>(it - graph.vertex_ids.begin());
  }
  throw InvalidValue("vertex ID not in graph: " + std::to_string(id) +
                     (graph.name.empty() ? std::string() : " (graph " + graph.name + ")"));
}

std::uint64_t to_external(const Graph& graph, Index vertex) {
  if (vertex >= graph.matrix.nrows())
    throw IndexOutOfBounds("vertex " + std::to_string(vertex) + " outside a graph of " +
                           std::to_string(graph.matrix.nrows()) + " vertices");
  return graph.vertex_ids.empty() ? vertex : graph.vertex_ids[vertex];
}

std::string_view to_string(Format format) {
  switch (format) {
    case Format::automatic: return "auto";
    case Format::matrix_market: return "mtx";
    case Format::edge_list: return "edges";
    case Format::ldbc: return "ldbc";
    case Format::binary: return "binary";
    case Format::dimacs: return "dimacs";
    case Format::metis: return "metis";
    case Format::tntp: return "tntp";
  }
  return "unknown";
}

std::string_view format_choices() { return "mtx|edges|ldbc|binary|dimacs|metis|tntp"; }

std::string_view describe_format(Format format) {
  switch (format) {
    case Format::automatic: return "the format its name suggests";
    case Format::matrix_market: return "a Matrix Market file";
    case Format::edge_list: return "an edge list";
    case Format::ldbc: return "an LDBC Graphalytics graph";
    case Format::binary: return "a grb binary file";
    case Format::dimacs: return "a DIMACS .gr file";
    case Format::metis: return "a METIS / DIMACS10 .graph file";
    case Format::tntp: return "a TransportationNetworks .tntp file";
  }
  return "an unknown format";
}

Format parse_format(std::string_view name) {
  if (name == "auto" || name == "automatic") return Format::automatic;
  if (name == "mtx" || name == "matrix-market") return Format::matrix_market;
  if (name == "edges" || name == "edge-list") return Format::edge_list;
  if (name == "ldbc") return Format::ldbc;
  if (name == "binary" || name == "grb") return Format::binary;
  if (name == "dimacs" || name == "gr") return Format::dimacs;
  if (name == "metis" || name == "graph") return Format::metis;
  if (name == "tntp") return Format::tntp;
  throw InvalidValue("unknown graph format " + detail::quoted(name) + " (expected auto, mtx, edges, ldbc, binary, dimacs, metis or tntp)");
}

std::string_view to_string(TntpWeight weight) {
  return weight == TntpWeight::length ? "length" : "time";
}

TntpWeight parse_tntp_weight(std::string_view name) {
  if (name == "length") return TntpWeight::length;
  if (name == "time" || name == "free-flow-time" || name == "free_flow_time")
    return TntpWeight::free_flow_time;
  throw InvalidValue("unknown TNTP weight " + detail::quoted(name) +
                     " (expected length or time, the free-flow travel time)");
}

namespace {

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

/// A file of no known extension, by its first non-blank line (gzip files inflated): the
/// banner of Matrix Market, the "c" / "p sp" lines of DIMACS, the "<" metadata of TNTP; an
/// edge list otherwise, and when the file cannot be read (its reader then says why). Only
/// regular files are looked into: a pipe's first line, once read, would be gone.
Format sniff_format(const fs::path& path) {
  std::error_code ignored;
  if (!fs::is_regular_file(path, ignored)) return Format::edge_list;
  try {
    detail::LineReader reader(path, false);
    std::string_view line;
    while (reader.next(line)) {
      line = detail::trim(line);
      if (line.empty()) continue;
      if (lowercase(std::string(line.substr(0, 14))) == "%%matrixmarket")
        return Format::matrix_market;
      if (line[0] == '<') return Format::tntp;
      detail::FieldSplitter fields(line, false);
      std::string_view first, second;
      fields.next(first);
      if (first == "c") return Format::dimacs;
      if (first == "p" && fields.next(second) && second == "sp") return Format::dimacs;
      return Format::edge_list;
    }
  } catch (const Error&) {
  }
  return Format::edge_list;
}

}  // namespace

Format detect_format(const fs::path& path) {
  fs::path name = path;
  // Compressed text is recognised by the extension underneath.
  if (lowercase(name.extension().string()) == ".gz") name = name.stem();
  const std::string extension = lowercase(name.extension().string());
  if (extension == ".mtx") return Format::matrix_market;
  if (extension == ".grb") return Format::binary;
  if (extension == ".gr") return Format::dimacs;
  if (extension == ".graph") return Format::metis;
  if (extension == ".tntp") return Format::tntp;
  if (extension == ".properties") return Format::ldbc;
  fs::path base = path;
  if (extension == ".v" || extension == ".e") base.replace_extension();
  std::error_code ignored;  // a name that cannot be asked about is not an LDBC pair
  if (fs::exists(base.string() + ".v", ignored) && fs::exists(base.string() + ".e", ignored))
    return Format::ldbc;
  return sniff_format(path);
}

bool gzip_supported() { return GRB_WITH_ZLIB; }

namespace {

Graph read_as(Format format, const fs::path& path, const ReadOptions& options) {
  switch (format) {
    case Format::matrix_market: return read_matrix_market_graph(path, options);
    case Format::edge_list: return read_edge_list(path, options);
    case Format::ldbc: return read_ldbc(path, options);
    case Format::dimacs: return read_dimacs(path, options);
    case Format::metis: return read_metis(path, options);
    case Format::tntp: return read_tntp(path, options);
    case Format::binary: {
      Graph graph = read_binary(path);
      if (options.symmetrize && graph.directed) {
        if (graph.matrix.nrows() != graph.matrix.ncols())
          throw DimensionMismatch(path.string() + ": cannot symmetrize a non-square matrix");
        graph.matrix = Matrix<double>(detail::symmetrize_min(graph.matrix.csr()));
        graph.matrix.mark_symmetric();
        graph.directed = false;
      }
      return graph;
    }
    case Format::automatic: break;
  }
  throw InvalidValue("read_graph: no format");
}

}  // namespace

Graph read_graph(const fs::path& path, const ReadOptions& options) {
  const Format format = options.format == Format::automatic ? detect_format(path) : options.format;
  struct ProgressScope {
    explicit ProgressScope(bool on) { detail::report_progress = on; }
    ~ProgressScope() { detail::report_progress = false; }
  } progress(options.progress);
  try {
    return read_as(format, path, options);
  } catch (const ParseError& error) {
    // The reader's message, without the "FILE:LINE: " that ParseError puts in front of it.
    std::string message = error.what();
    const std::string prefix = error.file() + ":" + std::to_string(error.line()) + ": ";
    if (message.compare(0, prefix.size(), prefix) == 0) message.erase(0, prefix.size());
    throw ParseError(error.file(), error.line(),
                     message + " (read as " + std::string(describe_format(format)) +
                         "; if it is another format, pass --format " +
                         std::string(format_choices()) + ")");
  }
}

}  // namespace grb::io
