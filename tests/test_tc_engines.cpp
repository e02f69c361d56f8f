// Every triangle-counting engine in the registry (the linear-algebra count on each backend, the
// hand-written merge kernel on cuda) against a plain host count written here, LAGraph's known
// counts, and closed forms (a complete graph has n(n-1)(n-2)/6 triangles, a wheel of r rim
// vertices r). Graphs: hand-made (complete graphs whose lists go to the warp kernel, a wheel, a
// star, self loops, directed edges), generated Kronecker / grid / Erdos-Renyi graphs, and the
// real graphs in the data directory. Cuda engines are skipped, visibly, where no GPU is present.
// Under compute-sanitizer (GRB_SANITIZER=1) the graphs are smaller.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <grb/generate.hpp>
#include <grb/grb.hpp>
#include <grb/io.hpp>

#include "engine_tests.hpp"
#include "support.hpp"
#include "tc/engine.hpp"

namespace {

using grb::Index;
using grb::Offset;

using grb::test::from_edges;
using grb::test::sanitizing;

/// The oracle: triangles u < v < w of the undirected graph A + A' without self loops, by a
/// binary search of w in u's sorted neighbour set for every path u < v < w.
std::uint64_t host_count(const grb::Matrix<bool>& graph) {
  const grb::Csr<bool>& csr = graph.csr();
  std::vector<std::vector<Index>> neighbours(graph.nrows());
  for (Index u = 0; u < graph.nrows(); ++u)
    for (Offset e = csr.row_offsets[u]; e < csr.row_offsets[u + 1]; ++e) {
      const Index v = csr.col_indices[e];
      if (u == v) continue;
      neighbours[u].push_back(v);
      neighbours[v].push_back(u);
    }
  for (auto& list : neighbours) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  std::uint64_t triangles = 0;
  for (Index u = 0; u < graph.nrows(); ++u)
    for (Index v : neighbours[u]) {
      if (v <= u) continue;
      for (Index w : neighbours[v])
        if (w > v && std::binary_search(neighbours[u].begin(), neighbours[u].end(), w))
          ++triangles;
    }
  return triangles;
}

grb::Matrix<bool> complete(Index n) {
  std::vector<std::pair<Index, Index>> edges;
  for (Index u = 0; u < n; ++u)
    for (Index v = u + 1; v < n; ++v) edges.push_back({u, v});
  return from_edges(n, edges, true);
}

std::vector<const grb::tc::EngineInfo*> engines_to_test() {
  return grb::test::engines_to_test(grb::tc::engines(), "test_tc_engines");
}

/// The engine's count (run twice: the second run must start afresh).
std::uint64_t engine_count(const grb::tc::EngineInfo& info, const grb::Matrix<bool>& graph) {
  auto engine = info.make();
  engine->prepare(info.backend == grb::Backend::cpu ? graph : graph.to(grb::Backend::cuda));
  engine->run();
  const std::uint64_t first = engine->result().triangles;
  engine->run();
  CHECK(engine->result().triangles == first);
  return first;
}

struct TestGraph {
  std::string name;
  grb::Matrix<bool> matrix;
};

/// Every engine's count equals the host count.
void check_every_engine(const std::vector<TestGraph>& graphs) {
  for (const TestGraph& graph : graphs) {
    INFO("graph " << graph.name);
    const std::uint64_t expected = host_count(graph.matrix);
    for (const auto* info : engines_to_test()) {
      INFO("engine " << info->name << " (" << grb::to_string(info->backend) << ")");
      CHECK(engine_count(*info, graph.matrix) == expected);
    }
  }
}

}  // namespace

TEST_CASE("the triangle-counting engine table: names, backends, lookups") {
  grb::test::check_table_names(grb::tc::engines(), {"linalg"}, {"linalg", "merge"});
  CHECK(grb::tc::find_engine("linalg", grb::Backend::cpu).name == "linalg");
  CHECK_THROWS_AS(grb::tc::find_engine("merge", grb::Backend::cpu), grb::InvalidValue);
  CHECK_THROWS_AS(grb::tc::find_engine("no-such-engine", grb::Backend::cpu), grb::InvalidValue);
}

TEST_CASE("tc engines reject non-square graphs and runs before prepare") {
  grb::test::check_misuse_refused(engines_to_test());
}

TEST_CASE("closed forms: complete graphs and a wheel") {
  const Index large = sanitizing ? 90 : 200;  // lists of up to 199: the warp-per-edge kernel
  for (Index n : {Index{3}, Index{4}, Index{10}, large}) {
    const std::uint64_t expected = std::uint64_t(n) * (n - 1) * (n - 2) / 6;
    const grb::Matrix<bool> graph = complete(n);
    CHECK(host_count(graph) == expected);
    for (const auto* info : engines_to_test()) {
      INFO("engine " << info->name << " (" << grb::to_string(info->backend) << "), K" << n);
      CHECK(engine_count(*info, graph) == expected);
    }
  }
  // A wheel: hub 0 joined to a rim cycle 1..r; its triangles are the r (hub, rim edge) pairs.
  const Index rim = sanitizing ? 500 : 5000;
  std::vector<std::pair<Index, Index>> edges;
  for (Index v = 1; v <= rim; ++v) edges.push_back({0, v}), edges.push_back({v, v % rim + 1});
  const grb::Matrix<bool> wheel = from_edges(rim + 1, edges, true);
  CHECK(host_count(wheel) == rim);
  for (const auto* info : engines_to_test()) {
    INFO("engine " << info->name << " (" << grb::to_string(info->backend) << "), wheel");
    CHECK(engine_count(*info, wheel) == rim);
  }
}

TEST_CASE("hand-made graphs: star, self loops, directed edges, no edges") {
  std::vector<TestGraph> graphs;
  {
    std::vector<std::pair<Index, Index>> edges;
    for (Index v = 1; v < 3000; ++v) edges.push_back({0, v});
    graphs.push_back({"star", from_edges(3000, edges, true)});
  }
  // Triangles 0-1-2 (edges in one direction each, one of them both ways) and 2-3-4, with self
  // loops on 0 and 3 that must not count, and a dangling directed edge.
  graphs.push_back({"directed with self loops",
                    from_edges(7, {{0, 1}, {1, 2}, {2, 0}, {0, 2}, {0, 0}, {3, 3}, {2, 3},
                                   {4, 3}, {2, 4}, {5, 6}},
                               false)});
  graphs.push_back({"no edges", grb::Matrix<bool>(20, 20, grb::Backend::cpu)});
  graphs.push_back({"single vertex", grb::Matrix<bool>(1, 1, grb::Backend::cpu)});
  check_every_engine(graphs);
  CHECK(host_count(graphs[1].matrix) == 2);
}

TEST_CASE("generated graphs: Kronecker, grid, Erdos-Renyi, directed and undirected") {
  grb::generate::Options directed;
  directed.symmetrize = false;
  const int scale = sanitizing ? 8 : 12;
  const Index side = sanitizing ? 20 : 100;
  const Index n = sanitizing ? 500 : 5000;
  std::vector<TestGraph> graphs;
  graphs.push_back({"kronecker", grb::pattern(grb::generate::kronecker(scale))});
  graphs.push_back(
      {"kronecker directed", grb::pattern(grb::generate::kronecker(scale - 1, 16, directed))});
  graphs.push_back({"grid", grb::pattern(grb::generate::grid(side))});
  graphs.push_back({"grid directed", grb::pattern(grb::generate::grid(side, 0.25, directed))});
  graphs.push_back({"erdos-renyi", grb::pattern(grb::generate::erdos_renyi(n, 20))});
  graphs.push_back(
      {"erdos-renyi directed", grb::pattern(grb::generate::erdos_renyi(n, 10, directed))});
  check_every_engine(graphs);
}

TEST_CASE("LAGraph known answers: triangle counts of A + A', on every engine") {
  std::vector<std::pair<const char*, std::uint64_t>> known = {
      {"karate", 45},  {"A", 11}, {"jagmesh7", 2016}, {"ldbc-undirected-example", 4},
      {"ldbc-wcc-example", 5}, {"LFAT5", 0}};
  if (!sanitizing) known.push_back({"bcsstk13", 342300});
  for (const auto& [name, count] : known) {
    CAPTURE(name);
    const grb::Matrix<bool> graph = grb::pattern(
        grb::io::read_graph(grb::test::data_file(std::string("lagraph/") + name + ".mtx")).matrix);
    CHECK(host_count(graph) == count);
    for (const auto* info : engines_to_test()) {
      INFO("engine " << info->name << " (" << grb::to_string(info->backend) << ")");
      CHECK(engine_count(*info, graph) == count);
    }
  }
}

TEST_CASE("real graphs from the data directory: every engine equals the host count") {
  std::vector<TestGraph> graphs;
  auto add = [&](const std::string& relative) {
    graphs.push_back(
        {relative, grb::pattern(grb::io::read_graph(grb::test::data_file(relative)).matrix)});
  };
  add("lagraph/west0067.mtx");
  add("road/berlin-center.mtx");
  if (!sanitizing) {
    add("snap/email-Eu-core.txt");
    add("snap/ca-GrQc.csv");
    add("snap/facebook_combined.txt.gz");
  }
  check_every_engine(graphs);
}
