// The PageRank example (examples/pagerank.hpp) on real graphs: against the LDBC Graphalytics
// expected outputs, and against a plain power iteration written here, on every backend.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../examples/pagerank.hpp"
#include "grb/grb.hpp"
#include "support.hpp"

// No `using namespace grb` at file scope: under nvcc, grb::cuda would clash with libcu++'s ::cuda.
using grb::Backend;
using grb::Index;
using grb::Matrix;
using grb::Vector;
namespace examples = grb::examples;
namespace io = grb::io;
namespace test = grb::test;

namespace {

/// PageRank by the textbook power iteration over an edge list, sharing nothing with the example:
/// LDBC Graphalytics' definition (dangling vertices spread their rank uniformly), `iterations`
/// steps, or fewer once the L1 change of a step is below `tolerance`.
std::vector<double> reference_pagerank(const Matrix<double>& graph, double damping,
                                       int iterations, double tolerance) {
  std::vector<Index> from, to;
  std::vector<double> weights;
  graph.to(Backend::cpu).extract_tuples(from, to, weights);
  const std::size_t n = graph.nrows();
  std::vector<std::size_t> out_degree(n, 0);
  for (Index u : from) ++out_degree[u];
  std::vector<double> rank(n, 1.0 / n), next(n);
  for (int step = 0; step < iterations; ++step) {
    double dangling = 0;
    for (std::size_t v = 0; v < n; ++v)
      if (out_degree[v] == 0) dangling += rank[v];
    for (std::size_t v = 0; v < n; ++v) next[v] = (1 - damping) / n + damping * dangling / n;
    for (std::size_t e = 0; e < from.size(); ++e)
      next[to[e]] += damping * rank[from[e]] / out_degree[from[e]];
    double change = 0;
    for (std::size_t v = 0; v < n; ++v) change += std::fabs(next[v] - rank[v]);
    rank.swap(next);
    if (change < tolerance) break;
  }
  return rank;
}

std::vector<double> dense(const Vector<double>& v) {
  std::vector<double> values;
  v.extract_dense(values, std::nan(""));
  return values;
}

/// `key = value` of a Graphalytics properties file, for a key ending in `suffix`.
std::string property(const std::string& file, const std::string& suffix) {
  std::ifstream in(test::data_file(file));
  for (std::string line; std::getline(in, line);) {
    const auto equals = line.find('=');
    if (line.empty() || line[0] == '#' || equals == std::string::npos) continue;
    std::string key = line.substr(0, equals);
    while (!key.empty() && key.back() == ' ') key.pop_back();
    if (key.size() >= suffix.size() && key.ends_with(suffix))
      return line.substr(line.find_first_not_of(' ', equals + 1));
  }
  FAIL("no property " << suffix << " in " << file);
  return {};
}

/// An LDBC expected output: file id -> value.
std::map<std::uint64_t, double> expected_output(const std::string& file) {
  std::ifstream in(test::data_file(file));
  std::map<std::uint64_t, double> values;
  std::uint64_t id;
  double value;
  while (in >> id >> value) values[id] = value;
  return values;
}

void check_ldbc(const std::string& name) {
  const io::Graph graph = io::read_graph(test::data_file("ldbc/" + name + ".properties"));
  const std::string properties = "ldbc/" + name + ".properties";
  const double damping = std::stod(property(properties, ".pr.damping-factor"));
  const int iterations = std::stoi(property(properties, ".pr.num-iterations"));
  const auto expected = expected_output("ldbc/" + name + "-PR");
  REQUIRE(expected.size() == graph.matrix.nrows());
  const auto reference = reference_pagerank(graph.matrix, damping, iterations, 0);
  GRB_FOR_EACH_BACKEND(backend) {
    const auto result = examples::pagerank(
        graph.matrix.to(backend),
        {.damping = damping, .tolerance = 0, .max_iterations = iterations});
    CHECK(result.iterations == iterations);
    const auto rank = dense(result.rank);
    for (Index v = 0; v < graph.matrix.nrows(); ++v) {
      const double want = expected.at(io::to_external(graph, v));
      INFO(name << " vertex " << io::to_external(graph, v) << " on " << grb::to_string(backend));
      // LDBC's rule for floating-point outputs: within 1e-4 of the expected value, relatively.
      CHECK(std::fabs(rank[v] - want) <= 1e-4 * want);
      CHECK(rank[v] == doctest::Approx(reference[v]).epsilon(1e-12));
    }
  }
}

void check_against_reference(const Matrix<double>& graph, const std::string& name) {
  const double tolerance = 1e-9;
  const auto reference = reference_pagerank(graph, 0.85, 1000, tolerance);
  GRB_FOR_EACH_BACKEND(backend) {
    const auto result =
        examples::pagerank(graph.to(backend), {.tolerance = tolerance, .max_iterations = 1000});
    INFO(name << " on " << grb::to_string(backend) << ": " << result.iterations << " iterations");
    CHECK(result.iterations < 1000);
    CHECK(result.change < tolerance);
    REQUIRE(result.rank.nvals() == graph.nrows());
    const auto rank = dense(result.rank);
    double sum = 0;
    for (Index v = 0; v < graph.nrows(); ++v) {
      INFO("vertex " << v);
      CHECK(rank[v] == doctest::Approx(reference[v]).epsilon(1e-9));
      sum += rank[v];
    }
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-12));
  }
}

}  // namespace

TEST_CASE("pagerank example: LDBC Graphalytics expected outputs") {
  for (const char* name :
       {"test-pr-directed", "test-pr-undirected", "example-directed", "example-undirected"}) {
    SUBCASE(name) { check_ldbc(name); }
  }
}

TEST_CASE("pagerank example: the plain power iteration on real graphs") {
  SUBCASE("karate (undirected)") {
    check_against_reference(io::read_graph(test::data_file("lagraph/karate.mtx")).matrix,
                            "karate");
  }
  SUBCASE("email-Eu-core (directed, with dangling vertices)") {
    const io::Graph graph = io::read_graph(test::data_file("snap/email-Eu-core.txt"));
    check_against_reference(graph.matrix, "email-Eu-core");
  }
  SUBCASE("west0067 (directed, weighted: weights are ignored)") {
    check_against_reference(io::read_graph(test::data_file("lagraph/west0067.mtx")).matrix,
                            "west0067");
  }
}

TEST_CASE("pagerank example: karate's known ranks") {
  // NetworkX's nx.pagerank(G, alpha=0.85) on the unweighted karate club graph, rounded to 4
  // places (0.10092 and 0.09700): vertex 33 ranks first, vertex 0 second.
  MESSAGE("backends: " << test::backend_summary());
  const io::Graph graph = io::read_graph(test::data_file("lagraph/karate.mtx"));
  GRB_FOR_EACH_BACKEND(backend) {
    const auto rank =
        dense(examples::pagerank(graph.matrix.to(backend), {.tolerance = 1e-12}).rank);
    CHECK(rank[33] == doctest::Approx(0.1009).epsilon(5e-4));
    CHECK(rank[0] == doctest::Approx(0.0970).epsilon(5e-4));
  }
}

TEST_CASE("pagerank example: edge cases") {
  GRB_FOR_EACH_BACKEND(backend) {
    SUBCASE("no edges: every vertex is dangling, ranks stay uniform") {
      const auto result = examples::pagerank(Matrix<double>(4, 4, backend));
      for (double r : dense(result.rank)) CHECK(r == doctest::Approx(0.25));
      CHECK(result.iterations == 1);
    }
    SUBCASE("no vertices") {
      CHECK(examples::pagerank(Matrix<double>(0, 0, backend)).rank.size() == 0);
    }
    SUBCASE("a non-square matrix is refused") {
      CHECK_THROWS_AS(examples::pagerank(Matrix<double>(3, 4, backend)), grb::DimensionMismatch);
    }
    SUBCASE("a damping factor outside [0, 1] is refused") {
      CHECK_THROWS_AS(examples::pagerank(Matrix<double>(3, 3, backend), {.damping = 1.5}),
                      grb::InvalidValue);
    }
  }
}

// docs/guide.md teaches masks, descriptors and accumulators with one table of assigns; the guide
// sits beside this example, so its table is checked here, on every backend.
TEST_CASE("docs/guide.md: the table of masks, descriptors and accumulators") {
  using grb::all;
  using grb::no_accum;
  using grb::no_mask;
  auto show = [](const Vector<int>& v) {
    std::string text;
    for (Index i = 0; i < v.size(); ++i) {
      const auto x = v.extract_element(i);
      text += (i ? " " : "") + (x ? std::to_string(*x) : std::string("-"));
    }
    return text;
  };
  GRB_FOR_EACH_BACKEND(backend) {
    Vector<int> u(4, backend);
    u.build(std::vector<Index>{0, 1, 2}, std::vector<int>{5, 5, 5});
    Vector<bool> m(4, backend);
    m.build(std::vector<Index>{0, 1}, std::vector<bool>{true, false});
    auto after = [&](auto&& operation) {
      Vector<int> w = Vector<int>::full(4, 1, backend);
      operation(w);
      return show(w);
    };
    const grb::plus<int> plus;
    CHECK(after([&](auto& w) { assign(w, no_mask, no_accum, u, all); }) == "5 5 5 -");
    CHECK(after([&](auto& w) { assign(w, m, no_accum, u, all); }) == "5 1 1 1");
    CHECK(after([&](auto& w) { assign(w, m, no_accum, u, all, {.structural_mask = true}); }) ==
          "5 5 1 1");
    CHECK(after([&](auto& w) { assign(w, m, no_accum, u, all, {.complement_mask = true}); }) ==
          "1 5 5 -");
    CHECK(after([&](auto& w) {
            assign(w, m, no_accum, u, all, {.structural_mask = true, .complement_mask = true});
          }) == "1 1 5 -");
    CHECK(after([&](auto& w) { assign(w, m, no_accum, u, all, {.replace = true}); }) ==
          "5 - - -");
    CHECK(after([&](auto& w) { assign(w, no_mask, plus, u, all); }) == "6 6 6 1");
    CHECK(after([&](auto& w) { assign(w, m, plus, u, all, {.structural_mask = true}); }) ==
          "6 6 1 1");
    CHECK(after([&](auto& w) { assign(w, no_mask, no_accum, 7, std::vector<Index>{1, 3}); }) ==
          "1 7 1 7");
  }
}
