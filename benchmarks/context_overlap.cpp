// Two contexts on one GPU (grb/context.hpp): does their work overlap? A BFS engine searches a
// generated graph from N roots twice, first one pass after the other in one thread, then both
// passes at once in two threads, each in its own grb::Context (its own stream). Prints both wall
// times and their ratio: near 2 where the GPU and the host had room for both (searches whose
// levels are small, such as a grid's), near 1 where one search fills the GPU. Every search is
// validated (Graph500 rules), outside the timed part.
//
//   context_overlap --grid 1000 --engine linalg --roots 16
//   context_overlap --kron 20 --engine direction-optimized --roots 64
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <exception>
#include <initializer_list>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <grb/context.hpp>
#include <grb/generate.hpp>
#include <grb/matrix.hpp>

#include "bfs/engine.hpp"
#include "validate/validate.hpp"

namespace {

using grb::Index;
using Clock = std::chrono::steady_clock;

/// One pass: a search from each root, in the current context; the levels kept for validation.
struct Pass {
  double seconds = 0;
  std::vector<std::vector<std::int32_t>> levels;
  std::vector<std::vector<Index>> parents;
  std::string error;
};

Pass search(const grb::Matrix<bool>& graph, const std::string& name,
            const std::vector<Index>& roots) {
  Pass pass;
  try {
    const grb::Matrix<bool> local = graph;  // the graph in this context
    auto engine = grb::bfs::find_engine(name, grb::Backend::cuda).make();
    engine->prepare(local);
    engine->run(roots.front(), {});  // warm-up: first launches, pool growth
    std::vector<grb::bfs::Result> results;
    const auto start = Clock::now();
    for (Index root : roots) {
      engine->run(root, {});
      results.push_back(engine->result());
    }
    pass.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    for (grb::bfs::Result& result : results) {
      pass.levels.push_back(std::move(result.level));
      pass.parents.push_back(std::move(result.parent));
    }
  } catch (const std::exception& error) {
    pass.error = error.what();
  }
  return pass;
}

/// The number of searches that fail validation (each failure printed).
int invalid(const grb::Matrix<bool>& graph, const std::vector<Index>& roots, const Pass& pass) {
  int failures = 0;
  for (std::size_t r = 0; r < roots.size(); ++r) {
    const grb::validate::Result valid =
        grb::validate::bfs(graph, roots[r], std::span<const std::int32_t>(pass.levels[r]),
                           std::span<const Index>(pass.parents[r]));
    if (!valid.ok) {
      std::fprintf(stderr, "context_overlap: root %llu: %s\n",
                   static_cast<unsigned long long>(roots[r]), valid.message.c_str());
      ++failures;
    }
  }
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Two grb contexts on one GPU: one BFS pass after another, then both at once"};
  int kron = 0;
  Index grid = 0;
  std::string engine = "linalg";
  std::size_t root_count = 16;
  app.add_option("--kron", kron, "a Kronecker graph of 2^SCALE vertices")->check(CLI::Range(1, 30));
  app.add_option("--grid", grid, "a SIDE x SIDE grid")->check(CLI::Range(Index{2}, Index{100000}));
  app.add_option("--engine", engine, "the cuda BFS engine")->capture_default_str();
  app.add_option("--roots", root_count, "searches per pass")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if ((kron > 0) == (grid > 0)) {
    std::fprintf(stderr, "context_overlap: give one of --kron SCALE and --grid SIDE\n");
    return 2;
  }
  try {
    if (!grb::cuda_available()) throw grb::BackendUnavailable("context_overlap needs a GPU");
    grb::bfs::find_engine(engine, grb::Backend::cuda);  // a bad name fails here
    const grb::Matrix<bool> graph =
        grb::pattern(kron > 0 ? grb::generate::kronecker(kron) : grb::generate::grid(grid));
    std::mt19937_64 random(1);
    std::vector<Index> roots;
    for (std::size_t r = 0; r < root_count; ++r) roots.push_back(random() % graph.nrows());

    const Pass first = search(graph, engine, roots);
    const Pass second = search(graph, engine, roots);
    Pass together[2];
    const auto start = Clock::now();
    {
      std::thread threads[2];
      for (int t = 0; t < 2; ++t) {
        threads[t] = std::thread([&, t] {
          const grb::Context context;
          const grb::ContextScope scope(context);
          together[t] = search(graph, engine, roots);
        });
      }
      for (std::thread& thread : threads) thread.join();
    }
    const double both = std::chrono::duration<double>(Clock::now() - start).count();
    int failures = 0;
    for (const Pass* pass : std::initializer_list<const Pass*>{&first, &second, &together[0], &together[1]}) {
      if (!pass->error.empty()) throw std::runtime_error(pass->error);
      failures += invalid(graph, roots, *pass);
    }
    const double after = first.seconds + second.seconds;
    const double at_once = std::max(together[0].seconds, together[1].seconds);
    std::printf("graph %s, engine %s, %zu searches per pass, %d invalid\n",
                kron > 0 ? ("kron" + std::to_string(kron)).c_str()
                         : ("grid" + std::to_string(grid)).c_str(),
                engine.c_str(), roots.size(), failures);
    std::printf("one after the other: %.2f ms; both at once: %.2f ms (threads' own %.2f, %.2f);"
                " overlap %.2fx\n",
                after * 1e3, both * 1e3, together[0].seconds * 1e3, together[1].seconds * 1e3,
                after / at_once);
    return failures == 0 ? 0 : 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "context_overlap: %s\n", error.what());
    return 1;
  }
}
