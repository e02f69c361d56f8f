// Graph generators: Graph500 Kronecker, grids, Erdos-Renyi, and edge list -> matrix.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include <grb/generate.hpp>

// Internal: edge k must be a pure function of (seed, k) for a GPU port to reproduce the graph.
#include "../src/generate/kronecker_sampler.hpp"
#include "support.hpp"

namespace {

using grb::Index;
using grb::Offset;
namespace generate = grb::generate;

struct Entries {
  std::vector<Index> rows, cols;
  std::vector<double> values;
  bool operator==(const Entries&) const = default;
};

Entries entries_of(const grb::Matrix<double>& a) {
  Entries e;
  a.extract_tuples(e.rows, e.cols, e.values);
  return e;
}

std::vector<Offset> degrees(const grb::Matrix<double>& a) {
  const auto& csr = a.csr();
  std::vector<Offset> degree(a.nrows());
  for (Index i = 0; i < a.nrows(); ++i) degree[i] = csr.row_offsets[i + 1] - csr.row_offsets[i];
  return degree;
}

bool is_symmetric(const grb::Matrix<double>& a) {
  const Entries e = entries_of(a);
  for (std::size_t k = 0; k < e.rows.size(); ++k) {
    const auto mirror = a.extract_element(e.cols[k], e.rows[k]);
    if (!mirror || *mirror != e.values[k]) return false;
  }
  return true;
}

std::size_t self_loops(const grb::Matrix<double>& a) {
  const Entries e = entries_of(a);
  std::size_t count = 0;
  for (std::size_t k = 0; k < e.rows.size(); ++k) count += e.rows[k] == e.cols[k];
  return count;
}

/// What to_matrix should produce, computed the slow way with a std::map.
Entries expected_matrix(const generate::EdgeList& edges, const generate::Options& options) {
  std::map<std::pair<Index, Index>, std::vector<double>> weights;
  for (std::size_t k = 0; k < edges.source.size(); ++k) {
    const Index i = edges.source[k], j = edges.target[k];
    if (i == j && options.drop_self_loops) continue;
    weights[{i, j}].push_back(edges.weight[k]);
    if (options.symmetrize && i != j) weights[{j, i}].push_back(edges.weight[k]);
  }
  Entries e;
  for (auto& [position, list] : weights) {
    std::sort(list.begin(), list.end());
    double value = list.front();
    if (!options.drop_duplicates) {
      value = 0;
      for (double w : list) value += w;
    }
    e.rows.push_back(position.first);
    e.cols.push_back(position.second);
    e.values.push_back(value);
  }
  return e;
}

}  // namespace

/// Same entries, the values within 1e-12 (summed parallel edges may round differently).
void check_same_entries(const Entries& actual, const Entries& expected) {
  CHECK(actual.rows == expected.rows);
  CHECK(actual.cols == expected.cols);
  REQUIRE(actual.values.size() == expected.values.size());
  for (std::size_t k = 0; k < actual.values.size(); ++k)
    REQUIRE(actual.values[k] == doctest::Approx(expected.values[k]).epsilon(1e-12));
}

/// Calls check(options) for every combination of the three to_matrix options.
template <class Check>
void for_every_option(std::uint64_t seed, Check check) {
  for (bool symmetrize : {true, false})
    for (bool drop_self_loops : {true, false})
      for (bool drop_duplicates : {true, false}) {
        CAPTURE(symmetrize);
        CAPTURE(drop_self_loops);
        CAPTURE(drop_duplicates);
        check(generate::Options{.seed = seed,
                                .symmetrize = symmetrize,
                                .drop_self_loops = drop_self_loops,
                                .drop_duplicates = drop_duplicates});
      }
}

TEST_CASE("kronecker edge list: sizes, ranges, determinism") {
  const auto edges = generate::kronecker_edges(10, 16, 7);
  CHECK(edges.nvertices == 1024);
  REQUIRE(edges.source.size() == 16 * 1024);
  REQUIRE(edges.target.size() == 16 * 1024);
  REQUIRE(edges.weight.size() == 16 * 1024);
  for (std::size_t k = 0; k < edges.source.size(); ++k) {
    REQUIRE(edges.source[k] < 1024);
    REQUIRE(edges.target[k] < 1024);
    REQUIRE(edges.weight[k] >= 0.0);
    REQUIRE(edges.weight[k] < 1.0);
  }
  const auto again = generate::kronecker_edges(10, 16, 7);
  CHECK(again.source == edges.source);
  CHECK(again.target == edges.target);
  CHECK(again.weight == edges.weight);
  const auto other = generate::kronecker_edges(10, 16, 8);
  CHECK(other.source != edges.source);
  CHECK(other.target != edges.target);
  CHECK(other.weight != edges.weight);

  const auto small = generate::kronecker_edges(1, 3);
  CHECK(small.nvertices == 2);
  CHECK(small.source.size() == 6);
}

TEST_CASE("kronecker edge k depends only on the seed and k (thread-count independent)") {
  const std::uint64_t nedges = 8 * 4096;
  const auto edges = generate::kronecker_edges(12, 8, 99);
  const generate::detail::KroneckerSampler sampler(12, nedges, 99);
  // Backwards, one at a time: a different order and a single thread.
  for (std::uint64_t k = nedges; k-- > 0;) {
    const auto edge = sampler(k);
    REQUIRE(edge.source == edges.source[k]);
    REQUIRE(edge.target == edges.target[k]);
    REQUIRE(edge.weight == edges.weight[k]);
  }
}

TEST_CASE("kronecker edge list follows the Graph500 initiator") {
  // Both properties survive the random relabelling of vertices.
  const int scale = 12;
  const auto edges = generate::kronecker_edges(scale, 16, 3);
  const double nedges = static_cast<double>(edges.source.size());
  // A self loop needs the same bit for row and column at every level: P = (A + D)^scale.
  const double loop_probability = std::pow(0.57 + 0.05, scale);
  std::size_t loops = 0;
  for (std::size_t k = 0; k < edges.source.size(); ++k) loops += edges.source[k] == edges.target[k];
  const double expected_loops = nedges * loop_probability;
  CHECK(std::abs(double(loops) - expected_loops) < 5 * std::sqrt(expected_loops));
  // The hub (all row bits 0) has expected out-degree m (A + B)^scale; every other vertex less.
  std::vector<std::size_t> out_degree(edges.nvertices);
  for (Index s : edges.source) ++out_degree[s];
  const double expected_hub = nedges * std::pow(0.57 + 0.19, scale);
  const double hub = double(*std::max_element(out_degree.begin(), out_degree.end()));
  CHECK(std::abs(hub - expected_hub) < 5 * std::sqrt(expected_hub));
  // The labels are permuted: the hub is not vertex 0 (the unpermuted generator's hub).
  CHECK(out_degree[0] < hub);
}

TEST_CASE("kronecker matrix: symmetric, no self loops, skewed degrees") {
  const auto a = generate::kronecker(12, 16, {.seed = 5});
  CHECK(a.nrows() == 4096);
  CHECK(a.ncols() == 4096);
  CHECK(a.backend() == grb::Backend::cpu);
  CHECK(a.nvals() <= 2 * 16 * 4096);
  CHECK(a.nvals() > 16 * 4096);
  CHECK(is_symmetric(a));
  // ... and marked so: pull operations use the CSR as its own transpose.
  CHECK(a.symmetric());
  CHECK(self_loops(a) == 0);
  const auto degree = degrees(a);
  const double average = double(a.nvals()) / a.nrows();
  const auto max_degree = *std::max_element(degree.begin(), degree.end());
  CHECK(double(max_degree) > 20 * average);
  // Graph500 graphs leave a good share of vertices isolated.
  CHECK(std::count(degree.begin(), degree.end(), Offset{0}) > 100);
  CHECK(entries_of(generate::kronecker(12, 16, {.seed = 5})) == entries_of(a));
  CHECK_FALSE(entries_of(generate::kronecker(12, 16, {.seed = 6})) == entries_of(a));
}

TEST_CASE("kronecker goes straight to the matrix that the slow reference builds") {
  // kronecker() draws its edges twice and holds no edge list: its matrix is still the one the
  // edge list gives, under every option.
  const auto edges = generate::kronecker_edges(11, 8, 21);
  for_every_option(21, [&](const generate::Options& options) {
    check_same_entries(entries_of(generate::kronecker(11, 8, options)),
                       expected_matrix(edges, options));
  });
}

TEST_CASE("the Kronecker and grid patterns are the weighted matrices' patterns") {
  // Built without weights; parallel edges are one entry whatever drop_duplicates says.
  for_every_option(9, [&](const generate::Options& options) {
    const grb::Matrix<bool> expected = grb::pattern(generate::kronecker(11, 8, options));
    const grb::Matrix<bool> built = generate::kronecker_pattern(11, 8, options);
    CHECK(built.symmetric() == expected.symmetric());
    CHECK(std::vector<Offset>(built.csr().row_offsets.begin(), built.csr().row_offsets.end()) ==
          std::vector<Offset>(expected.csr().row_offsets.begin(),
                              expected.csr().row_offsets.end()));
    CHECK(std::vector<Index>(built.csr().col_indices.begin(), built.csr().col_indices.end()) ==
          std::vector<Index>(expected.csr().col_indices.begin(),
                             expected.csr().col_indices.end()));
    CHECK(std::all_of(built.csr().values.begin(), built.csr().values.end(),
                      [](bool value) { return value; }));
  });
  const grb::Matrix<bool> grid = generate::grid_pattern(40, 0.3, {.seed = 4});
  const grb::Matrix<bool> expected = grb::pattern(generate::grid(40, 0.3, {.seed = 4}));
  CHECK(std::vector<Index>(grid.csr().col_indices.begin(), grid.csr().col_indices.end()) ==
        std::vector<Index>(expected.csr().col_indices.begin(), expected.csr().col_indices.end()));
}

TEST_CASE("to_matrix matches a slow reference under every option") {
  const auto edges = generate::kronecker_edges(7, 16, 11);
  for_every_option(1, [&](const generate::Options& options) {
    const auto matrix = generate::to_matrix(edges, options);
    // A symmetrized matrix is marked symmetric, and the mark is true (values included).
    CHECK(matrix.symmetric() == options.symmetrize);
    if (options.symmetrize) CHECK(is_symmetric(matrix));
    check_same_entries(entries_of(matrix), expected_matrix(edges, options));
  });
  // Large enough for several threads in to_matrix.
  const auto large = generate::kronecker_edges(14, 16, 12);
  for (bool drop_duplicates : {true, false}) {
    const generate::Options options{.drop_duplicates = drop_duplicates};
    check_same_entries(entries_of(generate::to_matrix(large, options)),
                       expected_matrix(large, options));
  }
  // The Kronecker graph has both parallel edges and self loops, so the options matter.
  const auto plain = generate::to_matrix(edges, {.symmetrize = false});
  CHECK_FALSE(is_symmetric(plain));
  CHECK(self_loops(generate::to_matrix(edges, {.drop_self_loops = false})) > 0);
  CHECK(generate::to_matrix(edges, {.symmetrize = false, .drop_duplicates = true}).nvals() <
        edges.source.size());
}

TEST_CASE("to_matrix rejects malformed edge lists") {
  generate::EdgeList edges{3, {0, 1}, {1, 3}, {0.5, 0.5}};
  CHECK_THROWS_AS(generate::to_matrix(edges), grb::IndexOutOfBounds);
  edges.target[1] = 2;
  CHECK(generate::to_matrix(edges).nvals() == 4);
  edges.weight.pop_back();
  CHECK_THROWS_AS(generate::to_matrix(edges), grb::DimensionMismatch);
  const generate::EdgeList empty{5, {}, {}, {}};
  const auto a = generate::to_matrix(empty);
  CHECK(a.nrows() == 5);
  CHECK(a.nvals() == 0);
}

TEST_CASE("grid: structure, weights, dropped fraction") {
  const Index side = 60;
  const auto full = generate::grid(side, 0.0);
  CHECK(full.nrows() == side * side);
  CHECK(full.nvals() == 2 * 2 * side * (side - 1));
  CHECK(generate::grid(side, 1.0).nvals() == 0);

  const auto a = generate::grid(side);
  CHECK(is_symmetric(a));
  const Entries e = entries_of(a);
  double smallest = 1e9, largest = 0;
  for (std::size_t k = 0; k < e.rows.size(); ++k) {
    const Index i = e.rows[k], j = e.cols[k];
    const Index low = std::min(i, j), high = std::max(i, j);
    const bool horizontal = high == low + 1 && low / side == high / side;
    const bool vertical = high == low + side;
    REQUIRE((horizontal || vertical));
    REQUIRE(e.values[k] == std::floor(e.values[k]));
    smallest = std::min(smallest, e.values[k]);
    largest = std::max(largest, e.values[k]);
  }
  CHECK(smallest == 1);
  CHECK(largest == 64);
  for (Offset d : degrees(a)) REQUIRE(d <= 4);
  const double kept = double(a.nvals()) / double(full.nvals());
  CHECK(kept > 0.72);
  CHECK(kept < 0.78);

  CHECK(entries_of(generate::grid(side, 0.25, {.seed = 1})) == e);
  CHECK_FALSE(entries_of(generate::grid(side, 0.25, {.seed = 2})) == e);
  const auto directed = generate::grid(side, 0.0, {.symmetrize = false});
  CHECK(directed.nvals() == 2 * side * (side - 1));
  CHECK(generate::grid(1).nvals() == 0);
}

TEST_CASE("erdos_renyi: average degree, symmetry, determinism") {
  const Index n = 20000;
  const auto a = generate::erdos_renyi(n, 8.0, {.seed = 4});
  CHECK(a.nrows() == n);
  CHECK(is_symmetric(a));
  CHECK(self_loops(a) == 0);
  const double average = double(a.nvals()) / n;
  CHECK(average > 7.8);
  CHECK(average <= 8.0);
  const auto directed = generate::erdos_renyi(n, 5.0, {.seed = 4, .symmetrize = false});
  CHECK_FALSE(is_symmetric(directed));
  const double out_average = double(directed.nvals()) / n;
  CHECK(out_average > 4.9);
  CHECK(out_average <= 5.0);
  CHECK(entries_of(generate::erdos_renyi(n, 8.0, {.seed = 4})) == entries_of(a));
  CHECK_FALSE(entries_of(generate::erdos_renyi(n, 8.0, {.seed = 5})) == entries_of(a));
  CHECK(generate::erdos_renyi(1, 0.0).nvals() == 0);
}

TEST_CASE("generators reject invalid arguments") {
  CHECK_THROWS_AS(generate::kronecker_edges(0), grb::InvalidValue);
  CHECK_THROWS_AS(generate::kronecker_edges(-3), grb::InvalidValue);
  CHECK_THROWS_AS(generate::kronecker_edges(32), grb::InvalidValue);
  CHECK_THROWS_AS(generate::kronecker_edges(4, 0), grb::InvalidValue);
  CHECK_THROWS_AS(generate::kronecker(0), grb::InvalidValue);
  CHECK_THROWS_AS(generate::grid(0), grb::InvalidValue);
  CHECK_THROWS_AS(generate::grid(70000), grb::InvalidValue);
  CHECK_THROWS_AS(generate::grid(10, -0.1), grb::InvalidValue);
  CHECK_THROWS_AS(generate::grid(10, 1.5), grb::InvalidValue);
  CHECK_THROWS_AS(generate::grid(10, std::numeric_limits<double>::quiet_NaN()), grb::InvalidValue);
  CHECK_THROWS_AS(generate::erdos_renyi(0, 1.0), grb::InvalidValue);
  CHECK_THROWS_AS(generate::erdos_renyi(10, -1.0), grb::InvalidValue);
  CHECK_THROWS_AS(generate::erdos_renyi(10, 10.0), grb::InvalidValue);
}

TEST_CASE("counter-based permutation is a bijection of [0, size)") {
  for (std::uint64_t size : {1u, 2u, 3u, 255u, 1000u, 1024u, 1025u, 4097u}) {
    CAPTURE(size);
    const generate::detail::Permutation permutation(size, 12345);
    std::vector<bool> seen(size, false);
    for (std::uint64_t x = 0; x < size; ++x) {
      const std::uint64_t y = permutation(x);
      REQUIRE(y < size);
      REQUIRE_FALSE(seen[y]);
      seen[y] = true;
    }
  }
  // Not the identity, and different keys give different permutations.
  const generate::detail::Permutation first(1 << 16, 1), second(1 << 16, 2);
  std::size_t fixed = 0, same = 0;
  for (std::uint64_t x = 0; x < (1 << 16); ++x) {
    fixed += first(x) == x;
    same += first(x) == second(x);
  }
  CHECK(fixed < 100);
  CHECK(same < 100);
}
