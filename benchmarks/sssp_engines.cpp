// Every SSSP engine side by side: Kronecker graphs (lengths uniform in [0, 1)), grids (integer
// lengths uniform in [1, 64], 25% of the grid edges dropped) and the Berlin road network (its
// real link lengths). For each graph: the same random roots of degree > 0 for every engine;
// every run validated; per engine the median ms per run, the ratio to the graph's best engine,
// rounds, buckets and edges inspected per run, and the device memory it holds. Prints a table
// and JSON lines.
//
// Timing: run() is synchronous (it returns when distances and parents are complete), so a
// steady clock around it is the run's wall time, host round trips and the parent pass included;
// graph generation, prepare() (checks, host -> device copies, light/heavy split) and result()
// copies are outside it (prepare is reported).
//
// Validation: for each root the first engine's result goes through grb::validate::sssp; every
// other run must then have bit-identical distances (see tests/test_sssp_engines.cpp for why
// exact equality holds with floating-point lengths), and each tree edge parent[v] -> v must be a
// graph edge achieving distance[v], with the tree reaching the root from every reached vertex.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <grb/generate.hpp>
#include <grb/io.hpp>
#include <grb/kernel_loading.hpp>
#include <grb/matrix.hpp>
#include <grb/types.hpp>

#include "sssp/engine.hpp"
#include "validate/validate.hpp"

namespace {

using grb::Index;
using grb::Offset;

struct Graph {
  std::string name;
  grb::Matrix<double> matrix;
};

std::vector<Index> random_roots(const grb::Matrix<double>& graph, Index count, std::uint64_t seed) {
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

/// The cheap per-run check against distances already validated for this root.
std::string check_against(const grb::Matrix<double>& graph, const std::vector<double>& valid,
                          const grb::sssp::Result& result, Index root) {
  if (result.distance.size() != valid.size()) return "wrong number of distances";
  for (std::size_t v = 0; v < valid.size(); ++v)
    if (result.distance[v] != valid[v])
      return "vertex " + std::to_string(v) + ": distance " + std::to_string(result.distance[v]) +
             " instead of the validated " + std::to_string(valid[v]);
  const auto& csr = graph.csr();
  const Index n = graph.nrows();
  if (result.parent.size() != n) return "no parents";
  for (Index v = 0; v < n; ++v) {
    const Index p = result.parent[v];
    if (std::isinf(valid[v])) {
      if (p != grb::no_index) return "unreached vertex " + std::to_string(v) + " has a parent";
      continue;
    }
    if (v == root) {
      if (p != root) return "the root is not its own parent";
      continue;
    }
    if (p >= n) return "reached vertex " + std::to_string(v) + " has no parent";
    const Index* begin = csr.col_indices.data() + csr.row_offsets[p];
    const Index* end = csr.col_indices.data() + csr.row_offsets[p + 1];
    const Index* at = std::lower_bound(begin, end, v);
    if (at == end || *at != v)
      return "tree edge " + std::to_string(p) + " -> " + std::to_string(v) + " is not an edge";
    if (valid[p] + csr.values[std::size_t(at - csr.col_indices.data())] != valid[v])
      return "tree edge " + std::to_string(p) + " -> " + std::to_string(v) + " does not achieve the distance";
  }
  // Every reached vertex leads to the root: walk up, memoizing, with a step bound per walk.
  std::vector<char> reaches(n, 0);
  reaches[root] = 1;
  std::vector<Index> walk;
  for (Index v = 0; v < n; ++v) {
    if (std::isinf(valid[v]) || reaches[v]) continue;
    walk.clear();
    Index u = v;
    while (!reaches[u]) {
      walk.push_back(u);
      if (walk.size() > n) return "the parents of vertex " + std::to_string(v) + " form a cycle";
      u = result.parent[u];
    }
    for (Index w : walk) reaches[w] = 1;
  }
  return {};
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

Graph make_graph(const std::string& name, const std::string& data_dir) {
  if (name.rfind("kron", 0) == 0) {
    const int scale = std::stoi(name.substr(4));
    // The GPU generator gives the same matrix to the bit (generate.hpp) in seconds where the
    // host's sort takes minutes at scale 22-24; the engines and the validator take a host copy.
    if (grb::cuda_available())
      return {name, grb::generate::to_matrix(grb::generate::kronecker_edges_cuda(scale))
                        .to(grb::Backend::cpu)};
    return {name, grb::generate::kronecker(scale)};
  }
  if (name.rfind("grid", 0) == 0)
    return {name, grb::generate::grid(static_cast<Index>(std::stoul(name.substr(4))))};
  if (name == "berlin") return {name, grb::io::read_graph(data_dir + "/road/berlin-center.mtx").matrix};
  throw grb::InvalidValue("sssp_engines: unknown graph '" + name +
                          "' (kronSCALE, gridSIDE or berlin)");
}

}  // namespace

int main(int argc, char** argv) {
  grb::load_kernels_eagerly();  // before anything touches the GPU
  CLI::App app{"Every SSSP engine on Kronecker graphs, grids and Berlin's roads: ms, validated"};
  std::vector<std::string> graph_names{"kron20", "kron22", "kron24", "grid1000", "grid2000", "berlin"};
  Index roots = 8;
  double seconds = 20;
  std::vector<std::string> only;
  std::vector<double> delta_factors;
  std::string json_path;
  std::string data_dir = "data";
  if (const char* dir = std::getenv("GRB_DATA_DIR")) data_dir = dir;
  bool cpu = false;
  app.add_option("--graphs", graph_names, "graphs: kronSCALE, gridSIDE, berlin")->capture_default_str();
  app.add_option("--roots", roots, "random roots of degree > 0 per graph")->capture_default_str();
  app.add_option("--seconds", seconds,
                 "per engine and graph, stop timing further roots after this long (slow "
                 "linear-algebra engines on big grids); at least one root always runs")
      ->capture_default_str();
  app.add_option("--engines", only, "engines to run (default: all)");
  app.add_option("--delta-factors", delta_factors,
                 "also run near-far and near-far-persistent with delta = factor x the default");
  app.add_flag("--cpu", cpu, "also run the cpu engines");
  app.add_option("--data", data_dir, "the data directory (default: $GRB_DATA_DIR, else ./data)");
  app.add_option("--json", json_path, "write JSON lines here (default: stdout after the table)");
  CLI11_PARSE(app, argc, argv);

  try {
    struct Run {
      const grb::sssp::EngineInfo* info;
      double factor;  // of the default delta; 0 = the engine's default
    };
    std::vector<Run> runs;
    for (const auto& info : grb::sssp::engines()) {
      if (info.backend == grb::Backend::cuda && !grb::cuda_available()) continue;
      if (info.backend == grb::Backend::cpu && !cpu) continue;
      if (!only.empty() && std::find(only.begin(), only.end(), info.name) == only.end()) continue;
      runs.push_back({&info, 0});
      // The sweep is for the hand-written worklist: the linear-algebra delta-stepping's rounds
      // are too slow on the big grids to run three times over.
      if (info.name.starts_with("near-far"))
        for (double factor : delta_factors) runs.push_back({&info, factor});
    }

    std::vector<nlohmann::json> lines;
    std::printf("%-9s %-22s %-5s %9s %7s %9s %8s %7s %13s %8s %8s\n", "graph", "engine", "dev",
                "ms(med)", "x best", "delta", "rounds", "buckets", "edges/run", "prep ms",
                "dev MiB");
    for (const std::string& name : graph_names) {
      auto start = std::chrono::steady_clock::now();
      const Graph graph = make_graph(name, data_dir);
      std::fprintf(stderr, "generated %s (n %u, m %llu) in %.0f ms\n", name.c_str(),
                   graph.matrix.nrows(), static_cast<unsigned long long>(graph.matrix.nvals()),
                   milliseconds_since(start));
      const grb::sssp::WeightSummary summary = grb::sssp::check_weights(graph.matrix, "benchmark");
      const std::vector<Index> sources = random_roots(graph.matrix, roots, 2024);
      std::vector<std::vector<double>> validated(sources.size());
      std::vector<nlohmann::json> graph_lines;
      for (const Run& run : runs) {
        std::string engine_name(run.info->name);
        grb::sssp::Options options;
        if (run.factor > 0) {
          options.delta = run.factor * grb::sssp::default_delta(summary);
          char label[32];
          std::snprintf(label, sizeof label, "@%gx", run.factor);
          engine_name += label;
        }
        auto engine = run.info->make();
        start = std::chrono::steady_clock::now();
        engine->prepare(graph.matrix);
        const double prepare_ms = milliseconds_since(start);
        engine->run(sources.front(), options);  // warm-up: module load, first touch, caches
        std::vector<double> times;
        double rounds = 0, buckets = 0, inspected = 0, delta = 0;
        std::size_t failures = 0;
        std::string first_failure;
        const auto engine_start = std::chrono::steady_clock::now();
        for (std::size_t r = 0; r < sources.size(); ++r) {
          if (r > 0 && milliseconds_since(engine_start) > seconds * 1e3) break;
          start = std::chrono::steady_clock::now();
          engine->run(sources[r], options);
          const double ms = milliseconds_since(start);
          const grb::sssp::Result result = engine->result();
          std::string problem;
          if (validated[r].empty()) {
            const auto valid = grb::validate::sssp(graph.matrix, sources[r],
                                                   std::span<const double>(result.distance),
                                                   std::span<const Index>(result.parent));
            if (valid.ok) validated[r] = result.distance;
            else problem = valid.message;
          } else {
            problem = check_against(graph.matrix, validated[r], result, sources[r]);
          }
          if (!problem.empty()) {
            if (failures++ == 0) first_failure = "root " + std::to_string(sources[r]) + ": " + problem;
            continue;
          }
          times.push_back(ms);
          rounds += double(result.stats.iterations);
          buckets += double(result.stats.phases);
          inspected += double(result.stats.relaxations);
          delta = result.stats.delta;
        }
        const std::size_t ok = times.size();
        std::vector<double> sorted = times;
        std::sort(sorted.begin(), sorted.end());
        const double median = ok ? sorted[ok / 2] : 0;
        const double per = ok ? 1.0 / double(ok) : 0;
        nlohmann::json line{{"graph", name},
                            {"n", graph.matrix.nrows()},
                            {"m", graph.matrix.nvals()},
                            {"engine", engine_name},
                            {"backend", std::string(grb::to_string(run.info->backend))},
                            {"roots", sources.size()},
                            {"validated", ok},
                            {"failed", failures},
                            {"ms_median", median},
                            {"ms", times},
                            {"delta", delta},
                            {"rounds_mean", rounds * per},
                            {"buckets_mean", buckets * per},
                            {"edges_inspected_mean", inspected * per},
                            {"prepare_ms", prepare_ms},
                            {"device_bytes", engine->device_bytes()}};
        if (failures) line["first_failure"] = first_failure;
        graph_lines.push_back(std::move(line));
      }
      // Ratios to the graph's fastest validated engine.
      double best = 0;
      for (const auto& line : graph_lines)
        if (line["validated"].get<std::size_t>() > 0 && line["failed"].get<std::size_t>() == 0 &&
            (best == 0 || line["ms_median"].get<double>() < best))
          best = line["ms_median"].get<double>();
      for (auto& line : graph_lines) {
        const double median = line["ms_median"].get<double>();
        line["ratio_to_best"] = best > 0 && median > 0 ? median / best : 0.0;
        std::printf("%-9s %-22s %-5s %9.3f %7.2f %9.4g %8.0f %7.0f %13.0f %8.1f %8.1f%s\n",
                    name.c_str(), line["engine"].get<std::string>().c_str(),
                    line["backend"].get<std::string>().c_str(), median,
                    line["ratio_to_best"].get<double>(), line["delta"].get<double>(),
                    line["rounds_mean"].get<double>(), line["buckets_mean"].get<double>(),
                    line["edges_inspected_mean"].get<double>(), line["prepare_ms"].get<double>(),
                    double(line["device_bytes"].get<std::size_t>()) / (1 << 20),
                    line["failed"].get<std::size_t>() ? "  VALIDATION FAILED" : "");
        if (line.contains("first_failure"))
          std::printf("    first failure: %s\n", line["first_failure"].get<std::string>().c_str());
        lines.push_back(line);
      }
      std::fflush(stdout);
    }
    if (json_path.empty()) {
      for (const auto& line : lines) std::printf("%s\n", line.dump().c_str());
    } else {
      std::ofstream out(json_path);
      for (const auto& line : lines) out << line.dump() << '\n';
      if (!out) throw grb::IoError("sssp_engines: cannot write " + json_path);
    }
  } catch (const grb::Error& error) {
    std::fprintf(stderr, "sssp_engines: %s\n", error.what());
    return 1;
  }
  return 0;
}
