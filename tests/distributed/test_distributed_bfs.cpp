// The distributed layer on CPU ranks (run under mpirun with 1 to 4 ranks): the block partition,
// the distributed Kronecker construction against the single-process generator, and the
// distributed BFS against a textbook BFS of the whole graph, with and without pruning, its
// validator (which must also catch a broken tree), and a check gathered on rank 0.
#include <doctest/doctest.h>

#include <cstdint>
#include <deque>
#include <vector>

#include <grb/distributed/bfs.hpp>
#include <grb/distributed/graph.hpp>
#include <grb/generate.hpp>

#include "engine_tests.hpp"
#include "validate/validate.hpp"

namespace {

using grb::Index;
using grb::dist::Communicator;
using grb::test::textbook_levels;

}  // namespace

TEST_CASE("block partition: every vertex has one owner, blocks in order") {
  for (Index n : {Index{1}, Index{5}, Index{1000}, Index{1023}})
    for (int ranks : {1, 2, 3, 4, 7}) {
      const grb::dist::BlockPartition partition(n, ranks);
      CHECK(partition.first(0) == 0);
      CHECK(partition.first(ranks) == n);
      for (int r = 0; r < ranks; ++r)
        for (Index v = partition.first(r); v < partition.first(r + 1); ++v)
          REQUIRE(partition.owner(v) == r);
    }
}

TEST_CASE("distributed Kronecker rows are the single-process pattern's rows") {
  const Communicator comm = Communicator::world();
  const grb::dist::Graph<bool> graph = grb::dist::kronecker(comm, 10, 8, 3);
  const grb::Matrix<bool> whole = grb::generate::kronecker_pattern(10, 8, {.seed = 3});
  const grb::Csr<bool>& local = graph.local.csr();
  const grb::Csr<bool>& all = whole.csr();
  CHECK(graph.global_entries == whole.nvals());
  bool same = local.nrows == graph.partition.count(comm.rank());
  for (Index i = 0; same && i < local.nrows; ++i) {
    const Index v = graph.first() + i;
    same = local.row_offsets[i + 1] - local.row_offsets[i] ==
           all.row_offsets[v + 1] - all.row_offsets[v];
    for (grb::Offset k = 0; same && k < local.row_offsets[i + 1] - local.row_offsets[i]; ++k)
      same = local.col_indices[local.row_offsets[i] + k] == all.col_indices[all.row_offsets[v] + k];
  }
  CHECK(comm.all(same));
}

TEST_CASE("distributed BFS: the textbook levels from every source, pruned or not") {
  const Communicator comm = Communicator::world();
  const grb::dist::Graph<bool> graph = grb::dist::kronecker(comm, 11, 16, 5);
  const grb::Matrix<bool> whole = grb::generate::kronecker_pattern(11, 16, {.seed = 5});
  for (Index source : {Index{0}, Index{1}, Index{777}, Index{2047}}) {
    const std::vector<std::int32_t> expected = textbook_levels(whole, source);
    for (bool prune : {true, false}) {
      INFO("source " << source << (prune ? ", pruned" : ", not pruned"));
      const grb::dist::BfsResult result = grb::dist::bfs(comm, graph, source, {.prune = prune});
      const bool same = std::equal(result.level.begin(), result.level.end(),
                                   expected.begin() + graph.first());
      CHECK(comm.all(same));
      const grb::dist::Verdict verdict = grb::dist::validate_bfs(comm, graph, source, result);
      INFO(verdict.message);
      CHECK(verdict.ok);
      std::uint64_t found = 0, sent = 0;
      for (const grb::dist::BfsLevel& level : result.levels) found += level.pairs_found, sent += level.pairs_sent;
      if (!prune) CHECK(sent == found);
      if (prune && comm.size() > 1 && expected[0] >= 0) CHECK(sent < found);
      if (comm.size() == 1) CHECK(found == 0);

      // Gathered on rank 0, the tree passes the single-process validator.
      const std::vector<std::int32_t> levels = comm.gather(result.level);
      const std::vector<Index> parents = comm.gather(result.parent);
      if (comm.rank() == 0) {
        const grb::validate::Result valid = grb::validate::bfs(
            whole, source, std::span<const std::int32_t>(levels), std::span<const Index>(parents));
        INFO(valid.message);
        CHECK(valid.ok);
      }
    }
  }
}

TEST_CASE("distributed BFS over a weighted graph's rows: its pattern's search, validated") {
  // Graph500 on CPU ranks searches kernel 1's weighted graph itself, without a pattern copy.
  const Communicator comm = Communicator::world();
  const grb::dist::Graph<double> weighted = grb::dist::kronecker<double>(comm, 10, 16, 7);
  const grb::dist::Graph<bool> pattern = grb::dist::kronecker(comm, 10, 16, 7);
  for (Index source : {Index{0}, Index{5}, Index{1000}}) {
    INFO("source " << source);
    const grb::dist::BfsResult on_weights = grb::dist::bfs(comm, weighted, source);
    const grb::dist::BfsResult on_pattern = grb::dist::bfs(comm, pattern, source);
    CHECK(comm.all(on_weights.level == on_pattern.level));
    const grb::dist::Verdict verdict = grb::dist::validate_bfs(comm, weighted, source, on_weights);
    INFO(verdict.message);
    CHECK(verdict.ok);
  }
}

TEST_CASE("the distributed validator finds a broken tree on any rank") {
  const Communicator comm = Communicator::world();
  const grb::dist::Graph<bool> graph = grb::dist::kronecker(comm, 9, 8, 2);
  grb::dist::BfsResult result = grb::dist::bfs(comm, graph, 1);
  // The last rank gives one of its reached vertices (not the source) a parent that is no
  // neighbour of it... or, where it has none reached, a level without a parent.
  if (comm.rank() == comm.size() - 1) {
    bool broken = false;
    for (std::size_t i = 0; i < result.level.size() && !broken; ++i) {
      if (result.level[i] > 0) {
        result.level[i] += 1;
        broken = true;
      }
    }
    if (!broken && !result.level.empty()) result.level[0] = 3;
  }
  const grb::dist::Verdict verdict = grb::dist::validate_bfs(comm, graph, 1, result);
  CHECK_FALSE(verdict.ok);
}

TEST_CASE("a source outside the graph is refused on every rank") {
  const Communicator comm = Communicator::world();
  const grb::dist::Graph<bool> graph = grb::dist::kronecker(comm, 6, 4, 1);
  CHECK_THROWS_AS(grb::dist::bfs(comm, graph, 64), grb::IndexOutOfBounds);
}
