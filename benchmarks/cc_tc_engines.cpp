// Every connected-components and triangle-counting engine side by side on the same graphs:
// Graph500 Kronecker graphs, 2-D grids (road-like, high diameter) and a real road network.
// For each graph and engine: prepare() once (timed apart: symmetrization, host -> device
// copies, orientation), one untimed warm-up run, then --runs timed runs; the median ms and its
// ratio to the best engine of the same algorithm on the same graph. Prints a table and JSON
// lines.
//
// Timing: run() is synchronous (it returns when the labels or the count are complete), so a
// steady clock around it is the run's wall time, host round trips included; result() copies
// are outside it.
//
// Validation: the first CC engine's labels go through grb::validate::components (every edge
// inside one component, canonical labels, components connected); every other engine's labels
// must then be identical to them. Triangle counts must agree between all engines (a graph where
// they do not is marked). An engine that fails (e.g. out of device memory) is reported as such.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <grb/generate.hpp>
#include <grb/io.hpp>
#include <grb/kernel_loading.hpp>
#include <grb/matrix.hpp>
#include <grb/types.hpp>

#include "cc/engine.hpp"
#include "tc/engine.hpp"
#include "validate/validate.hpp"

namespace {

using grb::Index;

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

std::optional<std::uint64_t> number_after(const std::string& text, std::size_t prefix) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data() + prefix, end, value);
  if (error != std::errc{} || stop != end || prefix == text.size()) return std::nullopt;
  return value;
}

/// "kronN" (Graph500 scale N), "gridN" (N x N grid), "berlin" (road/berlin-center.mtx in the
/// data directory), or the path of a graph file.
grb::Matrix<bool> make_graph(const std::string& name, const std::filesystem::path& data_dir) {
  if (name.rfind("kron", 0) == 0) {
    if (auto scale = number_after(name, 4))
      return grb::pattern(grb::generate::kronecker(static_cast<int>(*scale)));
  }
  if (name.rfind("grid", 0) == 0) {
    if (auto side = number_after(name, 4); side && *side <= std::numeric_limits<Index>::max())
      return grb::pattern(grb::generate::grid(static_cast<Index>(*side)));
  }
  const std::filesystem::path path =
      name == "berlin" ? data_dir / "road" / "berlin-center.mtx" : std::filesystem::path(name);
  return grb::pattern(grb::io::read_graph(path).matrix);
}

struct Row {
  std::string graph, algorithm, engine, backend;
  std::vector<double> times;
  double median = 0, prepare_ms = 0;
  std::size_t device_bytes = 0;
  std::uint64_t detail = 0;  // CC: iterations; TC: triangles
  std::string problem;       // empty when the engine ran and its result was checked
  nlohmann::json json() const {
    return {{"graph", graph},         {"algorithm", algorithm},   {"engine", engine},
            {"backend", backend},     {"ms_median", median},      {"ms", times},
            {"prepare_ms", prepare_ms}, {"device_bytes", device_bytes},
            {algorithm == "cc" ? "iterations" : "triangles", detail},
            {"validated", problem.empty()}, {"problem", problem}};
  }
};

template <class Info>
Row row_for(const std::string& graph, const std::string& algorithm, const Info& info) {
  Row row;
  row.graph = graph;
  row.algorithm = algorithm;
  row.engine = info.name;
  row.backend = grb::to_string(info.backend);
  return row;
}

double median_of(std::vector<double> times) {
  if (times.empty()) return 0;
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// prepare, warm up, time `runs` runs; `check` inspects the last result and says what is wrong.
template <class Engine>
void measure(Engine& engine, const grb::Matrix<bool>& graph, int runs, Row& row,
             const std::function<std::string(Engine&)>& check) {
  try {
    auto start = std::chrono::steady_clock::now();
    engine.prepare(graph);
    row.prepare_ms = milliseconds_since(start);
    engine.run();
    for (int r = 0; r < runs; ++r) {
      start = std::chrono::steady_clock::now();
      engine.run();
      row.times.push_back(milliseconds_since(start));
    }
    row.median = median_of(row.times);
    row.device_bytes = engine.device_bytes();
    row.problem = check(engine);
  } catch (const grb::Error& error) {
    row.problem = std::string("failed: ") + error.what();
    row.times.clear();
    row.median = 0;
  }
}

template <class Info>
bool selected(const Info& info, bool cpu, const std::vector<std::string>& only) {
  if (info.backend == grb::Backend::cuda && !grb::cuda_available()) return false;
  if (info.backend == grb::Backend::cpu && !cpu) return false;
  return only.empty() || std::find(only.begin(), only.end(), info.name) != only.end();
}

}  // namespace

int main(int argc, char** argv) {
  grb::load_kernels_eagerly();  // before anything touches the GPU
  CLI::App app{"Every CC and TC engine on Kronecker graphs, grids and a road network: ms, ratios"};
  std::vector<std::string> graph_names{"kron20", "kron22", "kron24", "grid1000", "grid2000",
                                       "berlin"};
  std::vector<std::string> algorithms{"cc", "tc"};
  std::vector<std::string> cc_only, tc_only;
  int runs = 10;
  bool cpu = false;
  std::string json_path;
  std::filesystem::path data_dir =
      std::getenv("GRB_DATA_DIR") ? std::getenv("GRB_DATA_DIR") : "data";
  app.add_option("--graphs", graph_names, "kronN, gridN, berlin, or graph files")
      ->capture_default_str();
  app.add_option("--algorithms", algorithms, "cc, tc or both")
      ->check(CLI::IsMember({"cc", "tc"}))
      ->capture_default_str();
  app.add_option("--cc-engines", cc_only, "CC engines to run (default: all)");
  app.add_option("--tc-engines", tc_only, "TC engines to run (default: all)");
  app.add_option("--runs", runs, "timed runs per engine after one warm-up")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_flag("--cpu", cpu, "also run the cpu engines (slow on large graphs)");
  app.add_option("--data-dir", data_dir, "where berlin is looked for (default: $GRB_DATA_DIR)");
  app.add_option("--json", json_path, "write JSON lines here (default: stdout after the table)");
  CLI11_PARSE(app, argc, argv);
  const bool run_cc = std::find(algorithms.begin(), algorithms.end(), "cc") != algorithms.end();
  const bool run_tc = std::find(algorithms.begin(), algorithms.end(), "tc") != algorithms.end();

  // Rows are printed (and their JSON written) as soon as an algorithm's engines have run on a
  // graph, so that a long run that is cut short keeps what it measured.
  std::ofstream json_file;
  if (!json_path.empty()) {
    json_file.open(json_path);
    if (!json_file) {
      std::fprintf(stderr, "cc_tc_engines: cannot write %s\n", json_path.c_str());
      return 1;
    }
  }
  std::vector<Row> rows;
  std::vector<std::string> json_lines;
  const auto report = [&](std::size_t first) {
    double best = 0;
    for (std::size_t r = first; r < rows.size(); ++r)
      if (rows[r].problem.empty() && (best == 0 || rows[r].median < best)) best = rows[r].median;
    for (std::size_t r = first; r < rows.size(); ++r) {
      const Row& row = rows[r];
      const double ratio = row.problem.empty() && best > 0 ? row.median / best : 0;
      std::printf("%-10s %-3s %-18s %-5s %10.3f %7.2f %11.1f %14llu %8.1f  %s\n",
                  row.graph.c_str(), row.algorithm.c_str(), row.engine.c_str(),
                  row.backend.c_str(), row.median, ratio, row.prepare_ms,
                  static_cast<unsigned long long>(row.detail),
                  double(row.device_bytes) / (1 << 20),
                  row.problem.empty() ? "ok" : row.problem.c_str());
      nlohmann::json line = row.json();
      line["ratio_to_best"] = ratio;
      if (json_file.is_open()) json_file << line.dump() << std::endl;
      else json_lines.push_back(line.dump());
    }
    std::fflush(stdout);
  };
  std::printf("%-10s %-3s %-18s %-5s %10s %7s %11s %14s %8s  %s\n", "graph", "alg", "engine",
              "dev", "ms(med)", "ratio", "prepare ms", "iters/tri", "dev MiB", "check");
  try {
    for (const std::string& name : graph_names) {
      auto start = std::chrono::steady_clock::now();
      const grb::Matrix<bool> graph = make_graph(name, data_dir);
      std::fprintf(stderr, "%s: n %u, m %llu, made in %.0f ms\n", name.c_str(), graph.nrows(),
                   static_cast<unsigned long long>(graph.nvals()), milliseconds_since(start));

      if (run_cc) {
        const std::size_t first_cc = rows.size();
        std::optional<std::vector<Index>> valid;  // the labels that passed the validator
        for (const auto& info : grb::cc::engines()) {
          if (!selected(info, cpu, cc_only)) continue;
          Row row = row_for(name, "cc", info);
          auto engine = info.make();
          measure<grb::cc::Engine>(*engine, graph, runs, row, [&](grb::cc::Engine& e) {
            const grb::cc::Result result = e.result();
            row.detail = result.stats.iterations;
            if (valid) return result.label == *valid ? std::string()
                                                     : std::string("labels differ");
            const auto verdict =
                grb::validate::components(graph, std::span<const Index>(result.label));
            if (!verdict.ok) return verdict.message;
            valid = result.label;
            return std::string();
          });
          rows.push_back(std::move(row));
        }
        report(first_cc);
      }
      if (run_tc) {
        const std::size_t first_tc = rows.size();
        std::optional<std::uint64_t> agreed;
        for (const auto& info : grb::tc::engines()) {
          if (!selected(info, cpu, tc_only)) continue;
          Row row = row_for(name, "tc", info);
          auto engine = info.make();
          measure<grb::tc::Engine>(*engine, graph, runs, row, [&](grb::tc::Engine& e) {
            row.detail = e.result().triangles;
            if (!agreed) agreed = row.detail;
            return row.detail == *agreed ? std::string() : std::string("counts differ");
          });
          rows.push_back(std::move(row));
        }
        report(first_tc);
      }
    }
  } catch (const grb::Error& error) {
    std::fprintf(stderr, "cc_tc_engines: %s\n", error.what());
    return 1;
  }

  for (const std::string& line : json_lines) std::printf("%s\n", line.c_str());
  bool all_ok = true;
  for (const Row& row : rows)
    if (!row.problem.empty() && row.problem.rfind("failed: ", 0) != 0) all_ok = false;
  return all_ok ? 0 : 1;
}
