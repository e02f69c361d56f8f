// grb convert IN OUT: any readable graph to grb's binary CSR (.grb, for fast reloads) or to
// Matrix Market (.mtx).
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
  } else if (graph.weighted) {
    io::write_matrix_market(options.output, graph.matrix);
  } else {
    io::write_matrix_market(options.output, pattern(graph.matrix));
  }
  std::cout << "wrote " << options.output << ": n " << grouped(graph.matrix.nrows()) << ", m "
            << grouped(graph.matrix.nvals()) << " (" << describe(graph) << ")\n";
  if (has_extension(options.output, ".mtx") && !graph.vertex_ids.empty())
    std::cerr << "grb: note: Matrix Market numbers the vertices 1..n; the file's own ids are "
                 "kept only by .grb\n";
}

}  // namespace

void add_convert_command(CLI::App& app) {
  auto options = std::make_shared<ConvertOptions>();
  CLI::App* command = app.add_subcommand(
      "convert", "convert a graph to grb's binary format (.grb) or Matrix Market (.mtx)");
  command->add_option("input", options->graph.file, "the graph file to read")->required();
  command->add_option("output", options->output, "the file to write: NAME.grb or NAME.mtx")
      ->required()
      ->check(CLI::Validator(
          [](std::string& path) -> std::string {
            if (has_extension(path, ".grb") || has_extension(path, ".mtx")) return {};
            return "the output must end in .grb or .mtx: " + path;
          },
          "NAME.grb|NAME.mtx"));
  command->add_option("--format", options->graph.format, "the input's format (default: from its name)")
      ->check(CLI::IsMember({"auto", "mtx", "edges", "ldbc", "binary"}))
      ->default_str("auto");
  command->add_flag("--symmetrize", options->graph.symmetrize,
                    "store both directions of every edge");
  command->callback([options] { run_convert(*options); });
}

}  // namespace grb::app
