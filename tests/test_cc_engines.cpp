// Every connected-components engine in the registry (FastSV on each backend, the hand-written
// GPU kernels on cuda), on hand-made shapes (a star with one huge hub, a long path, many tiny
// components, isolated vertices, directed graphs whose components are only weakly connected),
// generated Kronecker / grid / Erdos-Renyi graphs, and the real graphs in the data directory with
// answers fixed by others (LDBC WCC expected outputs, LAGraph's component counts). Every result
// must pass grb::validate::components (which shares no code with the engines) and equal the cpu
// FastSV's labels. Cuda engines are skipped, visibly, where no GPU is present.
// Under compute-sanitizer (GRB_SANITIZER=1) the graphs are smaller.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <grb/generate.hpp>
#include <grb/grb.hpp>
#include <grb/io.hpp>

#include "cc/engine.hpp"
#include "engine_tests.hpp"
#include "support.hpp"
#include "validate/validate.hpp"

namespace {

using grb::Index;

using grb::test::from_edges;
using grb::test::sanitizing;

std::vector<const grb::cc::EngineInfo*> engines_to_test() {
  return grb::test::engines_to_test(grb::cc::engines(), "test_cc_engines");
}

/// Runs the engine twice (the second run must start afresh) and returns its validated labels.
std::vector<Index> checked_labels(const grb::cc::EngineInfo& info, const grb::Matrix<bool>& graph) {
  auto engine = info.make();
  engine->prepare(info.backend == grb::Backend::cpu ? graph : graph.to(grb::Backend::cuda));
  engine->run();
  const grb::cc::Result first = engine->result();
  engine->run();
  const grb::cc::Result result = engine->result();
  CHECK(result.label == first.label);
  REQUIRE(result.label.size() == graph.nrows());
  if (graph.nrows() > 0) CHECK(result.stats.iterations > 0);
  const grb::validate::Result valid =
      grb::validate::components(graph, std::span<const Index>(result.label));
  INFO(valid.message);
  CHECK(valid.ok);
  return result.label;
}

struct TestGraph {
  std::string name;
  grb::Matrix<bool> matrix;
};

/// Every engine's labels equal the cpu FastSV's, and all pass the validator.
void check_every_engine(const std::vector<TestGraph>& graphs) {
  const auto& reference = grb::cc::find_engine("fastsv", grb::Backend::cpu);
  for (const TestGraph& graph : graphs) {
    INFO("graph " << graph.name);
    const std::vector<Index> expected = checked_labels(reference, graph.matrix);
    for (const auto* info : engines_to_test()) {
      INFO("engine " << info->name << " (" << grb::to_string(info->backend) << ")");
      const std::vector<Index> label = checked_labels(*info, graph.matrix);
      std::size_t wrong = 0, first_wrong = 0;
      for (std::size_t v = 0; v < expected.size(); ++v)
        if (label[v] != expected[v] && wrong++ == 0) first_wrong = v;
      INFO("first differing label at vertex " << first_wrong);
      CHECK(wrong == 0);
    }
  }
}

std::size_t count_components(const std::vector<Index>& labels) {
  return std::set<Index>(labels.begin(), labels.end()).size();
}

}  // namespace

TEST_CASE("the connected-components engine table: names, backends, lookups") {
  grb::test::check_table_names(grb::cc::engines(), {"fastsv"},
                               {"fastsv", "label-propagation", "hook-jump"});
  CHECK(grb::cc::find_engine("fastsv", grb::Backend::cpu).name == "fastsv");
  CHECK_THROWS_AS(grb::cc::find_engine("hook-jump", grb::Backend::cpu), grb::InvalidValue);
  CHECK_THROWS_AS(grb::cc::find_engine("no-such-engine", grb::Backend::cpu), grb::InvalidValue);
}

TEST_CASE("cc engines reject non-square graphs and runs before prepare") {
  grb::test::check_misuse_refused(engines_to_test());
}

TEST_CASE("hand-made graphs: star, path, tiny components, isolated vertices, directed") {
  std::vector<TestGraph> graphs;
  {
    // A hub whose list the warp walks, a tail behind one leaf, and isolated vertices around it.
    const Index leaves = sanitizing ? 2000 : 20000;
    std::vector<std::pair<Index, Index>> edges;
    for (Index v = 1; v <= leaves; ++v) edges.push_back({5, 5 + v});
    edges.push_back({5 + leaves, 6 + leaves});
    graphs.push_back({"star", from_edges(leaves + 10, edges, true)});
    graphs.push_back({"star (directed out of the hub)", from_edges(leaves + 10, edges, false)});
  }
  {
    // A long path, numbered so that labels must travel from the far end: one vertex per sweep
    // for label propagation, chains of hooks for hook-jump.
    const Index length = sanitizing ? 600 : 5000;
    std::vector<std::pair<Index, Index>> edges;
    for (Index v = 0; v + 1 < length; ++v) edges.push_back({length - 1 - v, length - 2 - v});
    graphs.push_back({"path (undirected)", from_edges(length, edges, true)});
    graphs.push_back({"path (directed, towards vertex 0)", from_edges(length, edges, false)});
  }
  {
    // Many tiny components (pairs, triangles) between isolated vertices; no giant component.
    const Index pieces = sanitizing ? 300 : 3000;
    std::vector<std::pair<Index, Index>> edges;
    for (Index p = 0; p < pieces; ++p) {
      const Index base = 7 * p;
      edges.push_back({base + 1, base + 2});
      edges.push_back({base + 4, base + 3});
      edges.push_back({base + 5, base + 4});
      edges.push_back({base + 3, base + 5});
    }
    graphs.push_back({"tiny components", from_edges(7 * pieces, edges, true)});
    graphs.push_back({"tiny components (directed)", from_edges(7 * pieces, edges, false)});
  }
  {
    // hook-jump's sampled giant tree (hub 3) meets vertex 0's piece only through the edge
    // (10, 20), which neither end samples (10's first two neighbours are 0 and 1, 20's are 3 and
    // 4): linking the remaining neighbours hooks the giant root under 0, and the giant's
    // vertices, skipped by that pass, get their label from the last flatten.
    const Index leaves = 1000;
    std::vector<std::pair<Index, Index>> edges{{0, 1}, {0, 10}, {1, 10}, {10, 20},
                                               {3, 4},  {3, 20}, {4, 20}};
    for (Index v = 0; v < leaves; ++v) edges.push_back({3, 21 + v});
    graphs.push_back({"giant tree joined late to vertex 0", from_edges(21 + leaves, edges, true)});
  }
  {
    // The largest component is not the one the samples find: triangles (2k, 2k + 1, e_k) with
    // e_k = 2 * triangles + k, chained e_k - e_{k+1}. Every vertex's first two neighbours lie in
    // its own triangle, so sampling leaves triangles, and a smaller star (hub 3 * triangles)
    // is the largest tree; every triangle vertex then links its remaining neighbours.
    const Index triangles = 200, star = 300;
    std::vector<std::pair<Index, Index>> edges;
    for (Index k = 0; k < triangles; ++k) {
      const Index e = 2 * triangles + k;
      edges.push_back({2 * k, 2 * k + 1});
      edges.push_back({2 * k, e});
      edges.push_back({2 * k + 1, e});
      if (k + 1 < triangles) edges.push_back({e, e + 1});
    }
    for (Index v = 1; v <= star; ++v) edges.push_back({3 * triangles, 3 * triangles + v});
    graphs.push_back({"largest component fragmented by sampling",
                      from_edges(3 * triangles + star + 1, edges, true)});
  }
  // Weakly connected only: 3 -> 1 <- 0, 2 -> 3; 4 <- 5; 6 alone; self loop on 7.
  graphs.push_back({"small directed",
                    from_edges(8, {{3, 1}, {0, 1}, {2, 3}, {5, 4}, {7, 7}}, false)});
  graphs.push_back({"isolated vertices only", grb::Matrix<bool>(50, 50, grb::Backend::cpu)});
  graphs.push_back({"single vertex", grb::Matrix<bool>(1, 1, grb::Backend::cpu)});
  check_every_engine(graphs);

  // The small directed graph's weak components, written out.
  for (const auto* info : engines_to_test()) {
    INFO("engine " << info->name << " (" << grb::to_string(info->backend) << ")");
    const auto label = checked_labels(
        *info, from_edges(8, {{3, 1}, {0, 1}, {2, 3}, {5, 4}, {7, 7}}, false));
    CHECK(label == std::vector<Index>{0, 0, 0, 0, 4, 4, 6, 7});
  }
}

TEST_CASE("generated graphs: Kronecker, grid, Erdos-Renyi, directed and undirected") {
  grb::generate::Options directed;
  directed.symmetrize = false;
  const int scale = sanitizing ? 9 : 13;
  const Index side = sanitizing ? 20 : 100;
  const Index n = sanitizing ? 500 : 5000;
  std::vector<TestGraph> graphs;
  graphs.push_back({"kronecker", grb::pattern(grb::generate::kronecker(scale))});
  graphs.push_back(
      {"kronecker directed", grb::pattern(grb::generate::kronecker(scale - 1, 16, directed))});
  graphs.push_back({"grid", grb::pattern(grb::generate::grid(side))});
  // Dropping 60% of the grid's edges leaves it below the percolation threshold: many pieces.
  graphs.push_back({"grid, mostly dropped", grb::pattern(grb::generate::grid(side, 0.6))});
  graphs.push_back({"grid directed", grb::pattern(grb::generate::grid(side, 0.25, directed))});
  graphs.push_back({"erdos-renyi", grb::pattern(grb::generate::erdos_renyi(n, 6))});
  // Average degree 1: around the giant component's threshold, thousands of small components.
  graphs.push_back({"erdos-renyi sparse", grb::pattern(grb::generate::erdos_renyi(n, 1))});
  graphs.push_back(
      {"erdos-renyi directed", grb::pattern(grb::generate::erdos_renyi(n, 1, directed))});
  check_every_engine(graphs);
}

TEST_CASE("LDBC Graphalytics WCC expected outputs, on every engine (as partitions)") {
  for (const char* name :
       {"example-directed", "example-undirected", "test-wcc-directed", "test-wcc-undirected"}) {
    CAPTURE(name);
    const auto graph = grb::io::read_graph(
        grb::test::data_file(std::string("ldbc/") + name + ".properties"));
    std::ifstream in(grb::test::data_file(std::string("ldbc/") + name + "-WCC"));
    std::map<std::uint64_t, std::uint64_t> expected;
    for (std::uint64_t id, component; in >> id >> component;) expected[id] = component;
    REQUIRE(expected.size() == graph.matrix.nrows());
    const grb::Matrix<bool> adjacency = grb::pattern(graph.matrix);
    for (const auto* info : engines_to_test()) {
      INFO("engine " << info->name << " (" << grb::to_string(info->backend) << ")");
      const auto label = checked_labels(*info, adjacency);
      // Equal up to renaming: expected component -> our label is a bijection.
      std::map<std::uint64_t, Index> forward;
      std::map<Index, std::uint64_t> backward;
      std::size_t mismatches = 0;
      for (Index v = 0; v < label.size(); ++v) {
        const std::uint64_t want = expected.at(grb::io::to_external(graph, v));
        mismatches += forward.emplace(want, label[v]).first->second != label[v];
        mismatches += backward.emplace(label[v], want).first->second != want;
      }
      CHECK(mismatches == 0);
    }
  }
}

TEST_CASE("LAGraph known answers: component counts of A + A', on every engine") {
  const std::pair<const char*, std::size_t> known[] = {
      {"karate", 1}, {"A", 1},         {"jagmesh7", 1}, {"ldbc-undirected-example", 1},
      {"ldbc-wcc-example", 1}, {"LFAT5", 3}, {"LFAT5_two", 6}, {"bcsstk13", 1},
      {"tree-example", 1}};
  for (const auto& [name, count] : known) {
    CAPTURE(name);
    const auto graph =
        grb::io::read_graph(grb::test::data_file(std::string("lagraph/") + name + ".mtx"));
    const grb::Matrix<bool> adjacency = grb::pattern(graph.matrix);
    for (const auto* info : engines_to_test()) {
      INFO("engine " << info->name << " (" << grb::to_string(info->backend) << ")");
      CHECK(count_components(checked_labels(*info, adjacency)) == count);
    }
  }
}

TEST_CASE("real graphs from the data directory: every engine equals the cpu FastSV") {
  std::vector<TestGraph> graphs;
  auto add = [&](const std::string& relative) {
    graphs.push_back(
        {relative, grb::pattern(grb::io::read_graph(grb::test::data_file(relative)).matrix)});
  };
  add("lagraph/west0067.mtx");
  add("lagraph/ldbc-directed-example.mtx");
  add("road/berlin-center.mtx");
  if (!sanitizing) {
    add("snap/email-Eu-core.txt");
    add("snap/ca-GrQc.csv");
  }
  check_every_engine(graphs);
}
