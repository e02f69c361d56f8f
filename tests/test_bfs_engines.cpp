// Every BFS engine in the registry (the linear-algebra one on each backend, the hand-written GPU
// kernels on cuda), on directed and undirected graphs: hand-made shapes (a star with one huge
// hub, a long path, disconnected pieces, isolated sources), generated Kronecker / grid /
// Erdos-Renyi graphs, and the real graphs in the data directory. Levels must equal a textbook
// host BFS written here; parents must pass the Graph500 validator; per-level frontier sizes must
// match the levels. Cuda engines are skipped, visibly, where no GPU is present.
// Under compute-sanitizer (GRB_SANITIZER=1, as scripts/gpu-check.sh sets) the graphs are smaller:
// every kernel still runs, on inputs the sanitizers get through in minutes.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <grb/generate.hpp>
#include <grb/grb.hpp>
#include <grb/io.hpp>

#include "bfs/engine.hpp"
#include "engine_tests.hpp"
#include "support.hpp"
#include "validate/validate.hpp"

namespace {

using grb::test::pick_sources;

using grb::Index;
using grb::Offset;

using grb::test::from_edges;
using grb::test::sanitizing;
using grb::test::textbook_levels;


struct TestGraph {
  std::string name;
  grb::Matrix<bool> matrix;
  std::vector<Index> sources;
};

/// Runs `engine` from every source of `graph` and checks the result against the oracle.
void check_engine(const grb::bfs::EngineInfo& info, const TestGraph& graph) {
  INFO("engine " << info.name << " (" << grb::to_string(info.backend) << ") on " << graph.name);
  auto engine = info.make();
  engine->prepare(info.backend == grb::Backend::cpu ? graph.matrix
                                                    : graph.matrix.to(grb::Backend::cuda));
  for (Index source : graph.sources) {
    INFO("source " << source);
    engine->run(source, grb::bfs::Options{});
    const grb::bfs::Result result = engine->result();
    const std::vector<std::int32_t> expected = textbook_levels(graph.matrix, source);
    REQUIRE(result.level.size() == expected.size());
    std::size_t wrong = 0, first_wrong = 0;
    for (std::size_t v = 0; v < expected.size(); ++v)
      if (result.level[v] != expected[v] && wrong++ == 0) first_wrong = v;
    INFO("first wrong level at vertex " << first_wrong << ": " << result.level[first_wrong]
                                        << " instead of " << expected[first_wrong]);
    CHECK(wrong == 0);
    REQUIRE(result.parent.size() == expected.size());
    const grb::validate::Result valid =
        grb::validate::bfs(graph.matrix, source, std::span<const std::int32_t>(result.level),
                           std::span<const Index>(result.parent));
    INFO(valid.message);
    CHECK(valid.ok);

    // Per-level stats: one entry per level, its frontier the vertices on that level.
    std::vector<Index> on_level;
    for (std::int32_t l : expected)
      if (l >= 0) {
        if (on_level.size() <= std::size_t(l)) on_level.resize(std::size_t(l) + 1, 0);
        ++on_level[std::size_t(l)];
      }
    REQUIRE(result.levels.size() == on_level.size());
    for (std::size_t l = 0; l < on_level.size(); ++l) {
      INFO("level " << l);
      CHECK(result.levels[l].frontier == on_level[l]);
    }
  }
}

std::vector<const grb::bfs::EngineInfo*> engines_to_test() {
  return grb::test::engines_to_test(grb::bfs::engines(), "test_bfs_engines");
}

void check_every_engine(const std::vector<TestGraph>& graphs) {
  for (const auto* info : engines_to_test())
    for (const TestGraph& graph : graphs) check_engine(*info, graph);
}

grb::Matrix<bool> read_graph(const std::string& relative, bool symmetrize = false) {
  grb::io::ReadOptions options;
  options.symmetrize = symmetrize;
  return grb::pattern(grb::io::read_graph(grb::test::data_file(relative), options).matrix);
}

}  // namespace

TEST_CASE("the engine table: names, backends, lookups") {
  grb::test::check_table_names(
      grb::bfs::engines(), {"linalg"},
      {"linalg", "vertex-push", "vertex-pull", "edge-centric", "frontier-queue",
       "frontier-privatized", "warp-cooperative", "bucketed", "load-balanced", "single-block",
       "direction-optimized", "persistent", "cub-select", "auto"});
  CHECK(grb::bfs::find_engine("linalg", grb::Backend::cpu).name == "linalg");
  CHECK_THROWS_AS(grb::bfs::find_engine("no-such-engine", grb::Backend::cpu), grb::InvalidValue);
  CHECK(std::string(grb::bfs::to_string(grb::bfs::Direction::pull)) == "pull");
}

TEST_CASE("engines reject bad sources and non-square graphs, and honour parents = false") {
  const grb::Matrix<bool> graph = from_edges(4, {{0, 1}, {1, 2}}, true);
  for (const auto* info : engines_to_test()) {
    INFO("engine " << info->name << " (" << grb::to_string(info->backend) << ")");
    auto engine = info->make();
    engine->prepare(info->backend == grb::Backend::cpu ? graph : graph.to(grb::Backend::cuda));
    CHECK_THROWS_AS(engine->run(4, {}), grb::IndexOutOfBounds);
    engine->run(0, grb::bfs::Options{.parents = false, .level_timing = true});
    const grb::bfs::Result result = engine->result();
    CHECK(result.parent.empty());
    CHECK(result.level == std::vector<std::int32_t>{0, 1, 2, -1});
    grb::Matrix<bool> wide(2, 3, grb::Backend::cpu);
    CHECK_THROWS_AS(info->make()->prepare(info->backend == grb::Backend::cpu
                                              ? wide
                                              : wide.to(grb::Backend::cuda)),
                    grb::DimensionMismatch);
  }
}

TEST_CASE("hand-made graphs: directed, star, path, disconnected, isolated source") {
  std::vector<TestGraph> graphs;
  // A small directed graph where pull must use in-edges: 0->1->2->3, 0->4, 4->2, 3->0, 5->0.
  graphs.push_back({"small directed",
                    from_edges(7, {{0, 1}, {1, 2}, {2, 3}, {0, 4}, {4, 2}, {3, 0}, {5, 0}}, false),
                    {0, 2, 5, 6}});
  // A star whose hub has a huge degree (block-wide expansion), plus a tail behind one leaf.
  {
    const Index leaves = sanitizing ? 2000 : 20000;
    std::vector<std::pair<Index, Index>> edges;
    for (Index v = 1; v <= leaves; ++v) edges.push_back({0, v});
    edges.push_back({leaves, leaves + 1});
    edges.push_back({leaves + 1, leaves + 2});
    graphs.push_back({"star (undirected)", from_edges(leaves + 3, edges, true), {0, 7, leaves + 2}});
    graphs.push_back({"star (directed out of the hub)", from_edges(leaves + 3, edges, false),
                      {0, 7}});
  }
  // A long path: thousands of one-vertex levels (single-block's many levels per launch).
  {
    // (200 under the sanitizer: racecheck did not get the linear-algebra BFS through 600 in
    // 7 minutes; 200 levels are still many per single-block launch.)
    const Index length = sanitizing ? 200 : 3000;
    std::vector<std::pair<Index, Index>> edges;
    for (Index v = 0; v + 1 < length; ++v) edges.push_back({v, v + 1});
    graphs.push_back({"path (undirected)", from_edges(length, edges, true), {0, length / 2}});
    graphs.push_back({"path (directed)", from_edges(length, edges, false), {0, length - 1}});
  }
  // Disconnected pieces and isolated vertices: a triangle, a square, and 3 isolated vertices.
  graphs.push_back({"disconnected",
                    from_edges(10, {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 6}, {6, 3}}, true),
                    {0, 4, 7, 9}});
  // One vertex, no edges.
  graphs.push_back({"single vertex", grb::Matrix<bool>(1, 1, grb::Backend::cpu), {0}});
  check_every_engine(graphs);
}

TEST_CASE("generated graphs: Kronecker, grid, Erdos-Renyi, directed and undirected") {
  grb::generate::Options directed;
  directed.symmetrize = false;
  std::vector<TestGraph> graphs;
  auto add = [&](std::string name, grb::Matrix<bool> matrix) {
    auto sources = pick_sources(matrix, {});
    graphs.push_back({std::move(name), std::move(matrix), std::move(sources)});
  };
  const int scale = sanitizing ? 9 : 12;
  const Index side = sanitizing ? 20 : 60;
  const Index n = sanitizing ? 500 : 3000;
  add("kronecker", grb::pattern(grb::generate::kronecker(scale)));
  add("kronecker directed", grb::pattern(grb::generate::kronecker(scale - 1, 16, directed)));
  add("grid", grb::pattern(grb::generate::grid(side)));
  add("grid directed", grb::pattern(grb::generate::grid(side - 10, 0.25, directed)));
  add("erdos-renyi", grb::pattern(grb::generate::erdos_renyi(n, 6)));
  add("erdos-renyi directed", grb::pattern(grb::generate::erdos_renyi(n, 3, directed)));
  check_every_engine(graphs);
}

TEST_CASE("real graphs from the data directory") {
  std::vector<TestGraph> graphs;
  auto add = [&](std::string relative, bool symmetrize, std::vector<Index> sources) {
    grb::Matrix<bool> matrix = read_graph(relative, symmetrize);
    sources = pick_sources(matrix, std::move(sources));
    graphs.push_back({relative, std::move(matrix), std::move(sources)});
  };
  add("lagraph/karate.mtx", false, {30});
  add("lagraph/west0067.mtx", false, {});
  add("lagraph/ldbc-directed-example.mtx", false, {});
  if (!sanitizing) {
    add("lagraph/bcsstk13.mtx", false, {});
    add("road/berlin-center.mtx", false, {});
    add("snap/email-Eu-core.txt", false, {});
    add("snap/ca-GrQc.csv", true, {});
  }
  check_every_engine(graphs);
}

TEST_CASE("karate from vertex 30: LAGraph's known levels, on every engine") {
  const grb::Matrix<bool> karate = read_graph("lagraph/karate.mtx");
  const std::vector<std::int32_t> known{2, 1, 2, 2, 3, 3, 3, 2, 1, 2, 3, 3, 3, 2, 2, 2, 4,
                                        2, 2, 2, 2, 2, 2, 2, 3, 3, 2, 2, 2, 2, 0, 2, 1, 1};
  for (const auto* info : engines_to_test()) {
    INFO("engine " << info->name << " (" << grb::to_string(info->backend) << ")");
    auto engine = info->make();
    engine->prepare(info->backend == grb::Backend::cpu ? karate : karate.to(grb::Backend::cuda));
    engine->run(30, {});
    CHECK(engine->result().level == known);
  }
}
