// The validators of distributed results, checked where the data lives: each rank checks its own
// vertices and their edges, and asks the owners for the values of the other ranks' vertices it
// needs (two all-to-alls). `comm` is a Communicator (MPI) or a DeviceCommunicator (NCCL): the
// checks run on the host either way. The graphs are undirected (each edge in both rows), as
// dist::kronecker builds them. A Verdict's `ok` is the same on every rank; `message` is this
// rank's first problem.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "grb/distributed/bfs_result.hpp"
#include "grb/distributed/partition.hpp"
#include "grb/distributed/remote_values.hpp"

namespace grb::dist {

namespace detail {

/// Records the first problem; ok() agrees over the ranks.
class Findings {
 public:
  void fail(const std::string& message) {
    if (verdict_.ok) verdict_ = {false, message};
  }
  bool ok() const { return verdict_.ok; }
  template <class Comm>
  Verdict agreed(const Comm& comm) {
    verdict_.ok = comm.all(verdict_.ok);
    if (!verdict_.ok && verdict_.message.empty()) verdict_.message = "another rank found a problem";
    return verdict_;
  }

 private:
  Verdict verdict_;
};

inline std::string sizes_problem(int rank, const char* what, std::size_t got, Index rows) {
  return "rank " + std::to_string(rank) + " has " + std::to_string(got) + " " + what + " for " +
         std::to_string(rows) + " vertices";
}

/// A distributed search: from the owned vertices of `starts`, along the edges e = (u, w) that
/// `follows(u, e)` accepts, level by level with an all-to-all of the vertices found for other
/// ranks. Returns which owned vertices it reached (collective).
template <class Comm, class T, class Follows>
std::vector<char> reach_from(const Comm& comm, const Graph<T>& graph,
                             const std::vector<Index>& starts, Follows&& follows) {
  const Index first = graph.first();
  const Csr<T>& csr = graph.local.csr();
  std::vector<char> reached(graph.local.nrows(), 0);
  std::vector<Index> frontier, next;
  for (Index v : starts)
    if (!reached[v - first]) reached[v - first] = 1, frontier.push_back(v);
  std::vector<std::vector<Index>> send(comm.size());
  for (;;) {
    next.clear();
    for (std::vector<Index>& ids : send) ids.clear();
    for (Index u : frontier)
      for (Offset e = csr.row_offsets[u - first]; e < csr.row_offsets[u - first + 1]; ++e) {
        if (!follows(u, e)) continue;
        const Index w = csr.col_indices[e];
        if (!graph.owns(w))
          send[graph.partition.owner(w)].push_back(w);
        else if (!reached[w - first])
          reached[w - first] = 1, next.push_back(w);
      }
    for (Index w : comm.all_to_all(send))
      if (!reached[w - first]) reached[w - first] = 1, next.push_back(w);
    if (comm.sum(std::uint64_t(next.size())) == 0) break;
    frontier.swap(next);
  }
  return reached;
}

}  // namespace detail

/// The Graph500 rules: the source is its own parent at level 0; a reached vertex's parent is a
/// neighbour one level up; the unreached have neither; an edge from a reached vertex leads to one
/// reached at most one level further.
/// The graph's values are not read (a weighted graph's rows serve as its pattern).
template <class Comm, class T>
Verdict validate_bfs(const Comm& comm, const Graph<T>& graph, Index source,
                     const BfsResult& result) {
  const Index first = graph.first(), rows = graph.local.nrows(), n = graph.partition.vertices();
  const Csr<T>& csr = graph.local.csr();
  detail::Findings findings;
  if (result.level.size() != rows || result.parent.size() != rows) {
    findings.fail(detail::sizes_problem(comm.rank(), "levels and parents",
                                        std::max(result.level.size(), result.parent.size()), rows));
  }
  if (const Verdict sized = findings.agreed(comm); !sized.ok) return sized;  // every rank returns
  detail::RemoteValues<Comm, std::int32_t> level_of(comm, graph.partition, graph.rank,
                                                    result.level);
  for (Index i = 0; i < rows; ++i) {
    if (result.level[i] < 0) continue;
    for (Offset e = csr.row_offsets[i]; e < csr.row_offsets[i + 1]; ++e)
      level_of.add(csr.col_indices[e]);
    level_of.add(result.parent[i]);
  }
  level_of.fetch();
  const auto name = [](Index v) { return "vertex " + std::to_string(v); };
  for (Index i = 0; i < rows && findings.ok(); ++i) {
    const Index v = first + i;
    const std::int32_t level = result.level[i];
    const Index parent = result.parent[i];
    if ((level < 0) != (parent == no_index)) {
      findings.fail(name(v) + " has level " + std::to_string(level) + " but parent " +
                    (parent == no_index ? std::string("none") : std::to_string(parent)));
    } else if (v == source) {
      if (parent != source || level != 0)
        findings.fail("the source " + std::to_string(source) + " is not its own parent at level 0");
    } else if (level >= 0) {
      if (parent >= n) {
        findings.fail(name(v) + "'s parent " + std::to_string(parent) + " is not a vertex");
        continue;
      }
      const Index* begin = csr.col_indices.data() + csr.row_offsets[i];
      const Index* end = csr.col_indices.data() + csr.row_offsets[i + 1];
      if (!std::binary_search(begin, end, parent))
        findings.fail("tree edge " + std::to_string(parent) + " - " + std::to_string(v) +
                      " is not an edge");
      else if (level_of(parent) != level - 1)
        findings.fail(name(v) + " is at level " + std::to_string(level) + " but its parent " +
                      std::to_string(parent) + " at " + std::to_string(level_of(parent)));
    }
    if (level < 0) continue;
    for (Offset e = csr.row_offsets[i]; e < csr.row_offsets[i + 1] && findings.ok(); ++e) {
      const Index w = csr.col_indices[e];
      const std::int32_t other = level_of(w);
      if (other < 0 || other > level + 1)
        findings.fail("edge " + std::to_string(v) + " - " + std::to_string(w) + " joins level " +
                      std::to_string(level) + " to " +
                      (other < 0 ? std::string("unreached") : std::to_string(other)));
    }
  }
  return findings.agreed(comm);
}

/// Shortest-path distances (infinity where unreached): the source at 0; no edge can shorten a
/// distance (d[j] <= d[i] + w, within `tolerance` relative); every reached vertex but the
/// source has an edge that achieves its distance (d[j] = d[i] + w), and is reached from the
/// source along such edges (which zero weights make necessary).
template <class Comm>
Verdict validate_sssp(const Comm& comm, const Graph<double>& graph, Index source,
                      const std::vector<double>& distance, double tolerance = 1e-9) {
  const Index first = graph.first(), rows = graph.local.nrows();
  const Csr<double>& csr = graph.local.csr();
  detail::Findings findings;
  if (distance.size() != rows) {
    findings.fail(detail::sizes_problem(comm.rank(), "distances", distance.size(), rows));
  }
  if (const Verdict sized = findings.agreed(comm); !sized.ok) return sized;  // every rank returns
  detail::RemoteValues<Comm, double> distance_of(comm, graph.partition, graph.rank, distance);
  for (Index i = 0; i < rows; ++i)
    if (std::isfinite(distance[i]))
      for (Offset e = csr.row_offsets[i]; e < csr.row_offsets[i + 1]; ++e)
        distance_of.add(csr.col_indices[e]);
  distance_of.fetch();
  const auto close = [tolerance](double a, double b) {
    return std::abs(a - b) <= tolerance * std::max({1.0, std::abs(a), std::abs(b)});
  };
  for (Index i = 0; i < rows && findings.ok(); ++i) {
    const Index v = first + i;
    const double d = distance[i];
    if (std::isnan(d) || d < 0) {
      findings.fail("vertex " + std::to_string(v) + " has distance " + std::to_string(d));
      continue;
    }
    if (v == source && d != 0) findings.fail("the source " + std::to_string(v) + " is not at 0");
    if (!std::isfinite(d)) continue;
    bool achieved = v == source;
    for (Offset e = csr.row_offsets[i]; e < csr.row_offsets[i + 1] && findings.ok(); ++e) {
      const Index w = csr.col_indices[e];
      const double through = d + csr.values[e];
      const double other = distance_of(w);
      if (other > through && !close(other, through))
        findings.fail("edge " + std::to_string(v) + " - " + std::to_string(w) + " shortens " +
                      std::to_string(w) + "'s distance " + std::to_string(other) + " to " +
                      std::to_string(through));
      if (std::isfinite(other) && close(d, other + csr.values[e])) achieved = true;
    }
    if (findings.ok() && !achieved)
      findings.fail("no edge achieves vertex " + std::to_string(v) + "'s distance " +
                    std::to_string(d));
  }
  Verdict verdict = findings.agreed(comm);
  if (!verdict.ok) return verdict;

  // Achieved distances must lead back to the source: with zero weights, two vertices can
  // achieve each other's wrong distance. A search from the source along the edges that achieve
  // a distance (d[j] = d[i] + w) must reach every vertex with a finite distance.
  const std::vector<Index> from_source =
      graph.owns(source) ? std::vector<Index>{source} : std::vector<Index>{};
  const std::vector<char> reached =
      detail::reach_from(comm, graph, from_source, [&](Index u, Offset e) {
        const double other = distance_of(csr.col_indices[e]);
        return std::isfinite(other) && close(other, distance[u - first] + csr.values[e]);
      });
  for (Index i = 0; i < rows && findings.ok(); ++i)
    if (std::isfinite(distance[i]) && !reached[i])
      findings.fail("vertex " + std::to_string(first + i) + "'s distance " +
                    std::to_string(distance[i]) +
                    " is achieved only from vertices that no "
                    "shortest path from the source reaches");
  return findings.agreed(comm);
}

/// Component labels: each label is a vertex, labelled itself; every edge joins equal labels;
/// and every vertex is reached from a vertex labelled itself (a search from all of them at once
/// along the edges): so each label's vertices are one whole component, as the single-process
/// validate::components requires.
template <class Comm, class T>
Verdict validate_components(const Comm& comm, const Graph<T>& graph,
                            const std::vector<Index>& label) {
  const Index first = graph.first(), rows = graph.local.nrows(), n = graph.partition.vertices();
  const Csr<T>& csr = graph.local.csr();
  const BlockPartition& partition = graph.partition;
  detail::Findings findings;
  if (label.size() != rows) {
    findings.fail(detail::sizes_problem(comm.rank(), "labels", label.size(), rows));
  }
  if (const Verdict sized = findings.agreed(comm); !sized.ok) return sized;  // every rank returns
  detail::RemoteValues<Comm, Index> label_of(comm, partition, graph.rank, label);
  for (Index i = 0; i < rows; ++i) {
    label_of.add(label[i]);
    for (Offset e = csr.row_offsets[i]; e < csr.row_offsets[i + 1]; ++e)
      label_of.add(csr.col_indices[e]);
  }
  label_of.fetch();
  for (Index i = 0; i < rows && findings.ok(); ++i) {
    const Index v = first + i;
    if (label[i] >= n) {
      findings.fail("vertex " + std::to_string(v) + "'s label " + std::to_string(label[i]) +
                    " is not a vertex");
      continue;
    }
    if (label_of(label[i]) != label[i])
      findings.fail("vertex " + std::to_string(v) + "'s label " + std::to_string(label[i]) +
                    " is labelled " + std::to_string(label_of(label[i])));
    for (Offset e = csr.row_offsets[i]; e < csr.row_offsets[i + 1] && findings.ok(); ++e)
      if (label_of(csr.col_indices[e]) != label[i])
        findings.fail("edge " + std::to_string(v) + " - " + std::to_string(csr.col_indices[e]) +
                      " joins labels " + std::to_string(label[i]) + " and " +
                      std::to_string(label_of(csr.col_indices[e])));
  }
  Verdict verdict = findings.agreed(comm);
  if (!verdict.ok) return verdict;

  // The search from every vertex labelled itself: with the edges joining equal labels, a vertex
  // it misses lies in a component that holds no vertex of its label.
  std::vector<Index> roots;
  for (Index i = 0; i < rows; ++i)
    if (label[i] == first + i) roots.push_back(first + i);
  const std::vector<char> reached =
      detail::reach_from(comm, graph, roots, [](Index, Offset) { return true; });
  for (Index i = 0; i < rows && findings.ok(); ++i)
    if (!reached[i])
      findings.fail("vertex " + std::to_string(first + i) + " (label " + std::to_string(label[i]) +
                    ") is not connected to vertex " + std::to_string(label[i]));
  return findings.agreed(comm);
}

}  // namespace grb::dist
