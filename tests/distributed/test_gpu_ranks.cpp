// The distributed layer's GPU ranks over NCCL, one thread per GPU of this machine (every GPU it
// has: 1 on a one-GPU machine, where the exchange still runs through NCCL): the collectives,
// Graph500 kernel 1 on the GPUs against the single-process generator, and the distributed BFS
// against a textbook BFS, checked by the distributed validator over NCCL. Skipped, visibly,
// without a GPU. The checks are made on the main thread from what each rank recorded.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <grb/distributed/device_bfs.hpp>
#include <grb/distributed/device_graph.hpp>
#include <grb/generate.hpp>
#include <mutex>
#include <string>
#include <vector>

#include "engine_tests.hpp"
#include "rank_parts.hpp"

namespace {

using grb::Index;
using grb::dist::DeviceCommunicator;

int gpus_or_skip() {
  const int gpus = grb::dist::visible_devices();
  if (gpus == 0) MESSAGE("no GPU here: the GPU-rank cases are SKIPPED");
  return gpus;
}

/// Problems found on any rank, in words; empty when every rank agrees with the oracle.
struct Findings {
  std::mutex mutex;
  std::vector<std::string> problems;
  void add(int rank, const std::string& problem) {
    std::lock_guard lock(mutex);
    problems.push_back("rank " + std::to_string(rank) + ": " + problem);
  }
};

/// Whether rank-local rows of `graph` equal the same rows of `whole`.
bool same_rows(const grb::dist::Graph<bool>& graph, const grb::Matrix<bool>& whole) {
  const grb::Csr<bool>& local = graph.local.csr();
  const grb::Csr<bool>& all = whole.csr();
  if (local.nrows != graph.partition.count(graph.rank)) return false;
  for (Index i = 0; i < local.nrows; ++i) {
    const Index v = graph.first() + i;
    const grb::Offset length = local.row_offsets[i + 1] - local.row_offsets[i];
    if (length != all.row_offsets[v + 1] - all.row_offsets[v]) return false;
    if (!std::equal(local.col_indices.begin() + local.row_offsets[i],
                    local.col_indices.begin() + local.row_offsets[i + 1],
                    all.col_indices.begin() + all.row_offsets[v]))
      return false;
  }
  return true;
}

}  // namespace

TEST_CASE("GPU ranks: sums, maxima and all-to-all over NCCL") {
  const int gpus = gpus_or_skip();
  if (gpus == 0) return;
  Findings findings;
  grb::dist::run_on_devices(gpus, [&](DeviceCommunicator& comm) {
    const int p = comm.size(), r = comm.rank();
    if (comm.sum(std::uint64_t(r + 1)) != std::uint64_t(p) * (p + 1) / 2)
      findings.add(r, "wrong sum");
    if (comm.max(std::uint64_t(10 * r)) != std::uint64_t(10 * (p - 1)))
      findings.add(r, "wrong max");
    if (comm.all(r != 0) || !comm.all(true)) findings.add(r, "wrong all");
    // Rank r sends rank d the values r * 1000 + d, d + 1 of them (rank r receives r + 1 from each).
    std::vector<std::vector<std::uint32_t>> send(p);
    for (int d = 0; d < p; ++d) send[d].assign(std::size_t(d) + 1, std::uint32_t(r * 1000 + d));
    std::vector<std::size_t> from;
    const std::vector<std::uint32_t> got = comm.all_to_all(send, &from);
    std::vector<std::uint32_t> expected;
    for (int s = 0; s < p; ++s)
      expected.insert(expected.end(), std::size_t(r) + 1, std::uint32_t(s * 1000 + r));
    if (got != expected) findings.add(r, "wrong all_to_all");
    if (from != std::vector<std::size_t>(p, std::size_t(r) + 1)) findings.add(r, "wrong counts");
  });
  INFO(doctest::toString(findings.problems.empty() ? std::string() : findings.problems[0]));
  CHECK(findings.problems.empty());
}

TEST_CASE("GPU ranks: Graph500 kernel 1 on the GPUs gives the single-process pattern's rows") {
  const int gpus = gpus_or_skip();
  if (gpus == 0) return;
  for (int scale : {1, 9, 12}) {
    const grb::Matrix<bool> whole = grb::generate::kronecker_pattern(scale, 8, {.seed = 3});
    Findings findings;
    grb::dist::run_on_devices(gpus, [&](DeviceCommunicator& comm) {
      const grb::dist::DeviceGraph graph = grb::dist::kronecker_on_devices(comm, scale, 8, 3);
      if (graph.global_entries != whole.nvals())
        findings.add(comm.rank(), std::to_string(graph.global_entries) + " entries, not " +
                                      std::to_string(whole.nvals()));
      if (!same_rows(graph.to_host(), whole)) findings.add(comm.rank(), "rows differ");
    });
    INFO("scale " << scale << ": " << (findings.problems.empty() ? "" : findings.problems[0]));
    CHECK(findings.problems.empty());
  }
}

TEST_CASE("GPU ranks: the distributed BFS gives the textbook levels and a valid tree") {
  const int gpus = gpus_or_skip();
  if (gpus == 0) return;
  const int scale = 12;
  const grb::Matrix<bool> whole = grb::generate::kronecker_pattern(scale, 16, {.seed = 5});
  const std::vector<Index> sources{0, 1, 777, 4095};
  std::vector<std::vector<std::int32_t>> expected;
  for (Index source : sources) expected.push_back(grb::test::textbook_levels(whole, source));
  Findings findings;
  grb::dist::run_on_devices(gpus, [&](DeviceCommunicator& comm) {
    const grb::dist::DeviceGraph graph = grb::dist::kronecker_on_devices(comm, scale, 16, 5);
    const grb::dist::Graph<bool> host = graph.to_host();
    for (const grb::dist::BfsOptions options :
         {grb::dist::BfsOptions{true, true}, grb::dist::BfsOptions{true, false},
          grb::dist::BfsOptions{false, false}, grb::dist::BfsOptions{false, true}}) {
      const bool prune = options.prune, pull = options.direction_optimizing;
      grb::dist::DeviceBfs bfs(comm, graph, options);
      for (std::size_t s = 0; s < sources.size(); ++s) {
        const std::string where = "source " + std::to_string(sources[s]) +
                                  (prune ? ", pruned" : ", not pruned") +
                                  (pull ? ", direction-optimizing: " : ", top-down: ");
        bfs.run(sources[s]);
        const grb::dist::BfsResult result = bfs.result();
        if (!std::equal(result.level.begin(), result.level.end(),
                        expected[s].begin() + graph.first()))
          findings.add(comm.rank(), where + "levels differ from the textbook's");
        const grb::dist::Verdict verdict = grb::dist::validate_bfs(comm, host, sources[s], result);
        if (!verdict.ok) findings.add(comm.rank(), where + verdict.message);
        std::uint64_t found = 0, sent = 0, reached = 0, entries = 0;
        for (const grb::dist::BfsLevel& level : result.levels)
          found += level.pairs_found, sent += level.pairs_sent;
        for (std::size_t v = 0; v < expected[s].size(); ++v)
          if (expected[s][v] >= 0)
            ++reached, entries += whole.csr().row_offsets[v + 1] - whole.csr().row_offsets[v];
        if (bfs.reached() != reached) findings.add(comm.rank(), where + "wrong reached count");
        if (bfs.reached_entries() != entries)
          findings.add(comm.rank(), where + "wrong reached entries");
        if (!prune && sent != found)
          findings.add(comm.rank(), where + "unpruned pairs were dropped");
        if (comm.size() == 1 && found != 0) findings.add(comm.rank(), where + "pairs on one rank");
        // Top-down, the pruning must save pairs; direction-optimizing, the levels that would
        // have most duplicates run bottom-up, and the few pairs left may all be distinct.
        if (prune && !pull && comm.size() > 1 && reached > 1 && sent >= found)
          findings.add(comm.rank(), where + "the pruning saved nothing");
        const auto pulled =
            std::count_if(result.levels.begin(), result.levels.end(),
                          [](const grb::dist::BfsLevel& level) { return level.bottom_up; });
        if (!pull && pulled > 0) findings.add(comm.rank(), where + "a bottom-up level");
        if (pull && reached > 1000 && pulled == 0)
          findings.add(comm.rank(), where + "never bottom-up");
      }
    }
  });
  INFO((findings.problems.empty() ? std::string() : findings.problems[0]));
  CHECK(findings.problems.empty());
}

TEST_CASE("GPU ranks: host graphs whose blocks are not whole bitmap words") {
  const int gpus = gpus_or_skip();
  if (gpus == 0) return;
  // n = 1001: no block is a whole number of 32-bit words; average degree 24: bottom-up levels.
  const grb::Matrix<bool> whole = grb::pattern(grb::generate::erdos_renyi(1001, 24, {.seed = 4}));
  const std::vector<std::int32_t> expected = grb::test::textbook_levels(whole, 0);
  Findings findings;
  grb::dist::run_on_devices(gpus, [&](DeviceCommunicator& comm) {
    const grb::dist::Graph<bool> host = grb::test::share_rows(whole, comm.rank(), comm.size());
    const grb::dist::DeviceGraph graph = grb::dist::to_device(host);
    for (bool pull : {true, false}) {
      grb::dist::DeviceBfs bfs(comm, graph, {.direction_optimizing = pull});
      bfs.run(0);
      const grb::dist::BfsResult result = bfs.result();
      if (!std::equal(result.level.begin(), result.level.end(), expected.begin() + graph.first()))
        findings.add(comm.rank(), "levels differ from the textbook's");
      const grb::dist::Verdict verdict = grb::dist::validate_bfs(comm, host, 0, result);
      if (!verdict.ok) findings.add(comm.rank(), verdict.message);
      const bool pulled =
          std::any_of(result.levels.begin(), result.levels.end(),
                      [](const grb::dist::BfsLevel& level) { return level.bottom_up; });
      if (pulled != pull) findings.add(comm.rank(), pull ? "never bottom-up" : "a bottom-up level");
    }
  });
  INFO((findings.problems.empty() ? std::string() : findings.problems[0]));
  CHECK(findings.problems.empty());
}

TEST_CASE("GPU ranks: the validator finds a broken tree, over NCCL") {
  const int gpus = gpus_or_skip();
  if (gpus == 0) return;
  std::mutex mutex;
  std::vector<bool> verdicts;
  grb::dist::run_on_devices(gpus, [&](DeviceCommunicator& comm) {
    const grb::dist::DeviceGraph graph = grb::dist::kronecker_on_devices(comm, 9, 8, 2);
    grb::dist::DeviceBfs bfs(comm, graph);
    bfs.run(1);
    grb::dist::BfsResult result = bfs.result();
    if (comm.rank() == comm.size() - 1) {  // one reached vertex one level too deep
      auto reached = std::find_if(result.level.begin(), result.level.end(),
                                  [](std::int32_t level) { return level > 0; });
      if (reached != result.level.end())
        *reached += 1;
      else if (!result.level.empty())
        result.level[0] = 3;
    }
    const bool ok = grb::dist::validate_bfs(comm, graph.to_host(), 1, result).ok;
    std::lock_guard lock(mutex);
    verdicts.push_back(ok);
  });
  CHECK(verdicts == std::vector<bool>(gpus, false));
}

TEST_CASE("GPU ranks: errors reach the caller; a failing rank does not leave the others waiting") {
  const int gpus = gpus_or_skip();
  if (gpus == 0) return;
  CHECK_THROWS_AS(grb::dist::run_on_devices(gpus + 1, [](DeviceCommunicator&) {}),
                  grb::InvalidValue);
  CHECK_THROWS_AS(grb::dist::run_on_devices(gpus,
                                            [](DeviceCommunicator& comm) {
                                              const grb::dist::DeviceGraph graph =
                                                  grb::dist::kronecker_on_devices(comm, 6, 4, 1);
                                              grb::dist::DeviceBfs bfs(comm, graph);
                                              bfs.run(64);
                                            }),
                  grb::IndexOutOfBounds);
  // The last rank fails before an all-reduce that the others have entered: they are aborted.
  CHECK_THROWS_WITH_AS(grb::dist::run_on_devices(gpus,
                                                 [](DeviceCommunicator& comm) {
                                                   if (comm.rank() == comm.size() - 1)
                                                     throw grb::InvalidValue("rank failed");
                                                   comm.sum(std::uint64_t{1});
                                                 }),
                       "rank failed", grb::InvalidValue);
}
