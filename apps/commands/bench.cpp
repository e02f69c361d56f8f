// grb bench: graphs x algorithms x engines x backends x roots, every run validated. Writes one
// JSON line per (graph, algorithm, engine, backend, root) and prints a table per graph and
// engine: median ms, Graph500 GTEPS (harmonic mean over the roots), how far from the best, the
// work counted and the device memory held. benchmarks/plot draws PNGs from the JSON lines.
//
// The parts, under bench/: graphs.cpp (which graphs: kronN, gridN, berlin, files),
// selection.cpp (which engines), subject.cpp (an engine measured and checked), timing.cpp (the
// timing loop and its method), output.cpp (the JSON lines and the table), lists.hpp (lists on
// the command line). Every item of every list is checked as the command line is parsed: a name
// that no graph, algorithm or engine has, or a number out of range, is a usage error (exit 2)
// naming it and the choices.
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "bench/graphs.hpp"
#include "bench/lists.hpp"
#include "bench/selection.hpp"
#include "bench/timing.hpp"
#include "commands.hpp"
#include "grb/error.hpp"

#ifndef GRB_COMMIT
#define GRB_COMMIT "unknown"
#endif

namespace grb::app {
namespace {

/// The command line as given: every list as its raw values, checked item by item (lists.hpp)
/// and split when the command runs.
struct BenchArguments {
  std::vector<std::string> graphs;
  std::vector<std::string> kron_scales;
  std::vector<std::string> grid_sides;
  std::vector<std::string> files;
  std::vector<std::string> algorithms{"bfs,sssp,cc,tc"};
  std::vector<std::string> engines{"all"};
  std::vector<std::string> delta_factors;
  std::string backend = "all";
  GraphSpec shape;  // seed, edge factor, drop fraction, symmetrize, format: shared by all graphs
  bench::Options options;
  bool quick = false;
};

// --quick: small enough for a laptop's cpu in seconds, big enough to have several levels, with
// two Kronecker scales so that time-vs-scale plots have a line.
constexpr int quick_kron_scales[] = {10, 12};
constexpr Index quick_grid_side = 48;
constexpr Index quick_roots = 4;
constexpr int quick_runs = 1;

void run_bench(BenchArguments arguments, bool roots_given, bool runs_given) {
  bench::Options& options = arguments.options;
  const bench::Selection selection{lists::split(arguments.algorithms),
                                   lists::split(arguments.engines), arguments.backend,
                                   lists::numbers<double>(arguments.delta_factors)};
  try {
    options.entries = bench::select_entries(selection);
  } catch (const InvalidValue& error) {
    throw CLI::ValidationError(error.what());  // the arguments ask for what is not there
  }
  std::vector<std::string> kron_scales = lists::split(arguments.kron_scales);
  std::vector<std::string> grid_sides = lists::split(arguments.grid_sides);
  if (arguments.quick) {
    if (arguments.graphs.empty() && kron_scales.empty() && grid_sides.empty() &&
        arguments.files.empty()) {
      for (int scale : quick_kron_scales) kron_scales.push_back(std::to_string(scale));
      grid_sides = {std::to_string(quick_grid_side)};
    }
    if (!roots_given) options.roots = quick_roots;
    if (!runs_given) options.runs = quick_runs;
  }
  // In the order the kinds are listed in --help: --graphs, --kron, --grid, --graph.
  for (const std::string& item : lists::split(arguments.graphs))
    options.graphs.push_back(bench::graph_spec(item, arguments.shape));
  for (const std::string& scale : kron_scales)
    options.graphs.push_back(bench::graph_spec("kron" + scale, arguments.shape));
  for (const std::string& side : grid_sides)
    options.graphs.push_back(bench::graph_spec("grid" + side, arguments.shape));
  for (const std::string& file : arguments.files) {
    GraphSpec spec = arguments.shape;
    spec.file = file;  // any name: --graph takes it as a file whatever it looks like
    options.graphs.push_back(spec);
  }
  if (options.graphs.empty())
    throw InvalidValue("no graph: give --graphs, --kron, --grid or --graph (or --quick)");
  // Before anything is measured: a long benchmark should not stop at its last graph.
  for (const GraphSpec& spec : options.graphs) {
    std::error_code ignored;  // an LDBC graph may be named by its NAME.v's stem
    if (!spec.file.empty() && !std::filesystem::exists(spec.file, ignored) &&
        !std::filesystem::exists(spec.file + ".v", ignored))
      throw IoError(spec.file + ": no such file");
  }
  options.seed = arguments.shape.seed;
  options.commit = GRB_COMMIT;
  bench::run_benchmark(options);
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto arguments = std::make_shared<BenchArguments>();
  bench::Options& options = arguments->options;
  CLI::App* command = app.add_subcommand(
      "bench", "benchmark graphs x algorithms x engines x backends x roots, every run "
               "validated: a table, and JSON lines with --json (benchmarks/plot draws them)");
  command->add_option("--graphs", arguments->graphs,
                      "graphs, comma-separated: kronSCALE, gridSIDE, berlin (Berlin's roads "
                      "from $GRB_DATA_DIR, else tests/data), or graph files")
      ->check(lists::each(bench::check_graph_item, "GRAPH,..."));
  command->add_option("--kron", arguments->kron_scales,
                      "Graph500 Kronecker graphs of these scales, e.g. 20,22")
      ->check(lists::each(lists::integer_in(1, bench::max_kron_scale), "SCALE,..."));
  command->add_option("--grid", arguments->grid_sides, "road-like grids of these sides, e.g. 1000")
      ->check(lists::each(lists::integer_in(1, bench::max_grid_side), "SIDE,..."));
  command->add_option("--graph", arguments->files,
                      "graph files (any format `grb bfs` reads; names are not split at commas)");
  command->add_option("--algorithms", arguments->algorithms, "bfs, sssp, cc, tc (comma-separated)")
      ->check(lists::each(bench::check_algorithm_name, "ALGORITHM,..."))
      ->default_str("bfs,sssp,cc,tc");
  command->add_option("--engines", arguments->engines,
                      "engine names (comma-separated; see `grb engines`), or all")
      ->check(lists::each(bench::check_engine_name, "ENGINE,..."))
      ->default_str("all");
  command->add_option("--backend", arguments->backend, "cpu, cuda, or all available backends")
      ->check(CLI::IsMember({"cpu", "cuda", "all"}))
      ->default_str("all");
  command->add_option("--delta-factors", arguments->delta_factors,
                      "also run each SSSP engine that has a bucket width with delta = FACTOR x "
                      "its default, per factor (comma-separated, e.g. 0.25,4)")
      ->check(lists::each(lists::positive_up_to(std::numeric_limits<double>::max(), "(0, inf)"),
                          "FACTOR,..."));
  CLI::Option* roots =
      command
          ->add_option("--roots", options.roots,
                       "random roots of out-degree > 0 per graph, the same for every engine")
          ->check(CLI::Range(Index{1}, Index{1} << 20))
          ->default_str("16");
  CLI::Option* runs =
      command->add_option("--runs", options.runs, "timed runs per root; the median is reported")
          ->check(CLI::Range(1, 1000))
          ->default_str("3");
  command->add_flag("--warm", options.warm,
                    "run each search once more, untimed, right before each timed one (searches "
                    "back to back); default: cold, each timed run after the last one's check");
  command->add_option("--seconds", options.seconds,
                      "per engine and graph, stop timing further roots after this long (slow "
                      "engines on big graphs); at least one root always runs; 0: no limit")
      ->check(CLI::NonNegativeNumber)
      ->default_str("0");
  command->add_option("--json", options.json, "write one JSON object per root to FILE");
  command->add_flag("--quick", arguments->quick,
                    "a laptop-size check: kron " + std::to_string(quick_kron_scales[0]) + "," +
                        std::to_string(quick_kron_scales[1]) + " and grid " +
                        std::to_string(quick_grid_side) + " unless graphs are given, " +
                        std::to_string(quick_roots) + " roots and " + std::to_string(quick_runs) +
                        " run unless given");
  command->add_option("--seed", arguments->shape.seed, "the generators' and the roots' seed")
      ->default_val(1);
  command->add_option("--edge-factor", arguments->shape.edge_factor, "edges per vertex of kron graphs")
      ->check(CLI::Range(1, 1024))
      ->default_val(16);
  command->add_option("--drop", arguments->shape.drop_fraction, "fraction of grid edges dropped")
      ->check(CLI::Range(0.0, 1.0))
      ->default_val(0.25);
  add_kron_lengths_option(*command, arguments->shape);
  command->add_flag("--symmetrize", arguments->shape.symmetrize,
                    "store both directions of every edge of the graph files");
  add_format_options(*command, arguments->shape, "the graph files'");
  command->callback([arguments, roots, runs] {
    run_bench(*arguments, roots->count() > 0, runs->count() > 0);
  });
}

}  // namespace grb::app
