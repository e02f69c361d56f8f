// Every SSSP engine in the registry (the linear-algebra Bellman-Ford and delta-stepping on each
// backend, the hand-written worklists on cuda) on real graphs with known answers (the LDBC
// Graphalytics SSSP outputs, Berlin's road lengths, LAGraph's matrices) and on generated ones
// (grids with integer lengths 1..64, Kronecker graphs with lengths in [0, 1), a star whose hub
// takes the grid-wide path, a long path, directed graphs, unreachable vertices, zero-length
// edges and cycles). Distances must equal a textbook Dijkstra written here, exactly; parents
// must pass grb::validate::sssp. Cuda engines are skipped, visibly, where no GPU is present.
//
// Why exact, even for floating-point lengths: every engine computes d(v) = min over relaxations
// of fl(d(u) + w), and fl(x + w) is monotone in x, so any run that stops when no edge improves
// ends at one value per vertex: the smallest, over all paths, of the path's left-to-right
// rounded sum. Dijkstra computes the same value (fl(d + w) >= d keeps its order valid), so an
// engine that differs in the last bit has stopped early or relaxed an edge wrongly.
// Under compute-sanitizer (GRB_SANITIZER=1) the graphs are smaller; GRB_TEST_ENGINES=a,b limits
// the engines, GRB_TEST_SHARD=k/n the searches.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <string>
#include <string_view>
#include <vector>

#include <grb/generate.hpp>
#include <grb/grb.hpp>
#include <grb/io.hpp>

#include "sssp/engine.hpp"
#include "engine_tests.hpp"
#include "support.hpp"
#include "validate/validate.hpp"

namespace {

using grb::test::pick_sources;

using grb::Index;
using grb::Offset;

using grb::test::sanitizing;
constexpr double infinity = std::numeric_limits<double>::infinity();

/// Textbook Dijkstra with a binary heap over the host CSR: the oracle for every engine.
std::vector<double> dijkstra(const grb::Matrix<double>& graph, Index source) {
  const grb::Csr<double>& csr = graph.csr();
  std::vector<double> distance(graph.nrows(), infinity);
  using Entry = std::pair<double, Index>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  distance[source] = 0;
  heap.push({0.0, source});
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d > distance[u]) continue;
    for (Offset e = csr.row_offsets[u]; e < csr.row_offsets[u + 1]; ++e) {
      const Index v = csr.col_indices[e];
      const double candidate = d + csr.values[e];
      if (candidate < distance[v]) {
        distance[v] = candidate;
        heap.push({candidate, v});
      }
    }
  }
  return distance;
}

grb::Matrix<double> from_edges(Index n, const std::vector<std::tuple<Index, Index, double>>& edges,
                               bool undirected) {
  std::map<std::pair<Index, Index>, double> unique;
  for (auto [u, v, w] : edges) {
    unique[{u, v}] = w;
    if (undirected) unique[{v, u}] = w;
  }
  std::vector<Index> rows, cols;
  std::vector<double> values;
  for (auto [key, w] : unique) rows.push_back(key.first), cols.push_back(key.second), values.push_back(w);
  grb::Matrix<double> graph(n, n, grb::Backend::cpu);
  graph.build(rows, cols, values);
  // Each edge stored both ways with one length: the promise the generators make (the worklist
  // engines then find parents in each vertex's own row).
  if (undirected) graph.mark_symmetric();
  return graph;
}

struct TestGraph {
  std::string name;
  grb::Matrix<double> matrix;
  std::vector<Index> sources;
};

std::vector<const grb::sssp::EngineInfo*> engines_to_test() {
  return grb::test::engines_to_test(grb::sssp::engines(), "test_sssp_engines");
}

grb::Matrix<double> on(const grb::sssp::EngineInfo& info, const grb::Matrix<double>& graph) {
  return info.backend == grb::Backend::cpu ? graph : graph.to(grb::Backend::cuda);
}

/// The engines made of grb operations alone (a dozen launches per round).
bool is_linear_algebra(const grb::sssp::EngineInfo& info) {
  return info.name == "bellman-ford" || info.name == "delta-stepping";
}

/// Under the sanitizer, the linear-algebra engines take graphs of at most this many vertices:
/// racecheck slows each of their launches so much that Berlin's roads or the 5 000-leaf star
/// did not finish in 8 minutes. Their kernels are the grb operations, which
/// test_cuda_operations runs under every tool on every shape.
constexpr Index sanitized_linear_algebra_vertices = 2048;

/// Runs `engine` from every source of `graph` (with each delta given, 0 = the default) and
/// checks distances against Dijkstra and parents with the validator. Under GRB_TEST_SHARD=k/n
/// only every n-th search runs (the linear-algebra engines need minutes under racecheck).
void check_engine(const grb::sssp::EngineInfo& info, const TestGraph& graph,
                  const std::vector<double>& deltas = {0}) {
  static std::size_t searches = 0;
  if (sanitizing && is_linear_algebra(info) &&
      graph.matrix.nrows() > sanitized_linear_algebra_vertices) {
    MESSAGE("sanitizer run: " << info.name << " skips " << graph.name << " ("
                              << graph.matrix.nrows() << " vertices)");
    return;
  }
  INFO("engine " << info.name << " (" << grb::to_string(info.backend) << ") on " << graph.name);
  auto engine = info.make();
  engine->prepare(on(info, graph.matrix));
  for (Index source : graph.sources) {
    const std::vector<double> expected = dijkstra(graph.matrix, source);
    for (double delta : deltas) {
      if (!grb::test::in_shard(searches++)) continue;
      INFO("source " << source << ", delta " << delta);
      engine->run(source, grb::sssp::Options{.delta = delta});
      const grb::sssp::Result result = engine->result();
      REQUIRE(result.distance.size() == expected.size());
      std::size_t wrong = 0, first_wrong = 0;
      for (std::size_t v = 0; v < expected.size(); ++v)
        if (result.distance[v] != expected[v] && wrong++ == 0) first_wrong = v;
      INFO("first wrong distance at vertex " << first_wrong << ": " << result.distance[first_wrong]
                                             << " instead of " << expected[first_wrong]);
      CHECK(wrong == 0);
      REQUIRE(result.parent.size() == expected.size());
      const grb::validate::Result valid = grb::validate::sssp(
          graph.matrix, source, std::span<const double>(result.distance),
          std::span<const Index>(result.parent), 0.0);
      INFO(valid.message);
      CHECK(valid.ok);
      CHECK(result.stats.iterations >= 1);
    }
  }
}

void check_every_engine(const std::vector<TestGraph>& graphs) {
  for (const auto* info : engines_to_test())
    for (const TestGraph& graph : graphs) check_engine(*info, graph);
}

grb::Matrix<double> read_matrix(const std::string& relative, bool symmetrize = false) {
  grb::io::ReadOptions options;
  options.symmetrize = symmetrize;
  return grb::io::read_graph(grb::test::data_file(relative), options).matrix;
}

bool has_negative(const grb::Matrix<double>& graph) {
  for (double w : graph.csr().values)
    if (w < 0) return true;
  return false;
}

}  // namespace

TEST_CASE("the SSSP engine table: names, backends, lookups, default delta") {
  grb::test::check_table_names(grb::sssp::engines(), {"bellman-ford", "delta-stepping", "auto"},
                               {"bellman-ford", "delta-stepping", "frontier-bellman-ford",
                                "near-far", "near-far-persistent", "light-heavy", "auto"});
  CHECK(grb::sssp::find_engine("delta-stepping", grb::Backend::cpu).name == "delta-stepping");
  try {
    grb::sssp::find_engine("no-such-engine", grb::Backend::cpu);
    FAIL("find_engine accepted an unknown name");
  } catch (const grb::InvalidValue& error) {
    CHECK(std::string(error.what()).find("bellman-ford") != std::string::npos);
  }
  // 128 x mean length / mean degree: a 4-vertex graph with 2 edges of lengths 1 and 3.
  const auto summary = grb::sssp::check_weights(from_edges(4, {{0, 1, 1.0}, {1, 2, 3.0}}, false), "test");
  CHECK(summary.mean_weight == 2.0);
  CHECK(summary.mean_degree == 0.5);
  CHECK(grb::sssp::default_delta(summary) == 512.0);
  CHECK(grb::sssp::default_delta(grb::sssp::WeightSummary{}) == 1.0);
}

TEST_CASE("engines reject negative and NaN lengths, bad sources, non-square graphs") {
  const grb::Matrix<double> negative = from_edges(3, {{0, 1, 1.5}, {1, 2, -2.0}}, false);
  const grb::Matrix<double> not_a_number = from_edges(3, {{0, 1, std::nan("")}}, false);
  const grb::Matrix<double> graph = from_edges(4, {{0, 1, 2.0}, {1, 2, 0.5}}, true);
  for (const auto* info : engines_to_test()) {
    INFO("engine " << info->name << " (" << grb::to_string(info->backend) << ")");
    try {
      info->make()->prepare(on(*info, negative));
      FAIL("a negative length was accepted");
    } catch (const grb::InvalidValue& error) {
      const std::string message = error.what();
      CHECK(message.find("negative") != std::string::npos);
      CHECK(message.find("1 -> 2") != std::string::npos);
    }
    CHECK_THROWS_AS(info->make()->prepare(on(*info, not_a_number)), grb::InvalidValue);
    CHECK_THROWS_AS(info->make()->prepare(on(*info, grb::Matrix<double>(2, 3, grb::Backend::cpu))),
                    grb::DimensionMismatch);
    auto engine = info->make();
    CHECK_THROWS_AS(engine->run(0, {}), grb::InvalidValue);  // before prepare
    engine->prepare(on(*info, graph));
    CHECK_THROWS_AS(engine->run(4, {}), grb::IndexOutOfBounds);
    engine->run(0, grb::sssp::Options{.parents = false});
    const grb::sssp::Result result = engine->result();
    CHECK(result.parent.empty());
    CHECK(result.distance == std::vector<double>{0.0, 2.0, 2.5, infinity});
  }
}

TEST_CASE("hand-made graphs: zero lengths, star, path, directed, unreachable") {
  std::vector<TestGraph> graphs;
  // Zero-length edges, a zero-length cycle (1 <-> 2) and a zero-length chain reached two ways:
  // parents must still form a tree.
  graphs.push_back({"zero lengths",
                    from_edges(8, {{0, 1, 0.0}, {1, 2, 0.0}, {2, 1, 0.0}, {2, 3, 5.0}, {0, 3, 5.0},
                                   {3, 4, 0.0}, {4, 5, 0.0}, {5, 3, 0.0}, {1, 6, 2.0}},
                               false),
                    {0, 1, 3, 7}});
  // Undirected (marked symmetric): the vertices reached over zero-length edges have no strictly
  // shorter in-neighbour, so their parents come from the passes that resolve ties.
  graphs.push_back({"zero lengths (undirected)",
                    from_edges(8,
                               {{0, 1, 0.0},
                                {1, 2, 0.0},
                                {2, 3, 5.0},
                                {0, 3, 5.0},
                                {3, 4, 0.0},
                                {4, 5, 0.0},
                                {5, 3, 0.0},
                                {1, 6, 2.0}},
                               true),
                    {0, 3, 6, 7}});
  // A small directed graph where distances differ from hop counts: 0->1 (4), 0->2 (1), 2->1 (1).
  graphs.push_back({"small directed",
                    from_edges(6, {{0, 1, 4.0}, {0, 2, 1.0}, {2, 1, 1.0}, {1, 3, 1.0}, {3, 0, 7.0},
                                   {4, 0, 1.0}},
                               false),
                    {0, 2, 4, 5}});
  // A star whose hub has more than 4096 edges (near-far's grid-wide hub path), integer lengths,
  // plus a tail behind one leaf.
  {
    const Index leaves = sanitizing ? 5000 : 20000;
    std::vector<std::tuple<Index, Index, double>> edges;
    for (Index v = 1; v <= leaves; ++v) edges.push_back({0, v, double(1 + v % 64)});
    edges.push_back({leaves, leaves + 1, 3.0});
    edges.push_back({leaves + 1, leaves + 2, 0.0});
    graphs.push_back({"star (undirected)", from_edges(leaves + 3, edges, true), {0, 7, leaves + 2}});
    graphs.push_back({"star (directed out of the hub)", from_edges(leaves + 3, edges, false), {0, 7}});
  }
  // A long path: thousands of rounds, with a shortcut that is longer than the path.
  {
    const Index length = sanitizing ? 64 : 3000;
    std::vector<std::tuple<Index, Index, double>> edges;
    for (Index v = 0; v + 1 < length; ++v) edges.push_back({v, v + 1, double(1 + v % 5)});
    edges.push_back({0, length - 1, 1e9});
    graphs.push_back({"path (undirected)", from_edges(length, edges, true), {0, length / 2}});
    graphs.push_back({"path (directed)", from_edges(length, edges, false), {0, length - 1}});
  }
  // Disconnected pieces and isolated vertices.
  graphs.push_back({"disconnected",
                    from_edges(10, {{0, 1, 1.0}, {1, 2, 2.0}, {2, 0, 4.0}, {3, 4, 1.0}, {4, 5, 1.0}},
                               true),
                    {0, 4, 7, 9}});
  graphs.push_back({"single vertex", grb::Matrix<double>(1, 1, grb::Backend::cpu), {0}});
  check_every_engine(graphs);
}

TEST_CASE("generated graphs: grids with lengths 1..64, Kronecker with [0, 1), directed too") {
  grb::generate::Options directed;
  directed.symmetrize = false;
  std::vector<TestGraph> graphs;
  auto add = [&](std::string name, grb::Matrix<double> matrix) {
    auto sources = pick_sources(matrix, {});
    graphs.push_back({std::move(name), std::move(matrix), std::move(sources)});
  };
  const int scale = sanitizing ? 9 : 12;
  const Index side = sanitizing ? 20 : 60;
  add("grid", grb::generate::grid(side));
  add("grid directed", grb::generate::grid(side - 10, 0.25, directed));
  add("kronecker", grb::generate::kronecker(scale));
  add("kronecker directed", grb::generate::kronecker(scale - 1, 16, directed));
  add("erdos-renyi", grb::generate::erdos_renyi(sanitizing ? 500 : 3000, 6));
  check_every_engine(graphs);
}

TEST_CASE("delta: tiny, default and huge bucket widths give the same distances") {
  const Index side = sanitizing ? 16 : 40;
  TestGraph grid{"grid", grb::generate::grid(side), {0, side * side / 2}};
  TestGraph kron{"kronecker", grb::generate::kronecker(sanitizing ? 8 : 10), {}};
  kron.sources = pick_sources(kron.matrix, {});
  for (const auto* info : engines_to_test()) {
    if (info->name != "delta-stepping" && !info->name.starts_with("near-far")) continue;
    // Under the sanitizer the linear-algebra engine's tiny width is 4, not 0.5: a bucket is a
    // round of launches, and the grid's ~2 000 half-unit buckets did not finish under racecheck.
    check_engine(*info, grid, {sanitizing && is_linear_algebra(*info) ? 4.0 : 0.5, 0, 64, 1e6});
    // Lengths in [0, 1): a width of 1e-3 makes about a thousand buckets per unit of distance
    // (fewer under the sanitizer, where each bucket's launches are slow).
    const double tiny = !sanitizing ? 1e-3 : is_linear_algebra(*info) ? 1e-1 : 1e-2;
    check_engine(*info, kron, {tiny, 0, 0.25, 100});
  }
}

TEST_CASE("real graphs: LDBC SSSP expected outputs, Berlin roads, LAGraph matrices") {
  const char* const ldbc[] = {"example-directed", "example-undirected", "test-sssp-directed",
                              "test-sssp-undirected"};
  for (const char* name : ldbc) {
    CAPTURE(name);
    const auto graph =
        grb::io::read_graph(grb::test::data_file(std::string("ldbc/") + name + ".properties"));
    REQUIRE(graph.source.has_value());
    const Index source = grb::io::to_internal(graph, *graph.source);
    std::map<std::uint64_t, std::string> expected;
    {
      std::ifstream in(grb::test::data_file(std::string("ldbc/") + name + "-SSSP"));
      std::uint64_t id;
      std::string value;
      while (in >> id >> value) expected[id] = value;
    }
    REQUIRE(expected.size() == graph.matrix.nrows());
    for (const auto* info : engines_to_test()) {
      INFO("engine " << info->name << " (" << grb::to_string(info->backend) << ")");
      auto engine = info->make();
      engine->prepare(on(*info, graph.matrix));
      engine->run(source, {});
      const auto result = engine->result();
      for (Index v = 0; v < graph.matrix.nrows(); ++v) {
        const std::string& want = expected.at(grb::io::to_external(graph, v));
        CAPTURE(v);
        if (want == "infinity" || want == "Infinity") {
          CHECK(std::isinf(result.distance[v]));
        } else {
          const double value = std::stod(want);  // LDBC's rule: within 1e-4 relative
          CHECK(std::abs(result.distance[v] - value) <= 1e-4 * value);
        }
      }
      const auto valid = grb::validate::sssp(graph.matrix, source, std::span<const double>(result.distance),
                                             std::span<const Index>(result.parent));
      INFO(valid.message);
      CHECK(valid.ok);
    }
  }

  std::vector<TestGraph> graphs;
  graphs.push_back({"road/berlin-center.mtx", read_matrix("road/berlin-center.mtx"), {}});
  graphs.back().sources = pick_sources(graphs.back().matrix, {1});
  // LAGraph's matrices with non-negative values are graphs with lengths; the others must be
  // refused by every engine.
  const char* const lagraph[] = {"karate", "ldbc-directed-example", "ldbc-undirected-example",
                                 "ldbc-wcc-example", "tree-example", "msf1", "cover",
                                 "test_BF", "west0067", "LFAT5", "bcsstk13"};
  for (const char* name : lagraph) {
    const std::string relative = std::string("lagraph/") + name + ".mtx";
    grb::Matrix<double> matrix = read_matrix(relative);
    if (matrix.nrows() != matrix.ncols()) continue;
    if (has_negative(matrix)) {
      for (const auto* info : engines_to_test()) {
        INFO("engine " << info->name << " (" << grb::to_string(info->backend) << ") on " << relative);
        CHECK_THROWS_AS(info->make()->prepare(on(*info, matrix)), grb::InvalidValue);
      }
      continue;
    }
    if (sanitizing && matrix.nvals() > 20000) continue;
    auto sources = pick_sources(matrix, {});
    graphs.push_back({relative, std::move(matrix), std::move(sources)});
  }
  check_every_engine(graphs);
}

TEST_CASE(
    "step traces of the persistent launches: each round and phase change, as the counts say") {
  const grb::Matrix<double> graph = grb::generate::kronecker(sanitizing ? 8 : 11);
  const Index source = pick_sources(graph, {}).front();
  const std::vector<double> expected = dijkstra(graph, source);
  bool traced_any = false;
  for (const auto* info : engines_to_test()) {
    if (info->name != "light-heavy" && info->name != "near-far-persistent") continue;
    INFO("engine " << info->name);
    traced_any = true;
    auto engine = info->make();
    engine->prepare(graph);
    engine->run(source, {.trace_steps = true});
    const grb::sssp::Result traced = engine->result();
    CHECK(traced.distance == expected);
    const std::vector<grb::sssp::Step>& steps = traced.stats.steps;
    REQUIRE(!steps.empty());
    // The first round relaxes the source alone; every round with work is a light or heavy step
    // (near-far has light ones only), and every phase after the first begins with a split.
    CHECK(steps.front().kind == grb::sssp::Step::Kind::light);
    CHECK(steps.front().items == 1);
    std::uint64_t rounds = 0, heavy = 0, splits = 0;
    for (const grb::sssp::Step& step : steps) {
      CHECK(step.microseconds >= 0);
      if (step.kind == grb::sssp::Step::Kind::split)
        ++splits;
      else
        ++rounds;
      if (step.kind == grb::sssp::Step::Kind::heavy) ++heavy;
    }
    CHECK(rounds == traced.stats.iterations);
    if (info->name == "light-heavy") {
      CHECK(splits + 1 == traced.stats.phases);
    } else {
      // near-far's phase change begins with the far minimum, which may find every piled
      // vertex settled already: the launch then ends with a split step that moved nothing.
      CHECK(heavy == 0);
      CHECK((splits + 1 == traced.stats.phases || splits == traced.stats.phases));
    }
    // Untraced runs report no steps, and the same distances.
    engine->run(source, {});
    const grb::sssp::Result untraced = engine->result();
    CHECK(untraced.stats.steps.empty());
    CHECK(untraced.distance == expected);
  }
  if (!traced_any) MESSAGE("no persistent cuda engine tested here (no GPU, or not selected)");
}
