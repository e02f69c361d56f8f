#include "timing.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>

#include "../../device_memory.hpp"
#include "../../host_memory.hpp"
#include "../../measure.hpp"
#include "../../progress.hpp"
#include "../../table.hpp"
#include "grb/error.hpp"
#include "output.hpp"
#include "sssp/engine.hpp"
#include "subject.hpp"

namespace grb::app::bench {
namespace {

using Clock = std::chrono::steady_clock;

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
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

bool rooted(Algorithm algorithm) {
  return algorithm == Algorithm::bfs || algorithm == Algorithm::sssp;
}

/// Whether `entry` has a validator that runs on the device (BFS and SSSP engines on cuda).
bool validated_on_device(const Entry& entry) {
  return entry.backend == Backend::cuda && rooted(entry.algorithm);
}

class Bench {
 public:
  explicit Bench(const Options& options)
      : options_(options), entries_(options.entries), date_(utc_now()) {
    if (!options.json.empty()) {
      json_.open(options.json, std::ios::binary | std::ios::trunc);
      if (!json_) throw IoError(options.json + ": cannot open for writing");
    }
  }

  void run() {
    for (const GraphSpec& spec : options_.graphs) run_graph(spec);
    std::cout << "median of " << options_.runs << (options_.warm ? " warm" : " cold")
              << " run(s) per root; GTEPS: Graph500 harmonic mean over the roots; x best: best "
                 "GTEPS of the graph and algorithm / this engine's\n";
    print_summaries(std::cout, summaries_);
    if (json_.is_open()) {
      json_.close();
      if (!json_) throw IoError(options_.json + ": write failed");
    }
    if (failures_ > 0)
      throw ValidationFailed(std::to_string(failures_) +
                             " run(s) failed (no number was recorded for them); first: " +
                             first_failure_);
  }

 private:
  /// Per graph: each algorithm's references, one per root (CC and TC: one).
  using References = std::map<Algorithm, std::vector<Reference>>;

  void run_graph(const GraphSpec& spec) {
    const LoadedGraph loaded = load_graph(spec);
    const io::Graph& graph = loaded.graph;
    progress_ << "bench: " << graph.name << ": n " << grouped(vertices(graph)) << ", m "
              << grouped(stored_entries(graph)) << " (" << describe(graph) << "), loaded in "
              << fixed(loaded.load_ms, 1) << " ms, host memory peak "
              << mebibytes(loaded.peak_host_bytes) << " MiB" << std::endl;
    const std::vector<Index> roots = pick_roots(graph, options_.roots, options_.seed);
    const std::optional<Matrix<double>> device_graph = device_copy(graph);
    References references;
    std::optional<sssp::WeightSummary> lengths;
    for (const Entry& entry : entries_) {
      double delta = 0;
      if (entry.delta_factor > 0) {
        const auto rule = sssp::find_engine(entry.engine, entry.backend).default_delta;
        if (!rule) {
          std::cerr << "bench: " << describe_entry(graph, entry)
                    << ": the engine has no bucket width; --delta-factors does not apply"
                    << std::endl;
          continue;
        }
        if (!lengths) lengths = sssp::check_weights(graph.matrix, "grb bench");
        delta = entry.delta_factor * rule(*lengths);
      }
      const Matrix<double>* validator =
          validated_on_device(entry) && device_graph ? &*device_graph : nullptr;
      Summary summary;
      summary.graph = graph.name;
      summary.stored_entries = stored_entries(graph);
      summary.entry = entry;
      try {
        run_entry(loaded, entry, delta, roots, validator, references[entry.algorithm], summary);
      } catch (const Error& error) {  // out of device memory, a refused graph: this entry only
        fail(summary, describe_entry(graph, entry) + ": " + error.what(), false);
      }
      if (summary.failures == 0 && !summary.teps.empty())
        progress_ << ": median " << fixed(summary.median(), 3) << " ms, "
                  << fixed(summary.harmonic_gteps(), 4) << " GTEPS" << std::endl;
      if (!summary.teps.empty() || summary.failures > 0) summaries_.push_back(std::move(summary));
    }
  }

  /// The graph on the cuda backend for the device validators; nothing when no entry uses
  /// them, or when the device has no room for it (the host validates then, slower but the same).
  std::optional<Matrix<double>> device_copy(const io::Graph& graph) const {
    if (std::none_of(entries_.begin(), entries_.end(), validated_on_device)) return std::nullopt;
    try {
      return graph.matrix.to(Backend::cuda);
    } catch (const OutOfMemory& error) {
      std::cerr << "bench: " << graph.name << ": validating on the host (" << error.what() << ")"
                << std::endl;
      return std::nullopt;
    }
  }

  static std::string describe_entry(const io::Graph& graph, const Entry& entry) {
    return graph.name + " " + std::string(to_string(entry.algorithm)) + " " +
           engine_label(entry, "") + " (" + std::string(to_string(entry.backend)) + ")";
  }

  void run_entry(const LoadedGraph& loaded, const Entry& entry, double delta,
                 const std::vector<Index>& all_roots, const Matrix<double>* validator,
                 std::vector<Reference>& references, Summary& summary) {
    const io::Graph& graph = loaded.graph;
    const std::vector<Index> roots =
        rooted(entry.algorithm) ? all_roots : std::vector<Index>{all_roots.front()};
    progress_ << "bench: " << describe_entry(graph, entry) << ": " << roots.size()
              << " root(s) x " << options_.runs << " run(s)" << std::flush;

    const std::unique_ptr<Runner> runner = make_runner(entry, delta);
    runner->validate_against(validator);
    EntryRun run{&graph, loaded.load_ms, entry, {}, 0, 0, options_.warm};
    run.load_peak_host_bytes = loaded.peak_host_bytes;
    reset_peak_host_bytes();
    reset_peak_device_bytes();
    const std::size_t device_before = used_device_bytes();
    const auto note_peaks = [&] {
      const std::size_t device = peak_device_bytes();
      run.peak_host_bytes = summary.peak_host_bytes = peak_host_bytes();
      run.peak_device_bytes = summary.peak_device_bytes =
          device > device_before ? device - device_before : 0;
    };
    const Clock::time_point prepared = Clock::now();
    runner->prepare(graph);
    run.prepare_ms = milliseconds_since(prepared);
    run.chosen = summary.chosen = runner->chosen();
    run.device_bytes = runner->device_bytes();

    if (references.empty()) {  // the first engine of its algorithm on this graph: untimed
      // Under --seconds too: a root left without a reference gets one from the first run
      // validated in full, by whichever engine that is.
      references.resize(roots.size());
      const Clock::time_point start = Clock::now();
      for (std::size_t r = 0; r < roots.size() && !out_of_time(r, start); ++r) {
        runner->run(roots[r]);
        (void)runner->check(graph, roots[r], references[r]);  // a failure: the timed run says
      }
    }
    runner->run(roots.front());  // warm-up: module load, first touch, lazily built transposes
    const std::string device = device_name(entry.backend);
    const Clock::time_point started = Clock::now();
    for (std::size_t r = 0; r < roots.size(); ++r) {
      if (out_of_time(r, started)) {
        summary.skipped = roots.size() - r;
        progress_ << " (--seconds: " << summary.skipped << " root(s) left out)";
        break;
      }
      RootRun root;
      root.root = external_vertex(graph, roots[r]);
      std::string problem;
      for (int k = 0; k < options_.runs && problem.empty(); ++k) {
        if (options_.warm) runner->run(roots[r]);
        const Clock::time_point start = Clock::now();
        runner->run(roots[r]);
        root.run_ms.push_back(milliseconds_since(start));
        problem = runner->check(graph, roots[r], references[r]);
      }
      if (problem.empty() && runner->counts_levels()) {
        runner->time_levels(true);
        runner->run(roots[r]);
        runner->time_levels(false);
        problem = runner->check(graph, roots[r], references[r]);
        if (!problem.empty()) problem += " (the run with per-level timing)";
      }
      if (!problem.empty()) {
        fail(summary, describe_entry(graph, entry) +
                          (rooted(entry.algorithm) ? ", root " + std::to_string(root.root) : "") +
                          ": " + problem,
             true);
        continue;
      }
      root.median_ms = median(root.run_ms);
      root.input_edges = references[r].input_edges;
      root.work = runner->work();
      root.levels = runner->level_stats();
      root.levels_counted = runner->counts_levels();
      root.validated_on = runner->validated_on();
      note_peaks();
      if (json_.is_open())
        json_ << root_record(run, root, device, options_.commit, date_).dump() << '\n'
              << std::flush;
      summary.median_ms.push_back(root.median_ms);
      summary.teps.push_back(root.teps());
      if (root.work.edges_inspected)
        summary.edges_inspected.push_back(static_cast<double>(*root.work.edges_inspected));
    }
  }

  /// Whether --seconds is spent since `start`, before root `r` (the first root always runs).
  bool out_of_time(std::size_t r, Clock::time_point start) const {
    return r > 0 && options_.seconds > 0 && milliseconds_since(start) > options_.seconds * 1e3;
  }

  void fail(Summary& summary, const std::string& message, bool validation) {
    if (summary.failures++ == 0) progress_ << std::endl;
    std::cerr << "bench: " << (validation ? "VALIDATION FAILED: " : "FAILED: ") << message
              << std::endl;
    if (failures_++ == 0) first_failure_ = message;
  }

  const Options& options_;
  const std::vector<Entry> entries_;
  // What is running, on stderr while it is a terminal; logs and pipes get the results only.
  std::ostream null_stream_{nullptr};
  std::ostream& progress_ = progress_wanted() ? std::cerr : null_stream_;
  const std::string date_;
  std::ofstream json_;
  std::vector<Summary> summaries_;
  std::size_t failures_ = 0;
  std::string first_failure_;
};

}  // namespace

void run_benchmark(const Options& options) { Bench(options).run(); }

}  // namespace grb::app::bench
