// Every BFS engine side by side on generated graphs: a Graph500 Kronecker graph and a 2-D grid
// (road-like, high diameter). For each graph: the same random roots of degree > 0 for every
// engine; every run validated; per engine the median ms per BFS, Graph500 TEPS (input
// undirected edges in the traversed component / time, harmonic mean over roots), edges
// inspected per BFS, levels, and the device memory it holds. Prints a table and JSON lines.
//
// Timing: run() is synchronous (it returns when the search is done), so a steady clock around
// it is the search's wall time, host round trips included; graph generation, prepare()
// (host -> device copies, transposes) and result() copies are outside it (prepare is reported).
// Each run follows the last run's result() and validation, as Graph500's loop does: the host's
// caches and the driver are cold then, which costs an engine in proportion to its host work
// per search. That host work is the same after every timed run, whichever engine it is and
// wherever it stands in the list (reference levels, below). --warm first runs each root's
// search once untimed, so that the timed run finds them warm (searches one after another,
// nothing in between): the two measures apart show that cost (docs/bfs.md, "Measuring").
//
// Validation: before any engine is timed on a graph, the first engine's result for each root is
// validated in full and kept as that root's reference levels, with the input edges they
// traverse (untimed). Every timed run must then have the reference levels, and its parents go
// through the Graph500 rules: on the device for the cuda engines (grb::validate::bfs_on_device,
// against a copy of the graph held there: on the host a kron24 search took about a second to
// check); else on the host, where the tree edges parent[v] -> v must be graph edges with
// level[parent[v]] == level[v] - 1. A root whose reference run failed is validated in full at
// each engine's first good result instead.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <grb/generate.hpp>
#include <grb/kernel_loading.hpp>
#include <grb/matrix.hpp>
#include <grb/types.hpp>

#include "bfs/engine.hpp"
#include "validate/on_device.hpp"
#include "validate/validate.hpp"

namespace {

using grb::Index;
using grb::Offset;

struct Graph {
  std::string name;
  grb::Matrix<bool> matrix;
  Index roots;
};

std::vector<Index> random_roots(const grb::Matrix<bool>& graph, Index count, std::uint64_t seed) {
  const auto& offsets = graph.csr().row_offsets;
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<Index> vertex(0, graph.nrows() - 1);
  std::vector<Index> roots;
  for (std::size_t tries = 0; roots.size() < count && tries < 100 * std::size_t(count) + 1000; ++tries) {
    const Index v = vertex(random);
    if (offsets[v + 1] > offsets[v]) roots.push_back(v);
  }
  return roots;
}

/// Input undirected edges in the component traversed from the root (Graph500's TEPS numerator):
/// the out-degree sum of the reached vertices, halved (the graphs are symmetric, no self loops).
Offset traversed_edges(const grb::Matrix<bool>& graph, const std::vector<std::int32_t>& level) {
  const auto& offsets = graph.csr().row_offsets;
  Offset sum = 0;
  for (Index v = 0; v < graph.nrows(); ++v)
    if (level[v] >= 0) sum += offsets[v + 1] - offsets[v];
  return sum / 2;
}

/// The cheap per-run check against levels already validated for this root.
std::string check_against(const grb::Matrix<bool>& graph, const std::vector<std::int32_t>& valid,
                          const grb::bfs::Result& result, Index root) {
  if (result.level != valid) return "levels differ from the validated levels";
  const auto& csr = graph.csr();
  for (Index v = 0; v < graph.nrows(); ++v) {
    const Index p = result.parent[v];
    if (valid[v] < 0) {
      if (p != grb::no_index) return "unreached vertex " + std::to_string(v) + " has a parent";
      continue;
    }
    if (v == root) {
      if (p != root) return "the root is not its own parent";
      continue;
    }
    if (p >= graph.nrows() || valid[p] != valid[v] - 1)
      return "vertex " + std::to_string(v) + ": parent " + std::to_string(p) + " is not one level up";
    const Index* begin = csr.col_indices.data() + csr.row_offsets[p];
    const Index* end = csr.col_indices.data() + csr.row_offsets[p + 1];
    if (!std::binary_search(begin, end, v))
      return "tree edge " + std::to_string(p) + " -> " + std::to_string(v) + " is not an edge";
  }
  return {};
}

/// The graph on the device, for the device validator; nothing without a GPU, or when the device
/// has no room for it (the host validates then, slower but the same).
std::optional<grb::Matrix<bool>> device_copy(const Graph& graph) {
#if GRB_WITH_CUDA
  if (!grb::cuda_available()) return std::nullopt;
  try {
    return graph.matrix.to(grb::Backend::cuda);
  } catch (const grb::OutOfMemory& error) {
    std::fprintf(stderr, "%s: validating on the host (%s)\n", graph.name.c_str(), error.what());
  }
#else
  (void)graph;
#endif
  return std::nullopt;
}

/// The Graph500 verdict on one run: its levels must be the root's reference levels where there
/// are some; its parents are checked on the device where the graph is there and the engine's
/// result is too, else on the host: by check_against, or in full where there is no reference.
std::string validate_run(const Graph& graph, const std::optional<grb::Matrix<bool>>& on_device,
                         grb::Backend backend, const std::vector<std::int32_t>& reference,
                         const grb::bfs::Result& result, Index root) {
  if (!reference.empty() && result.level != reference)
    return "levels differ from the validated levels";
#if GRB_WITH_CUDA
  if (on_device && backend == grb::Backend::cuda) {
    const auto verdict =
        grb::validate::bfs_on_device(*on_device, root, result.level, result.parent);
    return verdict.ok ? std::string() : verdict.message;
  }
#else
  (void)on_device;
  (void)backend;
#endif
  if (!reference.empty()) return check_against(graph.matrix, reference, result, root);
  const auto verdict =
      grb::validate::bfs(graph.matrix, root, std::span<const std::int32_t>(result.level),
                         std::span<const Index>(result.parent));
  return verdict.ok ? std::string() : verdict.message;
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  grb::load_kernels_eagerly();  // before anything touches the GPU
  CLI::App app{"Every BFS engine on a Kronecker graph and a grid: ms, Graph500 TEPS, validated"};
  int scale = 20;
  Index side = 1000;
  Index roots = 64;
  Index grid_roots = 0;
  std::vector<std::string> only;
  std::string json_path;
  bool cpu = false;
  bool levels = false;
  app.add_option("--scale", scale, "Kronecker scale (2^scale vertices, 16 edges each); 0 skips")
      ->capture_default_str();
  app.add_option("--grid", side, "grid side (side^2 vertices); 0 skips")->capture_default_str();
  app.add_option("--roots", roots, "random roots of degree > 0 per graph")->capture_default_str();
  app.add_option("--grid-roots", grid_roots, "roots on the grid (default: --roots)");
  app.add_option("--engines", only, "engines to run, comma-separated (default: all)")
      ->delimiter(',');
  app.add_flag("--cpu", cpu, "also run the cpu linear-algebra engine");
  app.add_flag("--levels", levels, "one more run per engine and graph with per-level timing, as JSON");
  app.add_option("--json", json_path, "write JSON lines here (default: stdout after the table)");
  bool warm = false;
  app.add_flag("--warm", warm,
               "time each root's second search, run right after an untimed first one (host "
               "caches and driver warm); default: the first, after the last root's validation");
  bool blocking = false;
  app.add_flag("--blocking", blocking,
               "blocking mode: no deferred, fused operations in the linear-algebra engine "
               "(grb/deferred.hpp), for comparison");
  CLI11_PARSE(app, argc, argv);
  if (blocking) grb::set_mode(grb::Mode::blocking);

  try {
    std::vector<Graph> graphs;
    if (scale > 0) {
      auto start = std::chrono::steady_clock::now();
      graphs.push_back({"kron" + std::to_string(scale),
                        grb::pattern(grb::generate::kronecker(scale)), roots});
      std::fprintf(stderr, "generated %s in %.0f ms\n", graphs.back().name.c_str(),
                   milliseconds_since(start));
    }
    if (side > 0) {
      auto start = std::chrono::steady_clock::now();
      graphs.push_back({"grid" + std::to_string(side), grb::pattern(grb::generate::grid(side)),
                        grid_roots > 0 ? grid_roots : roots});
      std::fprintf(stderr, "generated %s in %.0f ms\n", graphs.back().name.c_str(),
                   milliseconds_since(start));
    }

    for (const std::string& name : only) {  // a misspelt engine is an error, not an empty table
      const auto& all = grb::bfs::engines();
      if (std::none_of(all.begin(), all.end(), [&](const auto& info) { return info.name == name; }))
        (void)grb::bfs::find_engine(name, grb::Backend::cpu);  // throws, listing the engines
    }
    std::vector<const grb::bfs::EngineInfo*> engines;
    for (const auto& info : grb::bfs::engines()) {
      if (info.backend == grb::Backend::cuda && !grb::cuda_available()) continue;
      if (info.backend == grb::Backend::cpu && !cpu) continue;
      if (!only.empty() && std::find(only.begin(), only.end(), info.name) == only.end()) continue;
      engines.push_back(&info);
    }

    std::vector<nlohmann::json> lines;
    std::size_t failed_runs = 0;  // any: the exit status says so, after the table and the JSON
    std::printf("%-10s %-22s %-6s %10s %10s %10s %12s %7s %10s\n", "graph", "engine", "device",
                "ms(med)", "ms(mean)", "GTEPS(hm)", "edges/bfs", "levels", "dev MiB");
    for (const Graph& graph : graphs) {
      const std::vector<Index> sources = random_roots(graph.matrix, graph.roots, 2024);
      std::vector<std::vector<std::int32_t>> validated(sources.size());
      std::vector<Offset> edges(sources.size());
      const std::optional<grb::Matrix<bool>> on_device = device_copy(graph);
      for (const auto* info : engines) {
        std::string engine_name(info->name);
        auto engine = info->make();
        auto start = std::chrono::steady_clock::now();
        engine->prepare(graph.matrix);
        const double prepare_ms = milliseconds_since(start);
        if (!engine->chosen().empty()) engine_name += "->" + std::string(engine->chosen());
        // The reference levels, untimed. Set up inside the timed loop, the first engine's runs
        // were followed by more host work than the others' (a copy of the levels and a pass
        // over the graph's offsets), which made its searches colder: direction-optimized listed
        // first took 0.386 ms a kron22 search against 0.327 listed second (docs/bfs.md,
        // "Measuring").
        if (info == engines.front())
          for (std::size_t r = 0; r < sources.size(); ++r) {
            engine->run(sources[r], {});
            grb::bfs::Result result = engine->result();
            if (!validate_run(graph, on_device, info->backend, {}, result, sources[r]).empty())
              continue;  // the timed run reports it
            edges[r] = traversed_edges(graph.matrix, result.level);
            validated[r] = std::move(result.level);
          }
        engine->run(sources.front(), {});  // warm-up: module load, first-touch, caches
        std::vector<double> times;
        double inverse_teps = 0;
        double inspected = 0, level_count = 0;
        std::size_t failures = 0;
        std::string first_failure;
        for (std::size_t r = 0; r < sources.size(); ++r) {
          if (warm) engine->run(sources[r], {});
          start = std::chrono::steady_clock::now();
          engine->run(sources[r], {});
          const double ms = milliseconds_since(start);
          const grb::bfs::Result result = engine->result();
          const std::string problem =
              validate_run(graph, on_device, info->backend, validated[r], result, sources[r]);
          if (problem.empty() && validated[r].empty()) {  // no reference: validated in full
            validated[r] = result.level;
            edges[r] = traversed_edges(graph.matrix, result.level);
          }
          if (!problem.empty()) {
            if (failures++ == 0) first_failure = "root " + std::to_string(sources[r]) + ": " + problem;
            continue;
          }
          times.push_back(ms);
          inverse_teps += ms / 1e3 / double(std::max<Offset>(edges[r], 1));
          for (const auto& level : result.levels) inspected += double(level.edges_inspected);
          level_count += double(result.levels.size());
        }
        const std::size_t ok = times.size();
        std::vector<double> sorted = times;
        std::sort(sorted.begin(), sorted.end());
        const double median = ok ? sorted[ok / 2] : 0;
        double mean = 0;
        for (double t : times) mean += t / double(std::max<std::size_t>(ok, 1));
        const double gteps = ok && inverse_teps > 0 ? double(ok) / inverse_teps / 1e9 : 0;
        const double device_mib = double(engine->device_bytes()) / (1 << 20);
        std::printf("%-10s %-22s %-6s %10.3f %10.3f %10.3f %12.0f %7.1f %10.1f%s\n",
                    graph.name.c_str(), engine_name.c_str(),
                    std::string(grb::to_string(info->backend)).c_str(), median, mean, gteps,
                    ok ? inspected / double(ok) : 0, ok ? level_count / double(ok) : 0,
                    device_mib, failures ? "  VALIDATION FAILED" : "");
        if (failures) std::printf("    %zu runs failed; first: %s\n", failures, first_failure.c_str());
        failed_runs += failures;
        std::fflush(stdout);
        nlohmann::json line{{"graph", graph.name},
                            {"n", graph.matrix.nrows()},
                            {"m", graph.matrix.nvals()},
                            {"engine", engine_name},
                            {"backend", std::string(grb::to_string(info->backend))},
                            {"roots", sources.size()},
                            {"warm", warm},
                            {"validated", ok},
                            {"failed", failures},
                            {"ms_median", median},
                            {"ms_mean", mean},
                            {"ms", times},
                            {"gteps_harmonic", gteps},
                            {"edges_inspected_mean", ok ? inspected / double(ok) : 0},
                            {"levels_mean", ok ? level_count / double(ok) : 0},
                            {"prepare_ms", prepare_ms},
                            {"device_bytes", engine->device_bytes()}};
        if (levels) {
          engine->run(sources.front(), grb::bfs::Options{.parents = true, .level_timing = true});
          nlohmann::json per_level = nlohmann::json::array();
          for (const auto& level : engine->result().levels)
            per_level.push_back({{"frontier", level.frontier},
                                 {"edges", level.edges_inspected},
                                 {"direction", std::string(grb::bfs::to_string(level.direction))},
                                 {"ms", level.milliseconds}});
          line["levels"] = per_level;
        }
        lines.push_back(std::move(line));
      }
    }
    if (json_path.empty()) {
      for (const auto& line : lines) std::printf("%s\n", line.dump().c_str());
    } else {
      std::ofstream out(json_path);
      for (const auto& line : lines) out << line.dump() << '\n';
      if (!out) throw grb::IoError("bfs_engines: cannot write " + json_path);
    }
    if (failed_runs > 0) {
      std::fprintf(stderr, "bfs_engines: %zu runs failed validation (see the table)\n", failed_runs);
      return 1;
    }
  } catch (const grb::Error& error) {
    std::fprintf(stderr, "bfs_engines: %s\n", error.what());
    return 1;
  }
  return 0;
}
