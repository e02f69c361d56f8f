// The distributed extract and assign through index vectors (grb/distributed/index_ops.hpp)
// against their single-process meaning, and FastSV on CPU ranks (algorithms/distributed/
// fastsv.hpp) against label propagation and the single-process validator.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <grb/distributed/index_ops.hpp>
#include <grb/distributed/read_graph.hpp>
#include <grb/generate.hpp>
#include <random>
#include <vector>

#include "distributed/fastsv.hpp"
#include "distributed/linear_algebra.hpp"
#include "rank_parts.hpp"
#include "support.hpp"
#include "validate/validate.hpp"

namespace {

using grb::Index;
using grb::dist::Communicator;

using grb::test::gathered;

/// This rank's part of a whole dense list (`absent` values are left out).
template <class T>
grb::dist::Vector<T> part_of(const grb::dist::Graph<bool>& graph, const std::vector<T>& whole,
                             T absent) {
  grb::dist::Vector<T> v(graph);
  std::vector<Index> at;
  std::vector<T> values;
  for (Index i = 0; i < graph.partition.count(graph.rank); ++i)
    if (whole[graph.first() + i] != absent)
      at.push_back(i), values.push_back(whole[graph.first() + i]);
  v.local.build(at, values);
  return v;
}

}  // namespace

TEST_CASE("distributed extract and assign through index vectors") {
  const Communicator comm = Communicator::world();
  const auto graph = grb::dist::kronecker<bool>(comm, 8, 4, 3);
  const Index n = graph.partition.vertices();
  constexpr Index none = grb::no_index;
  // The same random vectors on every rank: values (some absent) and indices (some absent, many
  // repeated, so that assign combines several values for one vertex).
  std::mt19937_64 random(11);
  std::vector<Index> values(n), index(n);
  for (Index v = 0; v < n; ++v) {
    values[v] = random() % 5 == 0 ? none : Index(random() % 1000);
    index[v] = random() % 7 == 0 ? none : Index(random() % (n / 8));
  }
  const auto u = part_of(graph, values, none);
  const auto at = part_of(graph, index, none);

  grb::dist::Vector<Index> w(graph);
  grb::dist::extract(comm, w, u, at);
  const std::vector<Index> extracted = gathered(comm, w.local, none);

  grb::dist::Vector<Index> target = part_of(graph, std::vector<Index>(n, 500), none);
  grb::dist::assign_at(comm, target, grb::min<Index>{}, u, at);
  const std::vector<Index> assigned = gathered(comm, target.local, none);
  if (comm.rank() == 0) {
    std::vector<Index> expected_extract(n, none), expected_assign(n, 500);
    for (Index i = 0; i < n; ++i) {
      if (index[i] == none) continue;
      expected_extract[i] = values[index[i]];
      if (values[i] != none)
        expected_assign[index[i]] = std::min(expected_assign[index[i]], values[i]);
    }
    CHECK(extracted == expected_extract);
    CHECK(assigned == expected_assign);
  }

  // An index outside the graph, held by the last rank only: refused on every rank.
  std::vector<Index> bad(n, none);
  bad[n - 1] = n + 3;
  const auto bad_at = part_of(graph, bad, none);
  CHECK_THROWS_AS(grb::dist::extract(comm, w, u, bad_at), grb::InvalidValue);
  CHECK_THROWS_AS(grb::dist::assign_at(comm, target, grb::min<Index>{}, u, bad_at),
                  grb::InvalidValue);
}

TEST_CASE("distributed FastSV: label propagation's labels, in fewer rounds on a road graph") {
  const Communicator comm = Communicator::world();
  // A Kronecker graph (isolated vertices, one giant component) and Berlin's roads.
  const auto kron = grb::dist::kronecker<bool>(comm, 10, 8, 6);
  const grb::Matrix<bool> whole_kron = grb::generate::kronecker_pattern(10, 8, {.seed = 6});
  const std::filesystem::path berlin = grb::test::data_file("road/berlin-center.mtx");
  const auto roads = grb::dist::read_matrix_market<bool>(comm, berlin);
  const grb::Matrix<double> whole_roads =
      grb::io::read_matrix_market_graph(berlin, {.symmetrize = true}).matrix;
  for (const auto* graph : {&kron, &roads}) {
    std::uint32_t rounds = 0;
    const std::vector<Index> fastsv =
        gathered(comm, grb::dist::components_fastsv(comm, *graph, &rounds), grb::no_index);
    const std::vector<Index> propagated =
        gathered(comm, grb::dist::components_label_propagation(comm, *graph), grb::no_index);
    if (comm.rank() == 0) {
      CHECK(fastsv == propagated);
      const grb::validate::Result components =
          graph == &kron ? grb::validate::components(whole_kron, std::span<const Index>(fastsv))
                         : grb::validate::components(whole_roads, std::span<const Index>(fastsv));
      INFO(components.message);
      CHECK(components.ok);
      // Berlin's diameter is in the hundreds; FastSV converges in tens of rounds.
      if (graph == &roads) CHECK(rounds < 40);
    }
  }
}
