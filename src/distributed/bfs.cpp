#include "grb/distributed/bfs.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "grb/error.hpp"

namespace grb::dist {

namespace {

/// A vertex reached from `parent`, bound for the vertex's owner.
struct Pair {
  Index vertex, parent;
};

/// One parent a vertex, per destination: sorted by vertex, the first pair of each run kept.
void prune(std::vector<Pair>& pairs) {
  std::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) {
    return a.vertex != b.vertex ? a.vertex < b.vertex : a.parent < b.parent;
  });
  pairs.erase(std::unique(pairs.begin(), pairs.end(),
                          [](const Pair& a, const Pair& b) { return a.vertex == b.vertex; }),
              pairs.end());
}

/// The search over the structure of `graph`'s rows (their values are not read).
template <class T>
BfsResult search(const Communicator& comm, const Graph<T>& graph, Index source,
                 const BfsOptions& options) {
  const Index n = graph.partition.vertices();
  if (source >= n)
    throw IndexOutOfBounds("dist::bfs: source " + std::to_string(source) + " outside [0, " +
                           std::to_string(n) + ")");
  const Index first = graph.first();
  const Index rows = graph.local.nrows();
  const Csr<T>& csr = graph.local.csr();
  BfsResult result;
  result.level.assign(rows, -1);
  result.parent.assign(rows, no_index);

  std::vector<Index> frontier, next;
  if (graph.owns(source)) {
    result.level[source - first] = 0;
    result.parent[source - first] = source;
    frontier.push_back(source);
  }
  const auto claim = [&](Index vertex, Index parent, std::int32_t depth) {
    const Index i = vertex - first;
    if (result.parent[i] != no_index) return;
    result.parent[i] = parent;
    result.level[i] = depth;
    next.push_back(vertex);
  };
  std::vector<std::vector<Pair>> send(comm.size());
  for (std::int32_t depth = 0;; ++depth) {
    BfsLevel level;
    level.frontier = frontier.size();
    for (std::vector<Pair>& pairs : send) pairs.clear();
    for (Index u : frontier) {
      const Index i = u - first;
      for (Offset e = csr.row_offsets[i]; e < csr.row_offsets[i + 1]; ++e) {
        const Index v = csr.col_indices[e];
        if (graph.owns(v)) claim(v, u, depth + 1);
        else send[graph.partition.owner(v)].push_back({v, u});
      }
    }
    std::uint64_t found = 0, sent = 0;
    for (std::vector<Pair>& pairs : send) {
      found += pairs.size();
      if (options.prune) prune(pairs);
      sent += pairs.size();
    }
    for (const Pair& pair : comm.all_to_all(send)) claim(pair.vertex, pair.parent, depth + 1);
    // One all-reduce for the three counts would do; three keep the code plain at this size.
    level.frontier = comm.sum(level.frontier);
    level.pairs_found = comm.sum(found);
    level.pairs_sent = comm.sum(sent);
    result.levels.push_back(level);
    if (comm.sum(next.size()) == 0) break;
    frontier.swap(next);
    next.clear();
  }
  return result;
}

}  // namespace

BfsResult bfs(const Communicator& comm, const Graph<bool>& graph, Index source,
              const BfsOptions& options) {
  return search(comm, graph, source, options);
}

BfsResult bfs(const Communicator& comm, const Graph<double>& graph, Index source,
              const BfsOptions& options) {
  return search(comm, graph, source, options);
}

}  // namespace grb::dist
