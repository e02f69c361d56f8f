// BFS, SSSP and connected components written with grb operations, on every backend:
// the LDBC Graphalytics expected outputs, LAGraph's known answers, generated graphs, and the
// validators (which share no code with the algorithms) on every result.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <grb/generate.hpp>
#include <grb/grb.hpp>
#include <grb/io.hpp>

#include "bfs/linear_algebra.hpp"
#include "cc/fastsv.hpp"
#include "sssp/bellman_ford.hpp"
#include "support.hpp"
#include "validate/validate.hpp"

namespace {

using grb::Index;

/// An LDBC expected-output file: `vertexId value` per line, keyed by the file's own ids.
std::map<std::uint64_t, std::string> read_expected(const std::string& relative) {
  std::ifstream in(grb::test::data_file(relative));
  std::map<std::uint64_t, std::string> expected;
  std::uint64_t id;
  std::string value;
  while (in >> id >> value) expected[id] = value;
  REQUIRE_FALSE(expected.empty());
  return expected;
}

struct HostBfs {
  std::vector<std::int32_t> level;
  std::vector<Index> parent;
};

HostBfs to_host(const grb::algorithms::BfsResult& result, Index n) {
  HostBfs host{std::vector<std::int32_t>(n, grb::validate::unreached_level),
               std::vector<Index>(n, grb::no_index)};
  std::vector<Index> ids;
  std::vector<std::int32_t> levels;
  result.level.extract_tuples(ids, levels);
  for (std::size_t e = 0; e < ids.size(); ++e) host.level[ids[e]] = levels[e];
  std::vector<Index> parents;
  result.parent.extract_tuples(ids, parents);
  for (std::size_t e = 0; e < ids.size(); ++e) host.parent[ids[e]] = parents[e];
  return host;
}

std::vector<double> dense_distances(const grb::Vector<double>& distance) {
  std::vector<double> host(distance.size(), INFINITY);
  std::vector<Index> ids;
  std::vector<double> values;
  distance.extract_tuples(ids, values);
  for (std::size_t e = 0; e < ids.size(); ++e) host[ids[e]] = values[e];
  return host;
}

std::vector<Index> dense_indices(const grb::Vector<Index>& vector) {
  std::vector<Index> host(vector.size(), grb::no_index);
  std::vector<Index> ids, values;
  vector.extract_tuples(ids, values);
  for (std::size_t e = 0; e < ids.size(); ++e) host[ids[e]] = values[e];
  return host;
}

/// Runs BFS on `backend`, validates it, and returns the levels.
std::vector<std::int32_t> checked_bfs(const grb::Matrix<double>& graph, Index source,
                                      grb::Backend backend) {
  const auto adjacency = grb::pattern(graph).to(backend);
  const auto result = to_host(grb::algorithms::bfs(adjacency, source), graph.nrows());
  const auto verdict = grb::validate::bfs(graph, source, result.level, result.parent);
  INFO(verdict.message);
  CHECK(verdict.ok);
  // Without parents the levels are the same.
  const auto levels_only = grb::algorithms::bfs(adjacency, source, false);
  CHECK(to_host(levels_only, graph.nrows()).level == result.level);
  CHECK(levels_only.parent.size() == 0);
  return result.level;
}

std::vector<double> checked_sssp(const grb::Matrix<double>& graph, Index source,
                                 grb::Backend backend) {
  const auto result = grb::algorithms::sssp(graph.to(backend), source);
  const auto distance = dense_distances(result.distance);
  const auto parent = dense_indices(result.parent);
  const auto verdict = grb::validate::sssp(graph, source, distance, parent);
  INFO(verdict.message);
  CHECK(verdict.ok);
  return distance;
}

std::vector<Index> checked_components(const grb::Matrix<double>& graph, bool symmetric,
                                      grb::Backend backend) {
  const auto labels =
      dense_indices(grb::algorithms::connected_components(graph.to(backend), symmetric));
  const auto verdict = grb::validate::components(graph, labels);
  INFO(verdict.message);
  CHECK(verdict.ok);
  return labels;
}

std::size_t count_components(const std::vector<Index>& labels) {
  return std::set<Index>(labels.begin(), labels.end()).size();
}

const char* const ldbc_bfs_graphs[] = {"example-directed", "example-undirected",
                                       "test-bfs-directed", "test-bfs-undirected"};
const char* const ldbc_sssp_graphs[] = {"example-directed", "example-undirected",
                                        "test-sssp-directed", "test-sssp-undirected"};
const char* const ldbc_wcc_graphs[] = {"example-directed", "example-undirected",
                                       "test-wcc-directed", "test-wcc-undirected"};

}  // namespace

TEST_CASE("LDBC Graphalytics BFS expected outputs") {
  for (const char* name : ldbc_bfs_graphs) {
    CAPTURE(name);
    const auto graph = grb::io::read_graph(grb::test::data_file(std::string("ldbc/") + name + ".properties"));
    REQUIRE(graph.source.has_value());
    const Index source = grb::io::to_internal(graph, *graph.source);
    const auto expected = read_expected(std::string("ldbc/") + name + "-BFS");
    GRB_FOR_EACH_BACKEND(backend) {
      const auto level = checked_bfs(graph.matrix, source, backend);
      REQUIRE(expected.size() == level.size());
      for (Index v = 0; v < level.size(); ++v) {
        const std::string& want = expected.at(grb::io::to_external(graph, v));
        const std::string got = level[v] < 0 ? "9223372036854775807" : std::to_string(level[v]);
        CHECK(got == want);
      }
    }
  }
}

TEST_CASE("LDBC Graphalytics SSSP expected outputs") {
  for (const char* name : ldbc_sssp_graphs) {
    CAPTURE(name);
    const auto graph = grb::io::read_graph(grb::test::data_file(std::string("ldbc/") + name + ".properties"));
    REQUIRE(graph.source.has_value());
    const Index source = grb::io::to_internal(graph, *graph.source);
    const auto expected = read_expected(std::string("ldbc/") + name + "-SSSP");
    GRB_FOR_EACH_BACKEND(backend) {
      const auto distance = checked_sssp(graph.matrix, source, backend);
      REQUIRE(expected.size() == distance.size());
      for (Index v = 0; v < distance.size(); ++v) {
        const std::string& want = expected.at(grb::io::to_external(graph, v));
        CAPTURE(v);
        if (want == "infinity" || want == "Infinity") {
          CHECK(std::isinf(distance[v]));
        } else {
          const double value = std::stod(want);
          CHECK(std::abs(distance[v] - value) <= 1e-4 * value);
        }
      }
    }
  }
}

TEST_CASE("LDBC Graphalytics WCC expected outputs (as partitions)") {
  for (const char* name : ldbc_wcc_graphs) {
    CAPTURE(name);
    const auto graph = grb::io::read_graph(grb::test::data_file(std::string("ldbc/") + name + ".properties"));
    const auto expected = read_expected(std::string("ldbc/") + name + "-WCC");
    GRB_FOR_EACH_BACKEND(backend) {
      const auto label = checked_components(graph.matrix, !graph.directed, backend);
      REQUIRE(expected.size() == label.size());
      // Equal up to renaming: the map expected label -> our label is a bijection.
      std::map<std::string, Index> forward;
      std::map<Index, std::string> backward;
      for (Index v = 0; v < label.size(); ++v) {
        const std::string& want = expected.at(grb::io::to_external(graph, v));
        CHECK(forward.emplace(want, label[v]).first->second == label[v]);
        CHECK(backward.emplace(label[v], want).first->second == want);
      }
    }
  }
}

TEST_CASE("LAGraph known answers: karate BFS levels from vertex 30") {
  const auto graph = grb::io::read_graph(grb::test::data_file("lagraph/karate.mtx"));
  const std::vector<std::int32_t> expected{2, 1, 2, 2, 3, 3, 3, 2, 1, 2, 3, 3, 3, 2, 2, 2, 4,
                                           2, 2, 2, 2, 2, 2, 2, 3, 3, 2, 2, 2, 2, 0, 2, 1, 1};
  GRB_FOR_EACH_BACKEND(backend) { CHECK(checked_bfs(graph.matrix, 30, backend) == expected); }
}

TEST_CASE("LAGraph known answers: connected component counts of A + A'") {
  const std::pair<const char*, std::size_t> known[] = {
      {"karate", 1}, {"A", 1},        {"jagmesh7", 1},  {"ldbc-undirected-example", 1},
      {"ldbc-wcc-example", 1}, {"LFAT5", 3}, {"LFAT5_two", 6}, {"bcsstk13", 1},
      {"tree-example", 1}};
  for (const auto& [name, count] : known) {
    CAPTURE(name);
    const auto graph =
        grb::io::read_graph(grb::test::data_file(std::string("lagraph/") + name + ".mtx"));
    GRB_FOR_EACH_BACKEND(backend) {
      CHECK(count_components(checked_components(graph.matrix, false, backend)) == count);
    }
  }
}

TEST_CASE("BFS, SSSP and CC on generated graphs agree across backends and validate") {
  const grb::Matrix<double> graphs[] = {
      grb::generate::kronecker(10, 16, {.seed = 7}),
      grb::generate::grid(30, 0.25, {.seed = 3}),
      grb::generate::erdos_renyi(500, 3.0, {.seed = 5}),
      grb::generate::kronecker(8, 4, {.seed = 2, .symmetrize = false}),
  };
  for (const auto& graph : graphs) {
    CAPTURE(graph.nrows());
    std::vector<std::vector<std::int32_t>> levels;
    std::vector<std::vector<double>> distances;
    std::vector<std::vector<Index>> labels;
    const Index source = graph.csr().row_offsets[1] > 0 ? 0 : graph.csr().col_indices[0];
    GRB_FOR_EACH_BACKEND(backend) {
      levels.push_back(checked_bfs(graph, source, backend));
      distances.push_back(checked_sssp(graph, source, backend));
      labels.push_back(checked_components(graph, false, backend));
    }
    for (std::size_t b = 1; b < levels.size(); ++b) {
      CHECK(levels[b] == levels[0]);
      CHECK(labels[b] == labels[0]);
      for (std::size_t v = 0; v < distances[0].size(); ++v)
        CHECK(distances[b][v] == doctest::Approx(distances[0][v]).epsilon(1e-12));
    }
  }
}

TEST_CASE("SSSP on the Berlin road network (zero-length links) validates") {
  const auto graph = grb::io::read_graph(grb::test::data_file("road/berlin-center.mtx"));
  GRB_FOR_EACH_BACKEND(backend) {
    const auto distance = checked_sssp(graph.matrix, 1, backend);
    CHECK(distance[1] == 0.0);
  }
}

TEST_CASE("BFS into a reused result: nothing of the last search stays") {
  // Sparse random graphs fall into many components: a search from a small component after one
  // from the giant component must leave the giant component unreached, and a search over a graph
  // of another size, or without parents, must resize the vectors it reuses.
  const auto sparse = grb::generate::erdos_renyi(3000, 1.2);
  const auto grid = grb::generate::grid(30);
  GRB_FOR_EACH_BACKEND(backend) {
    const auto sparse_pattern = grb::pattern(sparse).to(backend);
    const auto grid_pattern = grb::pattern(grid).to(backend);
    const auto& offsets = sparse.csr().row_offsets;
    std::vector<Index> sources;  // vertices with an edge, the reach of their searches varying
    for (Index v = 0; v < sparse.nrows() && sources.size() < 6; v += 97)
      if (offsets[v + 1] > offsets[v]) sources.push_back(v);
    REQUIRE(sources.size() == 6);
    grb::algorithms::BfsResult reused;
    std::set<std::size_t> reaches;
    for (std::size_t k = 0; k < sources.size(); ++k) {
      CAPTURE(sources[k]);
      const bool parents = k != 2;
      grb::algorithms::bfs(reused, sparse_pattern, sources[k], parents);
      const auto got = to_host(reused, sparse.nrows());
      const auto fresh = to_host(grb::algorithms::bfs(sparse_pattern, sources[k]), sparse.nrows());
      CHECK(got.level == fresh.level);
      reaches.insert(std::size_t(std::count_if(got.level.begin(), got.level.end(),
                                               [](std::int32_t l) { return l >= 0; })));
      if (parents) {
        const auto verdict = grb::validate::bfs(sparse, sources[k], got.level, got.parent);
        INFO(verdict.message);
        CHECK(verdict.ok);
      } else {
        CHECK(reused.parent.size() == 0);
      }
      if (k == 3) {  // another graph in between
        grb::algorithms::bfs(reused, grid_pattern, 5);
        const auto on_grid = to_host(reused, grid.nrows());
        const auto verdict = grb::validate::bfs(grid, 5, on_grid.level, on_grid.parent);
        INFO(verdict.message);
        CHECK(verdict.ok);
      }
    }
    CHECK(reaches.size() > 1);  // the searches did reach different parts
  }
}

TEST_CASE("algorithm errors: non-square matrix, bad source, negative weights") {
  GRB_FOR_EACH_BACKEND(backend) {
    grb::Matrix<double> rectangular(3, 4, backend);
    CHECK_THROWS_AS(grb::algorithms::bfs(rectangular, 0), grb::DimensionMismatch);
    CHECK_THROWS_AS(grb::algorithms::sssp(rectangular, 0), grb::DimensionMismatch);
    CHECK_THROWS_AS(grb::algorithms::connected_components(rectangular), grb::DimensionMismatch);
    grb::Matrix<double> square(3, 3, backend);
    square.build(std::vector<Index>{0, 1}, std::vector<Index>{1, 2}, std::vector<double>{1.0, -2.0});
    CHECK_THROWS_AS(grb::algorithms::bfs(square, 3), grb::IndexOutOfBounds);
    CHECK_THROWS_AS(grb::algorithms::sssp(square, 0), grb::InvalidValue);
  }
}
