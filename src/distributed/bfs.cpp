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

}  // namespace

BfsResult bfs(const Communicator& comm, const Graph<bool>& graph, Index source,
              const BfsOptions& options) {
  const Index n = graph.partition.vertices();
  if (source >= n)
    throw IndexOutOfBounds("dist::bfs: source " + std::to_string(source) + " outside [0, " +
                           std::to_string(n) + ")");
  const Index first = graph.first();
  const Index rows = graph.local.nrows();
  const Csr<bool>& csr = graph.local.csr();
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

Verdict validate_bfs(const Communicator& comm, const Graph<bool>& graph, Index source,
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
             std::to_string(level) + " to " + (other < 0 ? std::string("unreached") : std::to_string(other)));
    }
  }
  verdict.ok = comm.all(verdict.ok);
  if (!verdict.ok && verdict.message.empty()) verdict.message = "another rank found a problem";
  return verdict;
}

}  // namespace grb::dist
