// grb tc: the triangles of a graph (of A + A', self loops ignored) by one engine on one or every
// backend: prepared once, one untimed warm-up count, then the median of --runs timed counts.
// Where several backends run, their counts must agree.
#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "../graph_input.hpp"
#include "../measure.hpp"
#include "../table.hpp"
#include "commands.hpp"
#include "grb/error.hpp"
#include "tc/engine.hpp"

namespace grb::app {
namespace {

struct TcOptions {
  GraphSpec graph;
  std::string backend = "all";
  std::string engine = "linalg";
  int runs = 3;
  bool json = false;
};

struct Count {
  Backend backend = Backend::cpu;
  std::uint64_t triangles = 0;
  double prepare_ms = 0;
  std::vector<double> run_ms;
  double median_ms = 0;
};

Count count_on(const tc::EngineInfo& info, const Matrix<bool>& graph, int runs) {
  Count count;
  count.backend = info.backend;
  auto engine = info.make();
  count.prepare_ms = milliseconds([&] { engine->prepare(graph); });
  engine->run();  // warm-up: first-touch allocations, module load
  for (int r = 0; r < runs; ++r) count.run_ms.push_back(milliseconds([&] { engine->run(); }));
  count.median_ms = median(count.run_ms);
  count.triangles = engine->result().triangles;
  return count;
}

void count_triangles(const TcOptions& options) {
  // Every selected backend that has the engine; a named backend must have it.
  const std::vector<Backend> selected = select_backends(options.backend);
  std::vector<const tc::EngineInfo*> engines;
  for (Backend backend : selected) {
    const auto& all = tc::engines();
    const bool exists = std::any_of(all.begin(), all.end(), [&](const tc::EngineInfo& e) {
      return e.name == options.engine && e.backend == backend;
    });
    if (!exists && selected.size() > 1) continue;
    engines.push_back(&tc::find_engine(options.engine, backend));
  }
  if (engines.empty()) tc::find_engine(options.engine, selected.front());

  const LoadedGraph loaded = load_graph(options.graph);
  const io::Graph& graph = loaded.graph;
  Matrix<bool> from_file;  // a file's graph has values; a generated one is its pattern
  if (!graph.pattern_only) from_file = pattern(graph.matrix);
  const Matrix<bool>& adjacency = graph.pattern_only ? graph.pattern : from_file;
  if (!options.json)
    std::cout << "graph " << graph.name << ": n " << grouped(vertices(graph)) << ", m "
              << grouped(stored_entries(graph)) << " (" << describe(graph) << "), loaded in "
              << fixed(loaded.load_ms, 1) << " ms\n";

  Table table({{"engine"}, {"backend"}, {"triangles", Table::Align::right},
               {"prepare ms", Table::Align::right}, {"ms", Table::Align::right}});
  std::vector<Count> counts;
  for (const tc::EngineInfo* info : engines) {
    Count count = count_on(*info, adjacency, options.runs);
    if (options.json) {
      nlohmann::ordered_json line{{"graph", graph.name},
                                  {"n", vertices(graph)},
                                  {"m", stored_entries(graph)},
                                  {"algorithm", "tc"},
                                  {"engine", options.engine},
                                  {"backend", std::string(to_string(count.backend))},
                                  {"triangles", count.triangles},
                                  {"ms", count.median_ms},
                                  {"run_ms", count.run_ms},
                                  {"prepare_ms", count.prepare_ms},
                                  {"load_ms", loaded.load_ms}};
      std::cout << line.dump() << std::endl;
    } else {
      table.add({options.engine, std::string(to_string(count.backend)), grouped(count.triangles),
                 fixed(count.prepare_ms, 2), fixed(count.median_ms, 3)});
    }
    counts.push_back(std::move(count));
  }
  if (!options.json) {
    std::cout << "median of " << options.runs << " runs after one warm-up\n";
    table.print(std::cout);
  }
  for (const Count& count : counts)
    if (count.triangles != counts.front().triangles)
      throw ValidationFailed("tc: the " + std::string(to_string(count.backend)) +
                             " backend counts " + std::to_string(count.triangles) +
                             " triangles, the " +
                             std::string(to_string(counts.front().backend)) + " backend " +
                             std::to_string(counts.front().triangles));
}

}  // namespace

void add_tc_command(CLI::App& app) {
  auto options = std::make_shared<TcOptions>();
  CLI::App* command = app.add_subcommand(
      "tc", "triangle counting (of A + A', self loops ignored; 64-bit counts)");
  add_graph_options(*command, options->graph);
  options->graph.weights = false;  // triangles need the pattern alone
  command->add_option("--backend", options->backend, "cpu, cuda, or all available backends")
      ->check(CLI::IsMember({"cpu", "cuda", "all"}))
      ->default_str("all");
  command->add_option("--engine", options->engine, "triangle-counting engine (see `grb engines`)")
      ->default_str("linalg");
  command
      ->add_option("--runs", options->runs,
                   "timed runs after one warm-up; the median is reported")
      ->check(CLI::Range(1, 1000))
      ->default_str("3");
  command->add_flag("--json", options->json,
                    "print one JSON object per backend run instead of a table");
  command->callback([options] { count_triangles(*options); });
}

}  // namespace grb::app
