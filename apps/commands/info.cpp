// grb info FILE: what a graph file holds — its format, size, direction, weights, degrees, self
// loops.
#include <algorithm>
#include <iostream>
#include <memory>
#include <vector>

#include "../graph_input.hpp"
#include "../table.hpp"
#include "commands.hpp"

namespace grb::app {
namespace {

struct InfoOptions {
  GraphSpec graph;
};

/// Whether A(i, j) exists exactly where A(j, i) does (an undirected graph stored both ways).
bool symmetric_pattern(const Matrix<double>& a) {
  const Csr<double>& rows = a.csr();
  const Csr<double>& columns = a.csc();
  return std::equal(rows.row_offsets.begin(), rows.row_offsets.end(),
                    columns.row_offsets.begin()) &&
         std::equal(rows.col_indices.begin(), rows.col_indices.end(),
                    columns.col_indices.begin());
}

void run_info(const InfoOptions& options) {
  const LoadedGraph loaded = load_graph(options.graph);
  const io::Graph& graph = loaded.graph;
  const Csr<double>& csr = graph.matrix.csr();
  const Index n = csr.nrows;

  Offset self_loops = 0, max_out = 0;
  Offset min_out = n > 0 ? csr.nvals() : 0;
  std::vector<Offset> in_degree(n, 0);
  for (Index i = 0; i < n; ++i) {
    const Offset degree = csr.row_offsets[i + 1] - csr.row_offsets[i];
    min_out = std::min(min_out, degree);
    max_out = std::max(max_out, degree);
    for (Offset e = csr.row_offsets[i]; e < csr.row_offsets[i + 1]; ++e) {
      ++in_degree[csr.col_indices[e]];
      if (csr.col_indices[e] == i) ++self_loops;
    }
  }
  Index isolated = 0;
  for (Index i = 0; i < n; ++i)
    if (in_degree[i] == 0 && csr.row_offsets[i + 1] == csr.row_offsets[i]) ++isolated;
  const Offset max_in = n > 0 ? *std::max_element(in_degree.begin(), in_degree.end()) : 0;

  Table table({{"property"}, {"value"}});
  table.add({"file", options.graph.file});
  table.add({"format", std::string(io::to_string(loaded.format)) + " (" +
                           std::string(io::describe_format(loaded.format)).substr(
                               io::describe_format(loaded.format).find(' ') + 1) +
                           (options.graph.format == "auto" ? ", detected)" : ", as --format said)")});
  if (loaded.format == io::Format::tntp)
    table.add({"weights", options.graph.tntp_weight == "length"
                              ? "the length column (--tntp-weight)"
                              : "the free_flow_time column (--tntp-weight)"});
  table.add({"name", graph.name});
  table.add({"vertices (n)", grouped(n)});
  table.add({"stored edges (m)", grouped(csr.nvals())});
  table.add({"directed", graph.directed ? "yes" : "no (stored both ways)"});
  table.add({"symmetric pattern", symmetric_pattern(graph.matrix) ? "yes" : "no"});
  table.add({"weighted", graph.weighted ? "yes" : "no (every value 1)"});
  table.add({"self loops", grouped(self_loops)});
  table.add({"isolated vertices", grouped(isolated)});
  table.add({"out-degree min / mean / max",
             grouped(min_out) + " / " + fixed(n > 0 ? double(csr.nvals()) / n : 0.0, 2) + " / " +
                 grouped(max_out)});
  table.add({"in-degree max", grouped(max_in)});
  table.add({"vertex ids", graph.vertex_ids.empty() ? "0.." + std::to_string(n ? n - 1 : 0)
                                                     : "the file's own"});
  if (graph.source) table.add({"source (LDBC)", std::to_string(*graph.source)});
  table.add({"load ms", fixed(loaded.load_ms, 1)});
  table.print(std::cout);
}

}  // namespace

void add_info_command(CLI::App& app) {
  auto options = std::make_shared<InfoOptions>();
  CLI::App* command = app.add_subcommand("info", "describe a graph file: format, size, direction, "
                                                 "weights, degrees, self loops");
  command->add_option("file", options->graph.file, "the graph file")->required();
  add_format_options(*command, options->graph);
  command->add_flag("--symmetrize", options->graph.symmetrize,
                    "store both directions of every edge before describing");
  command->callback([options] { run_info(*options); });
}

}  // namespace grb::app
