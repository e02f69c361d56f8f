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

#include "grb/distributed/bfs_result.hpp"
#include "grb/distributed/communicator.hpp"
#include "grb/distributed/graph.hpp"
#include "grb/distributed/validate.hpp"
#include "grb/types.hpp"

namespace grb::dist {

/// A search from `source` (every rank calls it with the same source and options).
/// IndexOutOfBounds for a source outside the graph.
BfsResult bfs(const Communicator& comm, const Graph<bool>& graph, Index source,
              const BfsOptions& options = {});
/// The same search over a weighted graph's rows, whose values it does not read: Graph500 on CPU
/// ranks searches kernel 1's weighted graph itself, with no pattern copy beside it.
BfsResult bfs(const Communicator& comm, const Graph<double>& graph, Index source,
              const BfsOptions& options = {});

}  // namespace grb::dist
