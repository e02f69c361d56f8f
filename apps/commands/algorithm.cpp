// grb bfs | sssp | cc: one algorithm on one graph, on one or every backend, timed, optionally
// validated, with the result written per vertex (--output) and the timings as JSON (--json).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <numeric>

#include "../distributed.hpp"
#include "../graph_input.hpp"
#include "../measure.hpp"
#include "../report.hpp"
#include "../result_summary.hpp"
#include "../runner.hpp"
#include "bfs/engine.hpp"
#include "cc/engine.hpp"
#include "commands.hpp"
#include "grb/error.hpp"
#include "sssp/engine.hpp"

namespace grb::app {
namespace {

struct AlgorithmOptions {
  Algorithm algorithm = Algorithm::bfs;
  GraphSpec graph;
  std::uint64_t source = 0;
  bool source_given = false;
  std::string backend = "all";
  std::string engine = "linalg";
  double delta = 0;  // sssp: the delta-stepping engines' bucket width (0: their default)
  std::string trace_steps;  // sssp: where to write the last run's steps (light-heavy)
  int runs = 3;
  bool validate = false;
  bool json = false;
  std::string output;
  int gpus = 0;  // bfs: GPU ranks in this process (distributed)
  bool engine_given = false;
  bool relabel = false;  // distributed files: relabel the vertices at random
};

/// --trace-steps: the last run's steps, one line each, to `path`, and their sum by kind to
/// standard output.
void write_steps(const std::string& path, const std::string& engine,
                 const std::vector<sssp::Step>& steps) {
  if (steps.empty()) {
    std::cerr << "grb: --trace-steps: engine " << engine
              << " recorded no steps (light-heavy and near-far-persistent trace their "
                 "persistent launch); "
              << path << " not written\n";
    return;
  }
  std::ofstream out(path);
  if (!out) throw IoError(path + ": cannot open for writing");
  static constexpr const char* kinds[] = {"light", "heavy", "split"};
  out << "step\tkind\titems\tspread_edges\tstart_us\tmicroseconds\n";
  double start = 0, total[3] = {};
  std::size_t count[3] = {};
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const sssp::Step& step = steps[i];
    const int kind = static_cast<int>(step.kind);
    out << i << '\t' << kinds[kind] << '\t' << step.items << '\t' << step.spread_edges << '\t'
        << fixed(start, 1) << '\t' << fixed(step.microseconds, 1) << '\n';
    start += step.microseconds;
    total[kind] += step.microseconds;
    ++count[kind];
  }
  if (!out.flush()) throw IoError(path + ": write failed");
  std::cout << "steps of the last run (" << path << "): " << steps.size() << " in "
            << fixed(start / 1000, 3) << " ms;";
  for (int kind = 0; kind < 3; ++kind)
    std::cout << " " << kinds[kind] << " " << count[kind] << " (" << fixed(total[kind] / 1000, 3)
              << " ms)";
  std::cout << "\n";
}

/// The runners for every selected backend that has the engine (only bfs has engines).
std::vector<std::unique_ptr<Runner>> make_runners(const AlgorithmOptions& options,
                                                  std::vector<std::string>& engine_names,
                                                  std::vector<Backend>& backends) {
  const std::vector<Backend> selected = select_backends(options.backend);
  std::vector<std::unique_ptr<Runner>> runners;
  for (Backend backend : selected) {
    if (options.algorithm == Algorithm::bfs) {
      const auto& all = bfs::engines();
      const bool exists = std::any_of(all.begin(), all.end(), [&](const bfs::EngineInfo& e) {
        return e.name == options.engine && e.backend == backend;
      });
      // With --backend all, an engine runs wherever it exists; a named backend must have it.
      if (!exists && selected.size() > 1) continue;
      runners.push_back(make_bfs_runner(bfs::find_engine(options.engine, backend)));
    } else if (options.algorithm == Algorithm::sssp) {
      const auto& all = sssp::engines();
      const bool exists = std::any_of(all.begin(), all.end(), [&](const sssp::EngineInfo& e) {
        return e.name == options.engine && e.backend == backend;
      });
      if (!exists && selected.size() > 1) continue;
      runners.push_back(make_sssp_runner(
          sssp::find_engine(options.engine, backend),
          sssp::Options{.delta = options.delta, .trace_steps = !options.trace_steps.empty()}));
    } else {
      const auto& all = cc::engines();
      const bool exists = std::any_of(all.begin(), all.end(), [&](const cc::EngineInfo& e) {
        return e.name == options.engine && e.backend == backend;
      });
      if (!exists && selected.size() > 1) continue;
      runners.push_back(make_cc_runner(cc::find_engine(options.engine, backend)));
    }
    engine_names.push_back(options.engine);
    backends.push_back(backend);
  }
  // No selected backend has the engine: find_engine's message lists the ones that exist.
  if (runners.empty() && options.algorithm == Algorithm::sssp)
    sssp::find_engine(options.engine, selected.front());
  if (runners.empty() && options.algorithm == Algorithm::cc)
    cc::find_engine(options.engine, selected.front());
  if (runners.empty()) bfs::find_engine(options.engine, selected.front());
  return runners;
}

void append_number(std::string& line, double value) {
  char buffer[64];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  line.append(buffer, error == std::errc{} ? end : buffer);
}

/// One line per vertex, "id value", by increasing id (the graph's own ids); "inf" where
/// unreached. CC labels are vertices, so they are written as ids too.
void write_values(const std::string& path, const io::Graph& graph, Algorithm algorithm,
                  const std::vector<double>& values) {
  std::vector<Index> order(values.size());
  std::iota(order.begin(), order.end(), Index{0});
  if (!graph.vertex_ids.empty())
    std::sort(order.begin(), order.end(),
              [&](Index a, Index b) { return graph.vertex_ids[a] < graph.vertex_ids[b]; });
  std::ofstream out(path, std::ios::binary);
  if (!out) throw IoError(path + ": cannot open for writing");
  std::string line;
  for (Index v : order) {
    line = std::to_string(external_vertex(graph, v));
    line += ' ';
    const double value = values[v];
    if (!std::isfinite(value)) line += "inf";
    else if (algorithm == Algorithm::cc)
      line += std::to_string(external_vertex(graph, static_cast<Index>(value)));
    else append_number(line, value);
    line += '\n';
    out << line;
  }
  out.close();
  if (!out) throw IoError(path + ": write failed");
}

void run_algorithm(const AlgorithmOptions& options) {
  if (options.relabel && !launched_by_mpi() && options.gpus == 0)
    throw InvalidValue("--relabel applies to distributed runs (under mpirun, or with --gpus)");
  if (launched_by_mpi() || options.gpus > 0) {
    if (!options.output.empty())
      throw InvalidValue("--output is not written by a distributed run (this version)");
    if (options.backend == "cpu" && options.gpus > 0)
      throw InvalidValue("--gpus runs on GPUs: leave out --backend cpu");
    DistributedOptions distributed;
    distributed.algorithm = options.algorithm;
    distributed.graph = options.graph;
    if (options.source_given) distributed.source = options.source;
    distributed.runs = options.runs;
    distributed.validate = options.validate;
    distributed.json = options.json;
    distributed.cuda = options.backend == "cuda";
    if (options.engine_given) distributed.engine = options.engine;
    distributed.gpus = options.gpus;
    distributed.relabel = options.relabel;
    return run_distributed(distributed);
  }
  std::vector<std::string> engine_names;
  std::vector<Backend> backends;
  auto runners = make_runners(options, engine_names, backends);

  const LoadedGraph loaded = load_graph(options.graph);
  const io::Graph& graph = loaded.graph;
  // cc has no source; a graph without edges has no default one, and needs none.
  const Index source = options.algorithm == Algorithm::cc ? 0
                       : options.source_given       ? internal_vertex(graph, options.source)
                                                    : default_source(graph);

  if (!options.json) {
    std::cout << "graph " << graph.name << ": n " << grouped(vertices(graph)) << ", m "
              << grouped(stored_entries(graph)) << " (" << describe(graph) << "), loaded in "
              << fixed(loaded.load_ms, 1) << " ms, host memory peak " << mebibytes(loaded.peak_host_bytes)
              << " MiB\n";
    if (options.algorithm != Algorithm::cc)
      std::cout << "source " << external_vertex(graph, source) << "\n";
  }
  Table table = measurement_table();
  std::vector<Measurement> measurements;
  for (std::size_t r = 0; r < runners.size(); ++r) {
    Measurement m = measure(*runners[r], graph, source, options.runs, options.validate);
    m.algorithm = options.algorithm;
    m.backend = backends[r];
    m.engine = engine_names[r];
    if (options.json) std::cout << to_json(loaded, m).dump() << std::endl;
    else add_row(table, m);
    measurements.push_back(std::move(m));
  }
  if (!options.json) {
    std::cout << "median of " << options.runs << " runs after one warm-up\n";
    table.print(std::cout);
    // Backends agree on every result (checked by the tests): the first one's is summarized.
    std::cout << "result: " << describe(summarize(options.algorithm, measurements.front().values))
              << "\n";
  }

  // Backends agree on every result (checked by the tests), so the first one's is written.
  if (!options.output.empty())
    write_values(options.output, graph, options.algorithm, measurements.front().values);

  if (!options.trace_steps.empty())
    write_steps(options.trace_steps, engine_names.front(), runners.front()->work().steps);

  for (const Measurement& m : measurements)
    if (m.validation && !m.validation->ok) throw ValidationFailed(failure(m));
}

void add_algorithm_command(CLI::App& app, Algorithm algorithm, const std::string& description) {
  auto options = std::make_shared<AlgorithmOptions>();
  options->algorithm = algorithm;
  CLI::App* command = app.add_subcommand(std::string(to_string(algorithm)), description);
  add_graph_options(*command, options->graph);
  // BFS and CC read no weights: a generated graph is kept as its pattern (5 bytes an entry).
  options->graph.weights = algorithm == Algorithm::sssp;
  if (algorithm != Algorithm::cc) {
    command
        ->add_option("--source", options->source,
                     "source vertex, in the graph's own ids (0-based for generated graphs and .mtx, .gr, "
                     ".graph and .tntp files); default: the LDBC source, else the first vertex with an out-edge")
        ->each([options](const std::string&) { options->source_given = true; });
  }
  // --engine: its default here, and what a distributed run takes (engine_given tells them apart).
  const auto add_engine = [&](const std::string& what, const std::string& fallback,
                              const std::string& distributed) {
    options->engine = fallback;
    command
        ->add_option("--engine", options->engine,
                     what + " (see `grb engines`); distributed: " + distributed)
        ->default_str(fallback)
        ->each([options](const std::string&) { options->engine_given = true; });
  };
  command->add_option("--backend", options->backend, "cpu, cuda, or all available backends")
      ->check(CLI::IsMember({"cpu", "cuda", "all"}))
      ->default_str("all");
  if (algorithm == Algorithm::bfs) {
    add_engine(
        "BFS engine", "linalg",
        "top-down (the default) or linalg on CPU ranks, direction-optimized (the default) or "
        "top-down on GPU ranks");
    command
        ->add_option(
            "--gpus", options->gpus,
            "run distributed on this many GPUs of this machine, one rank a GPU over NCCL "
            "(--kron or .mtx graphs); under mpirun, --backend cuda runs one GPU rank a process")
        ->check(CLI::Range(1, 1024));
  }
  if (algorithm == Algorithm::sssp) {
    add_engine("SSSP engine", "bellman-ford", "bellman-ford");
    command
        ->add_option("--delta", options->delta,
                     "bucket width of delta-stepping and near-far (default: 128 x mean length / "
                     "mean out-degree)")
        ->check(CLI::PositiveNumber);
    command->add_option("--trace-steps", options->trace_steps,
                        "light-heavy, near-far-persistent: write the last run's steps (rounds "
                        "and phase changes, as the GPU clocked them) to FILE, and their sum by "
                        "kind");
  }
  if (algorithm == Algorithm::cc) {
    add_engine("connected-components engine", "fastsv",
               "fastsv (the default) or label-propagation");
  }
  command->add_flag(
      "--relabel", options->relabel,
      "distributed runs of a graph file: relabel its vertices at random (from "
      "--seed) so that the ranks' blocks share the work; --source stays the file's id");
  command->add_option("--runs", options->runs, "timed runs after one warm-up; the median is reported")
      ->check(CLI::Range(1, 1000))
      ->default_str("3");
  command->add_flag("--validate", options->validate,
                    "check every result with grb's validators (a failure exits with 1)");
  command->add_option("--output", options->output,
                      "write `id value` per vertex, sorted by id ('inf' where unreached)");
  command->add_flag("--json", options->json, "print one JSON object per backend run instead of a table");
  command->callback([options] { run_algorithm(*options); });
}

}  // namespace

void add_algorithm_commands(CLI::App& app) {
  add_algorithm_command(app, Algorithm::bfs, "breadth-first search: levels and parents");
  add_algorithm_command(app, Algorithm::sssp,
                        "single-source shortest paths: distances and parents");
  add_algorithm_command(app, Algorithm::cc,
                        "connected components (weakly connected for directed graphs)");
}

}  // namespace grb::app
