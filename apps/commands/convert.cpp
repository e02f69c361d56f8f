// grb convert IN OUT: any readable graph to grb's binary CSR (.grb, for fast reloads), to
// Matrix Market (.mtx) or to DIMACS shortest-path (.gr, integer weights only).
#include <iostream>
#include <memory>

#include "../graph_input.hpp"
#include "../table.hpp"
#include "commands.hpp"

namespace grb::app {
namespace {

struct ConvertOptions {
  GraphSpec graph;
  std::string output;
};

bool has_extension(const std::string& path, const std::string& extension) {
  return std::filesystem::path(path).extension() == extension;
}

void run_convert(const ConvertOptions& options) {
  const LoadedGraph loaded = load_graph(options.graph);
  const io::Graph& graph = loaded.graph;
  if (has_extension(options.output, ".grb")) {
    io::write_binary(options.output, graph);
  } else if (has_extension(options.output, ".gr")) {
    io::write_dimacs(options.output, graph);  // refuses non-integer weights, writing nothing
  } else if (graph.weighted) {
    io::write_matrix_market(options.output, graph.matrix);
  } else {
    io::write_matrix_market(options.output, pattern(graph.matrix));
  }
  std::cout << "wrote " << options.output << ": n " << grouped(graph.matrix.nrows()) << ", m "
            << grouped(graph.matrix.nvals()) << " (" << describe(graph) << ")\n";
  if (!has_extension(options.output, ".grb") && !graph.vertex_ids.empty())
    std::cerr << "grb: note: " << (has_extension(options.output, ".gr") ? "DIMACS" : "Matrix Market")
              << " numbers the vertices 1..n; the file's own ids are kept only by .grb\n";
}

}  // namespace

void add_convert_command(CLI::App& app) {
  auto options = std::make_shared<ConvertOptions>();
  CLI::App* command = app.add_subcommand(
      "convert", "convert a graph to grb's binary format (.grb), Matrix Market (.mtx) or "
                 "DIMACS shortest-path (.gr; integer weights, 1 for unweighted graphs)");
  command->add_option("input", options->graph.file, "the graph file to read")->required();
  command->add_option("output", options->output, "the file to write: NAME.grb, NAME.mtx or NAME.gr")
      ->required()
      ->check(CLI::Validator(
          [](std::string& path) -> std::string {
            if (has_extension(path, ".grb") || has_extension(path, ".mtx") ||
                has_extension(path, ".gr"))
              return {};
            return "the output must end in .grb, .mtx or .gr: " + path;
          },
          "NAME.grb|NAME.mtx|NAME.gr"));
  add_format_options(*command, options->graph, "the input's");
  command->add_flag("--symmetrize", options->graph.symmetrize,
                    "store both directions of every edge");
  command->callback([options] { run_convert(*options); });
}

}  // namespace grb::app
