// The cuda mxv strategies side by side (issue 3's benchmark): push, pull, cusparse and automatic
// on the same matrix and vector, in the same run.
//
//   * SpMV, y = A x over plus_times<float> with x dense: the generic pull kernel against
//     cusparseSpMV, with the bytes each must move (row offsets, column ids, values, x, y) turned
//     into GB/s and set against the device's measured copy bandwidth (cudaMemcpy device to
//     device). Every strategy's y is checked against cusparse's (relative error, float sums in
//     different orders).
//   * SpMSpV, the BFS step w<!visited> = x any.pair A (vxm) with x sparse at several densities
//     and no visited vertices: push against pull against automatic, whose choice is shown. The
//     outputs must have the same pattern.
//
// Timing: each operation returns with its result complete (it reads its output count back), so
// a steady clock around it is its wall time; the median of --runs after one warm-up. Prints a
// table; --json FILE writes JSON lines.
//
//   build-gpu/benchmarks/mxv_strategies --kron 20,22 --grid 1000,2000 --runs 10
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <grb/generate.hpp>
#include <grb/grb.hpp>
#include <grb/kernel_loading.hpp>

#include "../apps/commands/bench/lists.hpp"

#if GRB_WITH_CUDA
#include <cuda_runtime.h>
#endif

namespace {

using grb::Index;
using grb::Offset;

struct Graph {
  std::string name;
  grb::Matrix<float> matrix;  // on the cuda backend
};

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

template <class Run>
double median_ms(int runs, Run&& run) {
  run();  // warm-up: pools, caches, cuSPARSE's first call
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    run();
    times.push_back(milliseconds_since(start));
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

#if GRB_WITH_CUDA  // the rest of the helpers serve the cuda measurements only

std::string to_string(grb::MxvStrategy strategy) {
  switch (strategy) {
    case grb::MxvStrategy::automatic: return "auto";
    case grb::MxvStrategy::push: return "push";
    case grb::MxvStrategy::pull: return "pull";
    case grb::MxvStrategy::cusparse: return "cusparse";
  }
  return "?";
}

/// The device's copy bandwidth: a device-to-device cudaMemcpy of 1 GiB counts its bytes twice
/// (read and write).
double copy_bandwidth_gbs() {
  const std::size_t bytes = std::size_t{1} << 30;
  grb::detail::Array<std::uint8_t> from(bytes, grb::Backend::cuda), to(bytes, grb::Backend::cuda);
  cudaMemset(from.data(), 1, bytes);
  const double ms = median_ms(5, [&] {
    cudaMemcpy(to.data(), from.data(), bytes, cudaMemcpyDeviceToDevice);
    cudaDeviceSynchronize();
  });
  return 2.0 * double(bytes) / (ms * 1e6);
}

/// The generator's weights (kron: [0, 1), grid: 1..64) as floats, the structure unchanged.
grb::Matrix<float> as_float(const grb::Matrix<double>& weights) {
  const grb::Csr<double>& csr = weights.csr();
  grb::detail::Array<float> values(csr.nvals(), grb::Backend::cpu);
  for (Offset e = 0; e < csr.nvals(); ++e) values[e] = static_cast<float>(csr.values[e]);
  return grb::Matrix<float>(grb::Csr<float>{csr.nrows, csr.ncols, csr.row_offsets.to(grb::Backend::cpu),
                                            csr.col_indices.to(grb::Backend::cpu),
                                            std::move(values)});
}

std::vector<float> host_values(const grb::Vector<float>& v) {
  std::vector<Index> indices;
  std::vector<float> values;
  v.extract_tuples(indices, values);
  std::vector<float> dense(v.size(), 0.0f);
  for (std::size_t e = 0; e < indices.size(); ++e) dense[indices[e]] = values[e];
  return dense;
}

double relative_error(const std::vector<float>& got, const std::vector<float>& expected) {
  double difference = 0, norm = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    difference += std::abs(double(got[i]) - double(expected[i]));
    norm += std::abs(double(expected[i]));
  }
  return norm > 0 ? difference / norm : difference;
}

#endif  // GRB_WITH_CUDA

}  // namespace

int main(int argc, char** argv) {
  grb::load_kernels_eagerly();  // before anything touches the GPU
  CLI::App app{"grb mxv strategies: push / pull / cusparse / automatic on the cuda backend"};
  std::vector<std::string> scale_list{"20"};
  std::vector<std::string> side_list{"1000"};
  std::vector<std::string> density_list{"0.0001,0.001,0.01,0.1"};
  int runs = 10;
  std::string json_path;
  // Every item of a list is checked, as `grb bench` checks its lists (lists.hpp): a bad or
  // empty one is a usage error (exit 2) naming it.
  namespace lists = grb::app::lists;
  app.add_option("--kron", scale_list, "Kronecker scales, comma-separated")
      ->check(lists::each(lists::integer_in(1, 31), "SCALE,..."))
      ->capture_default_str();
  app.add_option("--grid", side_list, "grid sides, comma-separated")
      ->check(lists::each(lists::integer_in(1, 65535), "SIDE,..."))
      ->capture_default_str();
  app.add_option("--densities", density_list, "SpMSpV input densities in (0, 1], comma-separated")
      ->check(lists::each(lists::positive_up_to(1.0, "(0, 1]"), "DENSITY,..."))
      ->capture_default_str();
  app.add_option("--runs", runs, "timed runs (median reported)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_option("--json", json_path, "write JSON lines here");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }

#if !GRB_WITH_CUDA
  std::fprintf(stderr, "mxv_strategies: grb was built without CUDA; nothing to measure\n");
  return 0;
#else
  if (!grb::cuda_available()) {
    std::fprintf(stderr, "mxv_strategies: no GPU on this machine; nothing to measure\n");
    return 0;
  }
  const std::vector<int> scales = lists::numbers<int>(scale_list);
  const std::vector<Index> sides = lists::numbers<Index>(side_list);
  const std::vector<double> densities = lists::numbers<double>(density_list);
  try {
    std::vector<nlohmann::ordered_json> lines;
    const double copy_gbs = copy_bandwidth_gbs();
    std::printf("device copy bandwidth: %.0f GB/s (cudaMemcpy device to device)\n\n", copy_gbs);

    std::vector<Graph> graphs;
    for (int scale : scales)
      graphs.push_back({"kron" + std::to_string(scale), as_float(grb::generate::kronecker(scale))});
    for (Index side : sides)
      graphs.push_back({"grid" + std::to_string(side), as_float(grb::generate::grid(side))});

    std::printf("%-9s %-16s %-9s %9s %9s %8s %11s %9s\n", "graph", "operation", "strategy",
                "ms(med)", "GB/s", "of copy", "vs cusparse", "rel.err");
    for (Graph& graph : graphs) {
      graph.matrix = graph.matrix.to(grb::Backend::cuda);
      const grb::Matrix<float>& a = graph.matrix;
      const Index n = a.nrows();
      a.csc();  // the push matrix of mxv, built outside the timings

      // ---- SpMV: y = A x, plus_times<float>, x dense with values in [0, 1).
      std::mt19937 random(7);
      std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
      std::vector<Index> all(n);
      std::vector<float> x_values(n);
      for (Index i = 0; i < n; ++i) all[i] = i, x_values[i] = uniform(random);
      grb::Vector<float> x(n, grb::Backend::cuda);
      x.build(all, x_values);
      const double bytes = double(n + 1) * sizeof(Offset) + double(a.nvals()) * (4 + 4) +
                           double(n) * (4 + 1) * 2;  // A; x and y with presence bytes
      std::vector<float> reference;
      double cusparse_ms = 0;
      for (auto strategy : {grb::MxvStrategy::cusparse, grb::MxvStrategy::pull,
                            grb::MxvStrategy::push, grb::MxvStrategy::automatic}) {
        grb::Vector<float> y(n, grb::Backend::cuda);
        const grb::Descriptor descriptor{.strategy = strategy};
        const double ms = median_ms(runs, [&] {
          grb::mxv(y, grb::no_mask, grb::no_accum, grb::plus_times<float>{}, a, x, descriptor);
        });
        const std::vector<float> result = host_values(y);
        if (strategy == grb::MxvStrategy::cusparse) reference = result, cusparse_ms = ms;
        const double error = relative_error(result, reference);
        const double gbs = bytes / (ms * 1e6);
        std::printf("%-9s %-16s %-9s %9.3f %9.0f %7.0f%% %10.2fx %9.1e\n", graph.name.c_str(),
                    "spmv plus_times", to_string(strategy).c_str(), ms, gbs,
                    100 * gbs / copy_gbs, ms / cusparse_ms, error);
        if (error > 1e-4) {
          std::fprintf(stderr, "mxv_strategies: %s %s differs from cusparse (relative error %g)\n",
                       graph.name.c_str(), to_string(strategy).c_str(), error);
          return 1;
        }
        lines.push_back({{"graph", graph.name}, {"n", n}, {"nvals", a.nvals()},
                         {"operation", "spmv"}, {"semiring", "plus_times<float>"},
                         {"strategy", to_string(strategy)}, {"ms", ms}, {"bytes", bytes},
                         {"gbs", gbs}, {"copy_gbs", copy_gbs}, {"vs_cusparse", ms / cusparse_ms},
                         {"relative_error", error}});
      }

      // ---- SpMSpV: w<!visited> = x any.pair A, x sparse (a BFS frontier of some density).
      const grb::Matrix<bool> pattern = grb::pattern(a);
      pattern.csc();
      grb::Vector<std::int32_t> visited(n, grb::Backend::cuda);  // empty: every output allowed
      const grb::Descriptor unvisited{.replace = true, .structural_mask = true,
                                      .complement_mask = true};
      for (double density : densities) {
        std::vector<Index> frontier;
        std::bernoulli_distribution pick(density);
        for (Index i = 0; i < n; ++i)
          if (pick(random)) frontier.push_back(i);
        if (frontier.empty()) continue;
        grb::Vector<bool> u(n, grb::Backend::cuda);
        u.build(frontier, std::vector<bool>(frontier.size(), true));
        Index expected_nvals = 0;
        for (auto strategy : {grb::MxvStrategy::push, grb::MxvStrategy::pull,
                              grb::MxvStrategy::automatic}) {
          grb::Vector<bool> w(n, grb::Backend::cuda);
          grb::Descriptor descriptor = unvisited;
          descriptor.strategy = strategy;
          const double ms = median_ms(runs, [&] {
            grb::vxm(w, visited, grb::no_accum, grb::any_pair<bool>{}, u, pattern, descriptor);
          });
          if (strategy == grb::MxvStrategy::push) expected_nvals = w.nvals();
          if (w.nvals() != expected_nvals) {
            std::fprintf(stderr, "mxv_strategies: %s density %g: %s found %u outputs, push %u\n",
                         graph.name.c_str(), density, to_string(strategy).c_str(), w.nvals(),
                         expected_nvals);
            return 1;
          }
          char operation[32];
          std::snprintf(operation, sizeof operation, "spmspv %.4f%%", 100 * density);
          std::printf("%-9s %-16s %-9s %9.3f %9s %8s %11s %9s\n", graph.name.c_str(), operation,
                      to_string(strategy).c_str(), ms, "", "", "", "");
          lines.push_back({{"graph", graph.name}, {"n", n}, {"nvals", a.nvals()},
                           {"operation", "spmspv"}, {"semiring", "any_pair<bool>"},
                           {"density", density}, {"input_nvals", frontier.size()},
                           {"output_nvals", w.nvals()}, {"strategy", to_string(strategy)},
                           {"ms", ms}});
        }
      }
      graph.matrix = grb::Matrix<float>();  // free the device copy before the next graph
    }
    if (!json_path.empty()) {
      std::ofstream out(json_path);
      for (const auto& line : lines) out << line.dump() << '\n';
    }
  } catch (const grb::Error& error) {
    std::fprintf(stderr, "mxv_strategies: %s\n", error.what());
    return 1;
  }
  return 0;
#endif
}
