// What a distributed breadth-first search gives each rank, and its check: the same for the CPU
// ranks over MPI (grb/distributed/bfs.hpp) and the GPU ranks over NCCL (device_bfs.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "grb/distributed/partition.hpp"
#include "grb/types.hpp"

namespace grb::dist {

struct BfsOptions {
  /// Sort and deduplicate the pairs before the exchange (off: every pair is sent, to measure
  /// what the pruning saves).
  bool prune = true;
  /// GPU ranks: bottom-up levels where the frontier's edges outnumber the unexplored edges / 15
  /// (Beamer's direction optimisation, GAP's switching rule), each reading the global frontier
  /// bitmap, all-gathered. Off: every level top-down, as seed paper 004.
  bool direction_optimizing = true;
};

/// One level, summed over the ranks.
struct BfsLevel {
  std::uint64_t frontier = 0;     // vertices expanded
  std::uint64_t pairs_found = 0;  // (vertex, parent) pairs for other ranks' vertices
  std::uint64_t pairs_sent = 0;   // after the pruning (= pairs_found without it)
  bool bottom_up = false;         // GPU ranks: the level read the frontier bitmap instead
};

/// This rank's part of a search: level[i] and parent[i] of vertex first() + i (-1 and no_index
/// where unreached; the source is its own parent). `levels` is the same on every rank.
struct BfsResult {
  std::vector<std::int32_t> level;
  std::vector<Index> parent;
  std::vector<BfsLevel> levels;
};

struct Verdict {
  bool ok = true;
  std::string message;
};

/// The Graph500 rules, checked where the data lives: every rank checks its own vertices (the
/// source is its own parent at level 0; a reached vertex's parent is a neighbour one level
/// up; the unreached have neither) and its own edges (an edge from a reached vertex leads to
/// one reached at most one level further), asking the owners for the levels of the other
/// ranks' vertices it needs (two all-to-alls over `comm`: a Communicator or a DeviceCommunicator).
/// For an undirected graph, as dist::kronecker builds. `ok` is the same on every rank; `message` is
/// this rank's first problem.
template <class Comm>
Verdict validate_bfs(const Comm& comm, const Graph<bool>& graph, Index source,
                     const BfsResult& result) {
  const Index first = graph.first();
  const Index rows = graph.local.nrows();
  const Csr<bool>& csr = graph.local.csr();
  const BlockPartition& partition = graph.partition;
  Verdict verdict;
  const auto fail = [&](const std::string& message) {
    if (verdict.ok) verdict = {false, message};
  };
  const auto name = [](Index v) { return "vertex " + std::to_string(v); };
  if (result.level.size() != rows || result.parent.size() != rows) {
    fail("rank " + std::to_string(comm.rank()) + " has " + std::to_string(result.level.size()) +
         " levels and " + std::to_string(result.parent.size()) + " parents for " +
         std::to_string(rows) + " vertices");
    return {comm.all(false), verdict.message};
  }

  // The levels of the other ranks' vertices that this rank's checks need: the neighbours of its
  // reached vertices and their parents, asked of their owners.
  std::vector<std::vector<Index>> asked(comm.size());
  for (Index i = 0; i < rows; ++i) {
    if (result.level[i] < 0) continue;
    for (Offset e = csr.row_offsets[i]; e < csr.row_offsets[i + 1]; ++e)
      if (!graph.owns(csr.col_indices[e]))
        asked[partition.owner(csr.col_indices[e])].push_back(csr.col_indices[e]);
    if (result.parent[i] < partition.vertices() && !graph.owns(result.parent[i]))
      asked[partition.owner(result.parent[i])].push_back(result.parent[i]);
  }
  for (std::vector<Index>& ids : asked) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  }
  std::vector<std::size_t> from;
  const std::vector<Index> requests = comm.all_to_all(asked, &from);
  std::vector<std::vector<std::int32_t>> answers(comm.size());
  std::size_t at = 0;
  for (int r = 0; r < comm.size(); ++r)
    for (std::size_t k = 0; k < from[r]; ++k, ++at)
      answers[r].push_back(result.level[requests[at] - first]);
  const std::vector<std::int32_t> replies = comm.all_to_all(answers);  // in the order asked
  std::vector<std::size_t> reply_offset(comm.size() + 1, 0);
  for (int r = 0; r < comm.size(); ++r) reply_offset[r + 1] = reply_offset[r] + asked[r].size();
  const auto level_of = [&](Index v) -> std::int32_t {
    if (graph.owns(v)) return result.level[v - first];
    const int owner = partition.owner(v);
    const std::vector<Index>& ids = asked[owner];
    return replies[reply_offset[owner] +
                   std::size_t(std::lower_bound(ids.begin(), ids.end(), v) - ids.begin())];
  };

  for (Index i = 0; i < rows && verdict.ok; ++i) {
    const Index v = first + i;
    const std::int32_t level = result.level[i];
    const Index parent = result.parent[i];
    if ((level < 0) != (parent == no_index)) {
      fail(name(v) + " has level " + std::to_string(level) + " but parent " +
           (parent == no_index ? std::string("none") : std::to_string(parent)));
    } else if (v == source) {
      if (parent != source || level != 0)
        fail("the source " + std::to_string(source) + " is not its own parent at level 0");
    } else if (level >= 0) {
      if (parent >= partition.vertices()) {
        fail(name(v) + "'s parent " + std::to_string(parent) + " is not a vertex");
        continue;
      }
      const Index* begin = csr.col_indices.data() + csr.row_offsets[i];
      const Index* end = csr.col_indices.data() + csr.row_offsets[i + 1];
      if (!std::binary_search(begin, end, parent))
        fail("tree edge " + std::to_string(parent) + " - " + std::to_string(v) + " is not an edge");
      else if (level_of(parent) != level - 1)
        fail(name(v) + " is at level " + std::to_string(level) + " but its parent " +
             std::to_string(parent) + " at " + std::to_string(level_of(parent)));
    }
    if (level < 0) continue;
    for (Offset e = csr.row_offsets[i]; e < csr.row_offsets[i + 1] && verdict.ok; ++e) {
      const Index w = csr.col_indices[e];
      const std::int32_t other = level_of(w);
      if (other < 0 || other > level + 1)
        fail("edge " + std::to_string(v) + " - " + std::to_string(w) + " joins level " +
             std::to_string(level) + " to " +
             (other < 0 ? std::string("unreached") : std::to_string(other)));
    }
  }
  verdict.ok = comm.all(verdict.ok);
  if (!verdict.ok && verdict.message.empty()) verdict.message = "another rank found a problem";
  return verdict;
}

}  // namespace grb::dist
