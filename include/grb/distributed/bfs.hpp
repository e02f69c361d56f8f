// Breadth-first search over a distributed graph (grb/distributed/graph.hpp), after seed paper
// 004: each level every rank expands its frontier, claims its own newly reached vertices at
// once, and collects a (vertex, parent) pair for every edge into another rank's vertex; the
// pairs bound for each rank are sorted by vertex and deduplicated (one parent a vertex: the
// paper's pruning, ~4x less traffic), exchanged all-to-all, and claimed by their owners; an
// all-reduce of the frontier sizes decides whether to go on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "grb/distributed/communicator.hpp"
#include "grb/distributed/graph.hpp"
#include "grb/types.hpp"

namespace grb::dist {

struct BfsOptions {
  /// Sort and deduplicate the pairs before the exchange (off: every pair is sent, to measure
  /// what the pruning saves).
  bool prune = true;
};

/// One level, summed over the ranks.
struct BfsLevel {
  std::uint64_t frontier = 0;      // vertices expanded
  std::uint64_t pairs_found = 0;   // (vertex, parent) pairs for other ranks' vertices
  std::uint64_t pairs_sent = 0;    // after the pruning (= pairs_found without it)
};

/// This rank's part of a search: level[i] and parent[i] of vertex first() + i (-1 and no_index
/// where unreached; the source is its own parent). `levels` is the same on every rank.
struct BfsResult {
  std::vector<std::int32_t> level;
  std::vector<Index> parent;
  std::vector<BfsLevel> levels;
};

/// A search from `source` (every rank calls it with the same source and options).
/// IndexOutOfBounds for a source outside the graph.
BfsResult bfs(const Communicator& comm, const Graph<bool>& graph, Index source,
              const BfsOptions& options = {});

/// The Graph500 rules, checked where the data lives: every rank checks its own vertices (the
/// source is its own parent at level 0; a reached vertex's parent is a neighbour one level
/// up; the unreached have neither) and its own edges (an edge from a reached vertex leads to
/// one reached at most one level further), asking the owners for the levels of the other
/// ranks' vertices it needs (two all-to-alls). For an undirected graph, as dist::kronecker
/// builds. `ok` is the same on every rank; `message` is this rank's first problem.
struct Verdict {
  bool ok = true;
  std::string message;
};
Verdict validate_bfs(const Communicator& comm, const Graph<bool>& graph, Index source,
                     const BfsResult& result);

}  // namespace grb::dist
