// The distributed vxm and the algorithms written with it (algorithms/distributed): BFS levels
// and parents, Bellman-Ford distances and label-propagation components on every rank count,
// against the single-process answers of the whole graph (textbook BFS, grb::validate).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <grb/distributed/validate.hpp>
#include <grb/generate.hpp>
#include <limits>
#include <vector>

#include "distributed/linear_algebra.hpp"
#include "rank_parts.hpp"
#include "validate/validate.hpp"

namespace {

using grb::Index;
using grb::dist::Communicator;

using grb::test::gathered;

}  // namespace

TEST_CASE("distributed vxm: plus.times equals the single-process product") {
  const Communicator comm = Communicator::world();
  const auto graph = grb::dist::kronecker<double>(comm, 9, 8, 4);
  const grb::Matrix<double> whole = grb::generate::kronecker(9, 8, {.seed = 4});
  const Index n = whole.nrows();
  grb::dist::Vector<double> u(graph), w(graph);
  grb::Vector<double> u_whole(n, grb::Backend::cpu);
  for (Index v = 0; v < n; v += 3) {
    u_whole.set_element(v, double(v % 7) + 0.5);
    if (graph.owns(v)) u.local.set_element(v - graph.first(), double(v % 7) + 0.5);
  }
  grb::dist::vxm(comm, w, grb::no_mask, grb::no_accum, grb::plus_times<double>{}, u, graph);
  grb::Vector<double> expected(n, grb::Backend::cpu);
  grb::vxm(expected, grb::no_mask, grb::no_accum, grb::plus_times<double>{}, u_whole, whole);
  const std::vector<double> got = gathered(comm, w.local, -1.0);
  if (comm.rank() == 0) {
    std::vector<double> want;
    expected.extract_dense(want, -1.0);
    REQUIRE(got.size() == want.size());
    for (std::size_t v = 0; v < want.size(); ++v) REQUIRE(std::abs(got[v] - want[v]) < 1e-9);
  }
}

TEST_CASE("distributed linear-algebra BFS, Bellman-Ford and label propagation") {
  const Communicator comm = Communicator::world();
  const auto pattern = grb::dist::kronecker<bool>(comm, 10, 8, 6);
  const auto weighted = grb::dist::kronecker<double>(comm, 10, 8, 6);
  const grb::Matrix<bool> whole = grb::generate::kronecker_pattern(10, 8, {.seed = 6});
  const grb::Matrix<double> whole_weighted = grb::generate::kronecker(10, 8, {.seed = 6});
  for (Index source : {Index{0}, Index{3}, Index{1023}}) {
    INFO("source " << source);
    const grb::dist::LinearAlgebraBfs bfs = grb::dist::bfs_linear_algebra(comm, pattern, source);
    const std::vector<std::int32_t> level = gathered(comm, bfs.level, std::int32_t{-1});
    const std::vector<Index> parent = gathered(comm, bfs.parent, grb::no_index);
    const std::vector<double> distance = gathered(
        comm, grb::dist::sssp_bellman_ford(comm, weighted, source),
        std::numeric_limits<double>::infinity());
    if (comm.rank() == 0) {
      const grb::validate::Result tree = grb::validate::bfs(
          whole, source, std::span<const std::int32_t>(level), std::span<const Index>(parent));
      INFO(tree.message);
      CHECK(tree.ok);
      const grb::validate::Result paths =
          grb::validate::sssp(whole_weighted, source, std::span<const double>(distance));
      INFO(paths.message);
      CHECK(paths.ok);
    }
  }
  const std::vector<Index> label =
      gathered(comm, grb::dist::components_label_propagation(comm, pattern), grb::no_index);
  if (comm.rank() == 0) {
    const grb::validate::Result components =
        grb::validate::components(whole, std::span<const Index>(label));
    INFO(components.message);
    CHECK(components.ok);
  }
}

TEST_CASE("distributed validators: SSSP distances and component labels, right and broken") {
  const Communicator comm = Communicator::world();
  const auto pattern = grb::dist::kronecker<bool>(comm, 10, 8, 6);
  const auto weighted = grb::dist::kronecker<double>(comm, 10, 8, 6);
  const auto dense = [](const grb::Vector<auto>& local, auto absent) {
    std::vector<decltype(absent)> values;
    local.extract_dense(values, absent);
    return values;
  };
  const double infinity = std::numeric_limits<double>::infinity();
  // The last rank with a reached vertex other than the source breaks one value.
  const auto break_one = [&](auto& values, auto good, auto broken) {
    std::size_t at = values.size();
    for (std::size_t i = 0; i < values.size() && at == values.size(); ++i)
      if (good(values[i], i)) at = i;
    const bool mine = at < values.size();
    const std::uint64_t last = comm.max(mine ? std::uint64_t(comm.rank()) + 1 : 0);
    if (last != 0 && comm.rank() == int(last) - 1) broken(values[at]);
  };

  for (Index source : {Index{0}, Index{3}}) {  // each reaches most of the graph
    INFO("source " << source);
    std::vector<double> distance =
        dense(grb::dist::sssp_bellman_ford(comm, weighted, source), infinity);
    const grb::dist::Verdict right = grb::dist::validate_sssp(comm, weighted, source, distance);
    INFO(right.message);
    CHECK(right.ok);
    break_one(
        distance,
        [&](double d, std::size_t i) { return std::isfinite(d) && weighted.first() + i != source; },
        [](double& d) { d *= 1.5; });
    CHECK_FALSE(grb::dist::validate_sssp(comm, weighted, source, distance).ok);
  }

  std::vector<Index> label =
      dense(grb::dist::components_label_propagation(comm, pattern), grb::no_index);
  const grb::dist::Verdict right = grb::dist::validate_components(comm, pattern, label);
  INFO(right.message);
  CHECK(right.ok);
  // Two components that share a label: an isolated vertex (kron10 has some) takes another's.
  std::vector<Index> shared = label;
  break_one(
      shared,
      [&](Index l, std::size_t i) {
        const grb::Csr<bool>& csr = pattern.local.csr();
        return l == pattern.first() + i && csr.row_offsets[i + 1] == csr.row_offsets[i] &&
               pattern.first() + i != 0;
      },
      [](Index& l) { l = 0; });
  CHECK_FALSE(grb::dist::validate_components(comm, pattern, shared).ok);
  // An edge between two labels.
  std::vector<Index> split = label;
  break_one(
      split,
      [&](Index, std::size_t i) {
        const grb::Csr<bool>& csr = pattern.local.csr();
        return csr.row_offsets[i + 1] > csr.row_offsets[i];
      },
      [&](Index& l) { l = l == 0 ? 1 : 0; });
  CHECK_FALSE(grb::dist::validate_components(comm, pattern, split).ok);
}

TEST_CASE("distributed SSSP validator: zero weights cannot hide a wrong distance") {
  const Communicator comm = Communicator::world();
  // 0 - 1 (weight 1), 1 - 2 (weight 0), both ways; vertex 3 alone.
  grb::Matrix<double> whole(4, 4, grb::Backend::cpu);
  whole.build(std::vector<Index>{0, 1, 1, 2}, std::vector<Index>{1, 0, 2, 1},
              std::vector<double>{1, 1, 0, 0});
  const grb::dist::Graph<double> graph = grb::test::share_rows(whole, comm.rank(), comm.size());
  const double infinity = std::numeric_limits<double>::infinity();
  const auto mine = [&](std::vector<double> all) {
    return std::vector<double>(all.begin() + graph.first(),
                               all.begin() + graph.first() + graph.partition.count(comm.rank()));
  };
  const grb::dist::Verdict right =
      grb::dist::validate_sssp(comm, graph, 0, mine({0, 1, 1, infinity}));
  INFO(right.message);
  CHECK(right.ok);
  // 1 and 2 achieve each other's distance 0.5 over their zero edge; no edge shortens anything.
  CHECK_FALSE(grb::dist::validate_sssp(comm, graph, 0, mine({0, 0.5, 0.5, infinity})).ok);
  // Sizes that do not fit the rank's rows: refused on every rank, without a hang.
  std::vector<double> wrong = mine({0, 1, 1, infinity});
  if (comm.rank() == 0) wrong.push_back(0);
  CHECK_FALSE(grb::dist::validate_sssp(comm, graph, 0, wrong).ok);
}
