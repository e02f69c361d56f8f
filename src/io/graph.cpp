// read_graph's choice of reader, format names, and vertex id translation.
#include <algorithm>
#include <cctype>
#include <string>

#include "csr_assembly.hpp"
#include "grb/io.hpp"

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
  }
  return "unknown";
}

Format parse_format(std::string_view name) {
  if (name == "auto" || name == "automatic") return Format::automatic;
  if (name == "mtx" || name == "matrix-market") return Format::matrix_market;
  if (name == "edges" || name == "edge-list") return Format::edge_list;
  if (name == "ldbc") return Format::ldbc;
  if (name == "binary" || name == "grb") return Format::binary;
  throw InvalidValue("unknown graph format '" + std::string(name) +
                     "' (expected auto, mtx, edges, ldbc or binary)");
}

Format detect_format(const fs::path& path) {
  auto lower = [](std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
  };
  fs::path name = path;
  // Compressed text is recognised by the extension underneath.
  if (lower(name.extension().string()) == ".gz") name = name.stem();
  const std::string extension = lower(name.extension().string());
  if (extension == ".mtx") return Format::matrix_market;
  if (extension == ".grb") return Format::binary;
  if (extension == ".properties") return Format::ldbc;
  fs::path base = path;
  if (extension == ".v" || extension == ".e") base.replace_extension();
  if (fs::exists(base.string() + ".v") && fs::exists(base.string() + ".e")) return Format::ldbc;
  return Format::edge_list;
}

bool gzip_supported() { return GRB_WITH_ZLIB; }

Graph read_graph(const fs::path& path, const ReadOptions& options) {
  const Format format = options.format == Format::automatic ? detect_format(path) : options.format;
  switch (format) {
    case Format::matrix_market: return read_matrix_market_graph(path, options);
    case Format::edge_list: return read_edge_list(path, options);
    case Format::ldbc: return read_ldbc(path, options);
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

}  // namespace grb::io
