// grb bench: graphs x algorithms x engines x backends x roots, every run validated. Writes one
// JSON line per (graph, algorithm, engine, backend, root) and prints a table per graph and
// engine: median ms, Graph500 GTEPS (harmonic mean over the roots), and how far from the best.
//
// Method (DESIGN.md, performance method): the graph is read or generated once; each engine is
// prepared once per graph (timed apart); every root gets the same timed runs (median), the
// first root after one untimed warm-up; every timed run is validated outside the clock (BFS and
// SSSP on cuda by the device validators, against a copy of the graph on the device). BFS
// engines that time their levels then run once more per root with per-level clocks on, for the
// per-level times and push/pull directions, so that those clocks never touch the timed runs.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "../engine_choice.hpp"
#include "../graph_input.hpp"
#include "../measure.hpp"
#include "../report.hpp"
#include "../table.hpp"
#include "commands.hpp"
#include "grb/error.hpp"

#ifndef GRB_COMMIT
#define GRB_COMMIT "unknown"
#endif

namespace grb::app {
namespace {

struct BenchOptions {
  std::vector<int> kron_scales;
  std::vector<Index> grid_sides;
  std::vector<std::string> files;
  std::vector<std::string> algorithms{"bfs", "sssp", "cc"};
  std::vector<std::string> engines{"all"};
  std::string backend = "all";
  Index roots = 16;
  int runs = 3;
  std::string json;
  bool quick = false;
  GraphSpec shape;  // seed, edge factor, drop fraction, symmetrize, format: shared by all graphs
};

// --quick: small enough for a laptop's cpu in seconds, big enough to have several levels, with
// two Kronecker scales so that time-vs-scale plots have a line.
constexpr int quick_kron_scales[] = {10, 12};
constexpr Index quick_grid_side = 48;
constexpr Index quick_roots = 4;
constexpr int quick_runs = 1;

std::vector<GraphSpec> graph_specs(const BenchOptions& options) {
  std::vector<GraphSpec> specs;
  for (int scale : options.kron_scales) {
    GraphSpec spec = options.shape;
    spec.kron_scale = scale;
    specs.push_back(spec);
  }
  for (Index side : options.grid_sides) {
    GraphSpec spec = options.shape;
    spec.grid_side = side;
    specs.push_back(spec);
  }
  for (const std::string& file : options.files) {
    GraphSpec spec = options.shape;
    spec.file = file;
    specs.push_back(spec);
  }
  return specs;
}

Algorithm parse_algorithm(const std::string& name) {
  for (Algorithm algorithm : {Algorithm::bfs, Algorithm::sssp, Algorithm::cc})
    if (to_string(algorithm) == name) return algorithm;
  throw InvalidValue("unknown algorithm '" + name + "' (expected bfs, sssp or cc)");
}

/// The (algorithm, engine, backend) runs asked for, in the order given. Every named engine must
/// exist for one of the algorithms on one of the backends, and every algorithm must get a run:
/// a benchmark that silently leaves something out reads as if it had measured it.
std::vector<EngineChoice> select_runs(const BenchOptions& options) {
  const std::vector<Backend> backends = select_backends(options.backend);
  const bool every_engine =
      std::find(options.engines.begin(), options.engines.end(), "all") != options.engines.end();
  std::vector<EngineChoice> runs;
  std::vector<std::string> unused = every_engine ? std::vector<std::string>{} : options.engines;
  std::string left_out;  // the first algorithm that gets no run, and the engines it has
  for (const std::string& name : options.algorithms) {
    const Algorithm algorithm = parse_algorithm(name);
    std::string known;
    std::size_t added = 0;
    for (const EngineChoice& choice : engines_of(algorithm)) {
      if (std::find(backends.begin(), backends.end(), choice.backend) == backends.end()) continue;
      if (known.find(choice.engine) == std::string::npos)
        known += (known.empty() ? "" : ", ") + choice.engine;
      const bool named = std::find(options.engines.begin(), options.engines.end(),
                                   choice.engine) != options.engines.end();
      if (!every_engine && !named) continue;
      std::erase(unused, choice.engine);
      runs.push_back(choice);
      ++added;
    }
    if (added == 0 && left_out.empty())
      left_out = name + " engine on --backend " + options.backend + " (" + name + " has: " +
                 (known.empty() ? std::string("none") : known) + ")";
  }
  if (!unused.empty())
    throw InvalidValue("--engines: no selected algorithm has an engine '" + unused.front() +
                       "' on --backend " + options.backend + " (see `grb engines`)");
  if (!left_out.empty()) throw InvalidValue("--engines selects no " + left_out);
  return runs;
}

/// `count` distinct vertices with an out-edge, drawn with `seed` (all of them when there are
/// fewer): a search from an isolated vertex measures nothing (Graph500 draws the same way).
std::vector<Index> pick_roots(const io::Graph& graph, Index count, std::uint64_t seed) {
  const Csr<double>& csr = graph.matrix.csr();
  std::vector<Index> candidates;
  for (Index v = 0; v < csr.nrows; ++v)
    if (csr.row_offsets[v + 1] > csr.row_offsets[v]) candidates.push_back(v);
  if (candidates.empty())
    throw InvalidValue(graph.name + " has no edges: there is no root to search from");
  std::mt19937_64 random(seed);
  const std::size_t picked = std::min<std::size_t>(count, candidates.size());
  for (std::size_t k = 0; k < picked; ++k) {
    const std::size_t other = k + random() % (candidates.size() - k);
    std::swap(candidates[k], candidates[other]);
  }
  candidates.resize(picked);
  return candidates;
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

/// Number of BFS levels: one more than the deepest reached vertex's level.
int level_count(const std::vector<double>& levels) {
  double deepest = -1;
  for (double level : levels)
    if (std::isfinite(level)) deepest = std::max(deepest, level);
  return static_cast<int>(deepest) + 1;
}

/// Each level's frontier, and where the engine counts them (`counted`), its edges, direction
/// and time.
nlohmann::ordered_json per_level_json(const std::vector<bfs::LevelStats>& stats, bool counted) {
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  for (const bfs::LevelStats& level : stats) {
    if (!counted) {
      levels.push_back({{"frontier", level.frontier}});
      continue;
    }
    levels.push_back({{"frontier", level.frontier},
                      {"edges", level.edges_inspected},
                      {"direction", bfs::to_string(level.direction)},
                      {"ms", level.milliseconds}});
  }
  return levels;
}

/// One graph x engine x backend over all roots, for the table.
struct Summary {
  std::string graph;
  EngineChoice choice;
  std::vector<double> median_ms;  // per root
  std::vector<double> teps;       // per root
  std::size_t failures = 0;

  double median() const {
    std::vector<double> sorted = median_ms;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t middle = sorted.size() / 2;
    return sorted.empty() ? 0 : sorted.size() % 2 ? sorted[middle]
                                                 : (sorted[middle - 1] + sorted[middle]) / 2;
  }
  /// Graph500's mean of rates: the harmonic mean.
  double harmonic_gteps() const {
    double inverse = 0;
    for (double rate : teps) {
      if (rate <= 0) return 0;
      inverse += 1 / rate;
    }
    return teps.empty() ? 0 : static_cast<double>(teps.size()) / inverse / 1e9;
  }
};

void print_summary(const std::vector<Summary>& summaries) {
  using Align = Table::Align;
  Table table({{"graph"}, {"algorithm"}, {"engine"}, {"backend"}, {"roots", Align::right},
               {"median ms", Align::right}, {"GTEPS (hm)", Align::right},
               {"x best", Align::right}});
  for (const Summary& row : summaries) {
    double best = 0;
    for (const Summary& other : summaries)
      if (other.graph == row.graph && other.choice.algorithm == row.choice.algorithm &&
          other.failures == 0)
        best = std::max(best, other.harmonic_gteps());
    const double gteps = row.harmonic_gteps();
    const std::string algorithm(to_string(row.choice.algorithm));
    const std::string backend(to_string(row.choice.backend));
    if (row.failures > 0) {
      table.add({row.graph, algorithm, row.choice.engine, backend,
                 std::to_string(row.teps.size() + row.failures), "FAILED", "FAILED", "-"});
      continue;
    }
    table.add({row.graph, algorithm, row.choice.engine, backend, std::to_string(row.teps.size()),
               fixed(row.median(), 3), fixed(gteps, 4),
               gteps > 0 ? fixed(best / gteps, 2) : std::string("-")});
  }
  table.print(std::cout);
}

class Bench {
 public:
  explicit Bench(const BenchOptions& options)
      : options_(options), runs_(select_runs(options)), date_(utc_now()) {
    if (!options.json.empty()) {
      json_.open(options.json, std::ios::binary | std::ios::trunc);
      if (!json_) throw IoError(options.json + ": cannot open for writing");
    }
  }

  void run() {
    const std::vector<GraphSpec> specs = graph_specs(options_);
    for (const GraphSpec& spec : specs) run_graph(spec);
    std::cout << "median of " << options_.runs << " runs per root"
              << "; GTEPS: Graph500 harmonic mean over the roots; x best: best GTEPS of the "
                 "graph and algorithm / this engine's\n";
    print_summary(summaries_);
    if (json_.is_open()) {
      json_.close();
      if (!json_) throw IoError(options_.json + ": write failed");
    }
    if (failures_ > 0)
      throw ValidationFailed(std::to_string(failures_) +
                             " run(s) failed validation (no number was recorded for them); "
                             "first: " + first_failure_);
  }

 private:
  void run_graph(const GraphSpec& spec) {
    const LoadedGraph loaded = load_graph(spec);
    const io::Graph& graph = loaded.graph;
    std::cerr << "bench: " << graph.name << ": n " << grouped(graph.matrix.nrows()) << ", m "
              << grouped(graph.matrix.nvals()) << " (" << describe(graph) << "), loaded in "
              << fixed(loaded.load_ms, 1) << " ms" << std::endl;
    const std::vector<Index> roots = pick_roots(graph, options_.roots, options_.shape.seed);
    const std::optional<Matrix<double>> device_graph = device_copy(graph);
    for (const EngineChoice& choice : runs_)
      run_engine(loaded, choice, roots,
                 choice.backend == Backend::cuda && choice.algorithm != Algorithm::cc &&
                         device_graph
                     ? &*device_graph
                     : nullptr);
  }

  /// The graph on the cuda backend, for the device validators of the cuda runs (BFS, SSSP);
  /// nothing when no such run is selected, or when the device has no room for it (the host
  /// validates then, slower but the same).
  std::optional<Matrix<double>> device_copy(const io::Graph& graph) const {
    const bool wanted = std::any_of(runs_.begin(), runs_.end(), [](const EngineChoice& choice) {
      return choice.backend == Backend::cuda && choice.algorithm != Algorithm::cc;
    });
    if (!wanted) return std::nullopt;
    try {
      return graph.matrix.to(Backend::cuda);
    } catch (const OutOfMemory& error) {
      std::cerr << "bench: " << graph.name << ": validating on the host (" << error.what() << ")"
                << std::endl;
      return std::nullopt;
    }
  }

  void run_engine(const LoadedGraph& loaded, const EngineChoice& choice,
                  const std::vector<Index>& all_roots, const Matrix<double>* device_graph) {
    const io::Graph& graph = loaded.graph;
    // Components do not depend on a root: one set of runs.
    const std::vector<Index> roots =
        choice.algorithm == Algorithm::cc ? std::vector<Index>{all_roots.front()} : all_roots;
    const std::string what = graph.name + " " + std::string(to_string(choice.algorithm)) + " " +
                             choice.engine + " (" + std::string(to_string(choice.backend)) + ")";
    std::cerr << "bench: " << what << ": " << roots.size() << " root(s) x " << options_.runs
              << " run(s)" << std::flush;

    Summary summary{graph.name, choice, {}, {}, 0};
    const std::unique_ptr<Runner> runner = make_runner(choice);
    runner->validate_against(device_graph);
    const auto start = std::chrono::steady_clock::now();
    runner->prepare(graph);
    const double prepare_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const std::string device = device_name(choice.backend);

    for (std::size_t r = 0; r < roots.size(); ++r) {
      Measurement m = measure_prepared(*runner, graph, roots[r], options_.runs, r == 0, true);
      m.algorithm = choice.algorithm;
      m.backend = choice.backend;
      m.engine = choice.engine;
      m.prepare_ms = prepare_ms;
      if (!m.validation->ok) {
        fail(summary, failure(m) + " (root " + std::to_string(external_vertex(graph, roots[r])) +
                          ")");
        continue;
      }
      nlohmann::ordered_json record = to_json(graph, loaded.load_ms, m);
      record.erase("source");
      record["root"] = choice.algorithm == Algorithm::cc
                           ? nlohmann::ordered_json(nullptr)
                           : nlohmann::ordered_json(external_vertex(graph, roots[r]));
      record["levels"] = nullptr;
      record["edges_inspected"] = nullptr;
      record["per_level"] = nullptr;
      if (choice.algorithm == Algorithm::bfs && !runner->counts_levels()) {
        record["levels"] = level_count(m.values);
        record["per_level"] = per_level_json(runner->level_stats(), false);
      } else if (choice.algorithm == Algorithm::bfs) {
        record["levels"] = level_count(m.values);
        Offset inspected = 0;
        for (const bfs::LevelStats& level : runner->level_stats()) inspected += level.edges_inspected;
        record["edges_inspected"] = inspected;
        runner->time_levels(true);
        runner->run(roots[r]);
        runner->time_levels(false);
        const validate::Result timed_levels = runner->validate(graph, roots[r]);
        if (!timed_levels.ok) {
          m.validation = timed_levels;
          fail(summary, failure(m) + " (root " + std::to_string(external_vertex(graph, roots[r])) +
                            ", run with per-level timing)");
          continue;
        }
        record["per_level"] = per_level_json(runner->level_stats(), true);
      }
      record["validated_on"] = device_graph ? "device" : "host";
      record["device"] = device;
      record["commit"] = GRB_COMMIT;
      record["date"] = date_;
      if (json_.is_open()) json_ << record.dump() << '\n' << std::flush;
      summary.median_ms.push_back(m.median_ms);
      summary.teps.push_back(m.teps());
    }
    if (summary.failures == 0)
      std::cerr << ": median " << fixed(summary.median(), 3) << " ms, "
                << fixed(summary.harmonic_gteps(), 4) << " GTEPS" << std::endl;
    summaries_.push_back(std::move(summary));
  }

  void fail(Summary& summary, const std::string& message) {
    if (summary.failures++ == 0) std::cerr << std::endl;
    std::cerr << "bench: VALIDATION FAILED: " << message << std::endl;
    if (failures_++ == 0) first_failure_ = message;
  }

  const BenchOptions& options_;
  const std::vector<EngineChoice> runs_;
  const std::string date_;
  std::ofstream json_;
  std::vector<Summary> summaries_;
  std::size_t failures_ = 0;
  std::string first_failure_;
};

void run_bench(BenchOptions options, bool roots_given, bool runs_given) {
  if (options.quick) {
    if (options.kron_scales.empty() && options.grid_sides.empty() && options.files.empty()) {
      options.kron_scales.assign(std::begin(quick_kron_scales), std::end(quick_kron_scales));
      options.grid_sides = {quick_grid_side};
    }
    if (!roots_given) options.roots = quick_roots;
    if (!runs_given) options.runs = quick_runs;
  }
  if (options.kron_scales.empty() && options.grid_sides.empty() && options.files.empty())
    throw InvalidValue("no graph: give --kron, --grid or --graph (or --quick)");
  Bench(options).run();
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* command = app.add_subcommand(
      "bench", "benchmark graphs x algorithms x engines x backends x roots, every run "
               "validated: a table, and JSON lines with --json");
  command->add_option("--kron", options->kron_scales,
                      "Graph500 Kronecker graphs of these scales, e.g. 20,22")
      ->delimiter(',')
      ->check(CLI::Range(1, 31));
  command->add_option("--grid", options->grid_sides, "road-like grids of these sides, e.g. 1000")
      ->delimiter(',')
      ->check(CLI::Range(Index{1}, Index{65535}));
  command->add_option("--graph", options->files, "graph files (any format `grb bfs` reads)");
  command->add_option("--algorithms", options->algorithms, "bfs, sssp, cc (comma-separated)")
      ->delimiter(',')
      ->check(CLI::IsMember({"bfs", "sssp", "cc"}))
      ->default_str("bfs,sssp,cc");
  command->add_option("--engines", options->engines,
                      "engine names (comma-separated; see `grb engines`), or all")
      ->delimiter(',')
      ->default_str("all");
  command->add_option("--backend", options->backend, "cpu, cuda, or all available backends")
      ->check(CLI::IsMember({"cpu", "cuda", "all"}))
      ->default_str("all");
  CLI::Option* roots = command
      ->add_option("--roots", options->roots,
                   "random roots of out-degree > 0 per graph, the same for every engine")
      ->check(CLI::Range(Index{1}, Index{1} << 20))
      ->default_str("16");
  CLI::Option* runs =
      command->add_option("--runs", options->runs, "timed runs per root; the median is reported")
          ->check(CLI::Range(1, 1000))
          ->default_str("3");
  command->add_option("--json", options->json, "write one JSON object per root run to FILE");
  command->add_flag("--quick", options->quick,
                    "a laptop-size check: kron " + std::to_string(quick_kron_scales[0]) + "," +
                        std::to_string(quick_kron_scales[1]) + " and grid " +
                        std::to_string(quick_grid_side) + " unless graphs are given, " +
                        std::to_string(quick_roots) + " roots and " + std::to_string(quick_runs) +
                        " run unless given");
  command->add_option("--seed", options->shape.seed, "the generators' and the roots' seed")
      ->default_val(1);
  command->add_option("--edge-factor", options->shape.edge_factor, "edges per vertex of --kron")
      ->check(CLI::Range(1, 1024))
      ->default_val(16);
  command->add_option("--drop", options->shape.drop_fraction, "fraction of --grid edges dropped")
      ->check(CLI::Range(0.0, 1.0))
      ->default_val(0.25);
  command->add_flag("--symmetrize", options->shape.symmetrize,
                    "store both directions of every edge of the --graph files");
  command->add_option("--format", options->shape.format, "the files' format (default: from the name)")
      ->check(CLI::IsMember({"auto", "mtx", "edges", "ldbc", "binary"}))
      ->default_str("auto");
  command->callback([options, roots, runs] {
    run_bench(*options, roots->count() > 0, runs->count() > 0);
  });
}

}  // namespace grb::app
