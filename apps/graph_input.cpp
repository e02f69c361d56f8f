#include "graph_input.hpp"

#include <chrono>
#include <cmath>
#include <optional>
#include <string>

#include "grb/error.hpp"
#include "grb/generate.hpp"
#include "grb/operations.hpp"
#include "host_memory.hpp"
#include "progress.hpp"

namespace grb::app {

void add_graph_options(CLI::App& command, GraphSpec& spec) {
  CLI::Option_group* source = command.add_option_group("graph", "where the graph comes from (one of)");
  source->add_option("--graph", spec.file,
                     "a graph file: Matrix Market (.mtx), edge list, LDBC (.properties, or NAME "
                     "beside NAME.v and NAME.e), DIMACS (.gr), METIS (.graph), TNTP (.tntp), "
                     "or grb binary (.grb)");
  source->add_option("--kron", spec.kron_scale,
                     "a Graph500 Kronecker graph of 2^SCALE vertices (undirected)")
      ->check(CLI::Range(1, 31));
  source->add_option("--grid", spec.grid_side,
                     "a SIDE x SIDE road-like grid with a fraction of edges dropped (undirected)")
      ->check(CLI::Range(Index{1}, Index{65535}));
  source->require_option(1);

  add_format_options(command, spec);
  command.add_flag("--symmetrize", spec.symmetrize,
                   "store both directions of every edge of the --graph file (generated graphs "
                   "are always undirected)");
  command.add_option("--seed", spec.seed, "the generators' seed")->default_val(1);
  command.add_option("--edge-factor", spec.edge_factor, "edges per vertex of --kron")
      ->check(CLI::Range(1, 1024))
      ->default_val(16);
  command.add_option("--drop", spec.drop_fraction, "fraction of --grid edges dropped")
      ->check(CLI::Range(0.0, 1.0))
      ->default_val(0.25);
  add_kron_lengths_option(command, spec);
}

void add_kron_lengths_option(CLI::App& command, GraphSpec& spec) {
  command
      .add_option_function<std::string>(
          "--kron-lengths",
          [&spec](const std::string& kind) { spec.integer_lengths = kind == "integer"; },
          "the Kronecker graphs' edge lengths: graph500 (uniform in [0, 1), Graph500's SSSP "
          "kernel) or integer (uniform 1..64, as the grids have)")
      ->check(CLI::IsMember({"graph500", "integer"}))
      ->default_str("graph500");
}

void add_format_options(CLI::App& command, GraphSpec& spec, const std::string& files) {
  command
      .add_option("--format", spec.format,
                  files + " format (default: from the name, else the first line)")
      ->check(CLI::IsMember(
          {"auto", "mtx", "edges", "ldbc", "binary", "dimacs", "metis", "tntp"}))
      ->default_str("auto");
  command
      .add_option("--tntp-weight", spec.tntp_weight,
                  "the weight of a TNTP road network's links: its length column, or its "
                  "free-flow travel time")
      ->check(CLI::IsMember({"length", "time"}))
      ->default_str("length");
}

LoadedGraph load_graph(const GraphSpec& spec) {
  reset_peak_host_bytes();
  const auto start = std::chrono::steady_clock::now();
  LoadedGraph loaded;
  io::Graph& graph = loaded.graph;
  if (!spec.file.empty()) {
    io::ReadOptions options;
    options.symmetrize = spec.symmetrize;
    options.progress = progress_wanted();  // on a terminal only
    options.format = io::parse_format(spec.format);
    options.tntp_weight = io::parse_tntp_weight(spec.tntp_weight);
    loaded.format =
        options.format == io::Format::automatic ? io::detect_format(spec.file) : options.format;
    options.format = loaded.format;  // detected once
    graph = io::read_graph(spec.file, options);
  } else {
    generate::Options options;
    options.seed = spec.seed;
    // A few seconds and more from here on: say so on a terminal.
    const bool large = spec.kron_scale >= 20 || spec.grid_side >= 2000;
    Progress progress(spec.kron_scale > 0
                          ? "generating kron-" + std::to_string(spec.kron_scale) + " (2^" +
                                std::to_string(spec.kron_scale) + " vertices)"
                          : "generating grid-" + std::to_string(spec.grid_side),
                      large);
    graph.pattern_only = !spec.weights;
    if (spec.kron_scale > 0) {
      if (spec.weights) graph.matrix = generate::kronecker(spec.kron_scale, spec.edge_factor, options);
      else graph.pattern = generate::kronecker_pattern(spec.kron_scale, spec.edge_factor, options);
      graph.name = "kron-" + std::to_string(spec.kron_scale);
      if (spec.integer_lengths && spec.weights) {
        // 1 + floor(64 u) of the Graph500 length u: monotone, so the smallest of parallel
        // edges and an edge's mirror stay the same edge's.
        Matrix<double> lengths(graph.matrix.nrows(), graph.matrix.ncols(), Backend::cpu);
        grb::apply(
            lengths, no_mask, no_accum, [](double length) { return 1 + std::floor(64 * length); },
            graph.matrix);
        graph.matrix = std::move(lengths);
        graph.name += "-int";
      }
    } else {
      if (spec.weights) graph.matrix = generate::grid(spec.grid_side, spec.drop_fraction, options);
      else graph.pattern = generate::grid_pattern(spec.grid_side, spec.drop_fraction, options);
      graph.name = "grid-" + std::to_string(spec.grid_side);
    }
    graph.directed = false;
    graph.weighted = spec.weights;
    if (large) progress.finish();
  }
  loaded.load_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  loaded.peak_host_bytes = peak_host_bytes();
  if (graph.matrix.nrows() != graph.matrix.ncols())  // files only: generated graphs are square
    throw DimensionMismatch(
        (spec.file.empty() ? graph.name : spec.file) + ": the matrix is " +
        std::to_string(graph.matrix.nrows()) + " x " + std::to_string(graph.matrix.ncols()) +
        ", but a graph's adjacency matrix must be square");
  return loaded;
}

Index internal_vertex(const io::Graph& graph, std::uint64_t id) {
  const Index n = vertices(graph);
  if (graph.vertex_ids.empty()) {
    if (id < n) return static_cast<Index>(id);
    throw InvalidValue("vertex " + std::to_string(id) + " is not in " + graph.name +
                       " (its vertices are 0.." + std::to_string(n == 0 ? 0 : n - 1) + ")");
  }
  try {
    return io::to_internal(graph, id);
  } catch (const InvalidValue&) {
    throw InvalidValue("vertex " + std::to_string(id) + " is not in " + graph.name + " (none of its " +
                       std::to_string(n) + " vertex ids)");
  }
}

std::uint64_t external_vertex(const io::Graph& graph, Index vertex) {
  return graph.vertex_ids.empty() ? vertex : graph.vertex_ids[vertex];
}

Index default_source(const io::Graph& graph) {
  if (graph.source) return internal_vertex(graph, *graph.source);
  const std::optional<Index> first = with_matrix(graph, [](const auto& matrix) {
    const auto& csr = matrix.csr();
    for (Index v = 0; v < csr.nrows; ++v)
      if (csr.row_offsets[v + 1] > csr.row_offsets[v]) return std::optional<Index>(v);
    return std::optional<Index>();
  });
  if (first) return *first;
  throw InvalidValue(graph.name + " has no edges: there is no source to search from");
}

std::string describe(const io::Graph& graph) {
  return std::string(graph.directed ? "directed" : "undirected") +
         (graph.weighted ? ", weighted" : "");
}

}  // namespace grb::app
