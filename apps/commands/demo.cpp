// grb demo: the main job. BFS (every engine), SSSP and CC on a generated Graph500 Kronecker
// graph, on every available backend, every result validated, as one table.
#include <iostream>
#include <memory>

#include "../graph_input.hpp"
#include "../measure.hpp"
#include "../report.hpp"
#include "../runner.hpp"
#include "bfs/engine.hpp"
#include "commands.hpp"
#include "grb/error.hpp"

namespace grb::app {
namespace {

struct DemoOptions {
  int scale = 16;
  std::uint64_t seed = 1;
  int runs = 3;
  bool json = false;
};

void run_demo(const DemoOptions& options) {
  GraphSpec spec;
  spec.kron_scale = options.scale;
  spec.seed = options.seed;
  const LoadedGraph loaded = load_graph(spec);
  const io::Graph& graph = loaded.graph;
  const Index source = default_source(graph);
  const std::vector<Backend> backends = available_backends();

  if (!options.json) {
    std::cout << "Graph500 Kronecker graph, scale " << options.scale << ", edge factor 16, seed "
              << options.seed << ": n " << grouped(graph.matrix.nrows()) << ", m "
              << grouped(graph.matrix.nvals()) << " stored edges (undirected), generated in "
              << fixed(loaded.load_ms, 1) << " ms\n";
    std::cout << "backends: cpu";
    if (cuda_available()) std::cout << ", cuda";
    else std::cout << (GRB_WITH_CUDA ? " (cuda: no GPU found)" : " (cuda: not built)");
    std::cout << "; source vertex " << source << "; median of " << options.runs
              << " runs after one warm-up\n\n";
  }

  Table table = measurement_table();
  std::vector<Measurement> failed;
  auto record = [&](Runner& runner, Algorithm algorithm, Backend backend, std::string engine) {
    Measurement m = measure(runner, graph, source, options.runs, true);
    m.algorithm = algorithm;
    m.backend = backend;
    m.engine = std::move(engine);
    if (options.json) std::cout << to_json(loaded, m).dump() << std::endl;
    else add_row(table, m);
    if (!m.validation->ok) failed.push_back(std::move(m));
  };
  for (Backend backend : backends) {
    for (const bfs::EngineInfo& engine : bfs::engines()) {
      if (engine.backend != backend) continue;
      record(*make_bfs_runner(engine), Algorithm::bfs, backend, std::string(engine.name));
    }
    record(*make_sssp_runner(backend), Algorithm::sssp, backend, "linalg");
    record(*make_cc_runner(backend), Algorithm::cc, backend, "linalg");
  }
  if (!options.json) table.print(std::cout);

  if (!failed.empty())
    throw ValidationFailed(std::to_string(failed.size()) + " result(s) failed validation; first: " +
                           failure(failed.front()));
}

}  // namespace

void add_demo_command(CLI::App& app) {
  auto options = std::make_shared<DemoOptions>();
  CLI::App* command = app.add_subcommand(
      "demo", "BFS, SSSP and CC on a Graph500 Kronecker graph on every available backend, "
              "validated, as one table");
  command->add_option("--scale", options->scale, "the graph has 2^SCALE vertices")
      ->check(CLI::Range(1, 31))
      ->default_str("16");
  command->add_option("--seed", options->seed, "the generator's seed")->default_str("1");
  command->add_option("--runs", options->runs, "timed runs after one warm-up; the median is reported")
      ->check(CLI::Range(1, 1000))
      ->default_str("3");
  command->add_flag("--json", options->json, "print one JSON object per run instead of a table");
  command->callback([options] { run_demo(*options); });
}

}  // namespace grb::app
