// What the readers of 1-based numbered-vertex formats (DIMACS .gr, METIS .graph, TNTP) share:
// sanity bounds on declared sizes, 1-based vertex ids, and CSR assembly that keeps the smallest
// weight of repeated edges.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "csr_assembly.hpp"
#include "fields.hpp"
#include "grb/io.hpp"
#include "grb/matrix.hpp"
#include "grb/types.hpp"
#include "line_reader.hpp"

namespace grb::io::detail {

/// The most bytes of text the file can hold: its size, or for gzip files its size times
/// deflate's best ratio (about 1032:1), so that declared sizes can be checked before anything
/// is allocated for them; unbounded for a pipe (then only the memory budget bounds them).
inline std::uint64_t text_bytes_bound(const LineReader& reader) {
  constexpr std::uint64_t deflate_ratio = 1032;
  const std::uint64_t bytes = reader.file_bytes();
  if (!reader.size_known()) return std::numeric_limits<std::uint64_t>::max();  // a pipe
  if (!reader.compressed()) return bytes;
  return bytes > std::numeric_limits<std::uint64_t>::max() / deflate_ratio
             ? std::numeric_limits<std::uint64_t>::max()
             : bytes * deflate_ratio;
}

/// More vertices than this for `edges` edges is no graph, only a corrupt header: the bound of
/// the edge-list reader (2^20 + 8 per edge), so that a 30-byte file cannot ask for gigabytes.
inline std::uint64_t plausible_vertices(std::uint64_t edges) {
  return (std::uint64_t{1} << 20) + 8 * std::min<std::uint64_t>(edges, std::uint64_t{1} << 56);
}

/// A vertex count that fits grb's 32-bit vertex ids.
inline Index parse_vertex_count(std::string_view field, const LineReader& reader,
                                const char* what) {
  const std::uint64_t value = parse_unsigned(field, reader, what);
  if (value > std::numeric_limits<Index>::max())
    reader.fail(std::string(what) + " " + std::to_string(value) +
                " exceeds grb's 32-bit vertex ids (at most " +
                std::to_string(std::numeric_limits<Index>::max()) + ")");
  return static_cast<Index>(value);
}

/// A 1-based vertex id in 1..n, returned 0-based.
inline Index parse_vertex(std::string_view field, const LineReader& reader, const char* what,
                          Index n) {
  const std::uint64_t value = parse_unsigned(field, reader, what);
  if (value == 0)
    reader.fail(std::string(what) + " 0 is out of range: vertices are numbered from 1 (1.." +
                std::to_string(n) + ")");
  if (value > n)
    reader.fail(std::string(what) + " " + std::to_string(value) + " is out of range 1.." +
                std::to_string(n) + (n == 0 ? " (the graph has no vertices)" : ""));
  return static_cast<Index>(value - 1);
}

/// The graph of a road network's weighted arcs (DIMACS, TNTP): directed unless
/// options.symmetrize; parallel arcs keep the smallest weight (the shorter road).
inline Graph weighted_arcs_graph(Index n, std::vector<Index>&& rows, std::vector<Index>&& cols,
                                 std::vector<double>&& weights, std::string name,
                                 const ReadOptions& options) {
  Csr<double> csr = assemble_csr(n, n, std::move(rows), std::move(cols), std::move(weights),
                                 Duplicates::min);
  Graph graph;
  if (options.symmetrize) csr = symmetrize_min(csr);
  graph.matrix = Matrix<double>(std::move(csr));
  if (options.symmetrize) graph.matrix.mark_symmetric();
  graph.directed = !options.symmetrize;
  graph.weighted = true;
  graph.name = std::move(name);
  return graph;
}

}  // namespace grb::io::detail
