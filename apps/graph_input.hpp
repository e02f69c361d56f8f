// Where a command's graph comes from (a file, or the Kronecker / grid generators), and how the
// vertex ids of the command line and of --output map to the matrix's rows.
//
// Ids follow the file: 0-based for Matrix Market files and generated graphs (as SuiteSparse,
// LAGraph, GAP and Gunrock count), the file's own ids for LDBC graphs and edge lists. The
// 1-based formats (Matrix Market, DIMACS .gr, METIS .graph, TNTP) are all 0-based here:
// file vertex k is vertex k - 1.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "graph_matrix.hpp"
#include "grb/io.hpp"
#include "grb/types.hpp"

namespace grb::app {

struct GraphSpec {
  std::string file;
  int kron_scale = 0;
  Index grid_side = 0;
  int edge_factor = 16;
  double drop_fraction = 0.25;
  std::uint64_t seed = 1;
  bool symmetrize = false;
  std::string format = "auto";
  std::string tntp_weight = "length";
  /// --kron-lengths integer: the Kronecker graph's lengths are integers 1..64 (as the grids'
  /// are, and as GPU SSSP papers benchmark) instead of Graph500's uniform [0, 1).
  bool integer_lengths = false;
  /// False: the command reads no weights (BFS, CC, TC), so a generated graph is kept as its
  /// pattern (io::Graph::pattern_only), in 5 bytes an entry instead of 12.
  bool weights = true;
};

/// --graph FILE | --kron SCALE | --grid SIDE (exactly one), and the options that shape them
/// (add_format_options' among them).
void add_graph_options(CLI::App& command, GraphSpec& spec);

/// --kron-lengths graph500|integer (GraphSpec::integer_lengths).
void add_kron_lengths_option(CLI::App& command, GraphSpec& spec);

/// --format auto|mtx|edges|ldbc|binary|dimacs|metis|tntp and --tntp-weight length|time: how a
/// graph file is read. `files` names what is read in the help ("the file's", "the input's").
void add_format_options(CLI::App& command, GraphSpec& spec,
                        const std::string& files = "the file's");

struct LoadedGraph {
  io::Graph graph;
  double load_ms = 0;  // reading the file, or generating the graph
  std::size_t peak_host_bytes = 0;  // the process's resident peak while it did
  /// The format the file was read as (automatic for generated graphs).
  io::Format format = io::Format::automatic;
};

/// Reads or generates the graph; a non-square matrix is an error (graphs are square).
LoadedGraph load_graph(const GraphSpec& spec);

/// The vertex that `id` names in the graph's own ids; InvalidValue naming the graph if none.
Index internal_vertex(const io::Graph& graph, std::uint64_t id);
/// The graph's own id of vertex `vertex`.
std::uint64_t external_vertex(const io::Graph& graph, Index vertex);

/// The source when none is given: the LDBC properties' source if there is one, else the first
/// vertex with an out-edge (a search from an isolated vertex measures nothing).
Index default_source(const io::Graph& graph);

/// "directed" / "undirected", with "weighted" when the graph has values.
std::string describe(const io::Graph& graph);

}  // namespace grb::app
