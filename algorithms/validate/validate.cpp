// The validators: plain loops over the host CSR arrays. No grb operation appears here, so that a
// bug in an operation or an engine cannot hide itself by also being in its checker.
//
// The loops run on every core (a Graph500 search at scale 26 has 2.1 G edges to check): each
// pass is cut into one range of vertices per thread, and a pass reports the problem of the
// lowest range that has one, so the message names the same vertex as a sequential scan would.
#include "validate/validate.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

namespace grb::validate {
namespace {

Result failure(std::string message) { return Result{false, std::move(message)}; }
/// Passed when `problem` is empty.
Result failure_or_ok(std::string problem) {
  if (problem.empty()) return {};
  return failure(std::move(problem));
}

std::string number(double value) {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return error == std::errc{} ? std::string(buffer, end) : std::to_string(value);
}

template <class Integer>
std::string str(Integer value) {
  return std::to_string(value);
}

/// The CSR on the host: the matrix's own when it is a cpu matrix, else a copy in `storage`.
template <class T>
const Csr<T>& host_csr(const Matrix<T>& a, Csr<T>& storage) {
  if (a.backend() == Backend::cpu) return a.csr();
  storage = a.csr().to(Backend::cpu);
  return storage;
}

/// The position of entry (i, j) in the CSR, or nvals when absent (rows are sorted).
template <class T>
Offset find_edge(const Csr<T>& csr, Index i, Index j) {
  const Index* begin = csr.col_indices.data() + csr.row_offsets[i];
  const Index* end = csr.col_indices.data() + csr.row_offsets[i + 1];
  const Index* it = std::lower_bound(begin, end, j);
  if (it == end || *it != j) return csr.nvals();
  return static_cast<Offset>(it - csr.col_indices.data());
}

/// Ranges smaller than this are not worth a thread.
constexpr std::uint64_t grain = 1 << 16;

/// Calls body(part, begin, end) for [0, count) cut into `parts` equal ranges, one thread each.
template <class Body>
void for_ranges(std::uint64_t count, std::size_t parts, Body body) {
  std::vector<std::thread> threads;
  for (std::size_t p = 1; p < parts; ++p)
    threads.emplace_back([&, p] { body(p, count * p / parts, count * (p + 1) / parts); });
  body(0, 0, count / parts);
  for (std::thread& thread : threads) thread.join();
}

std::size_t parts_for(std::uint64_t count) {
  const std::uint64_t cores = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<std::size_t>(std::clamp<std::uint64_t>(count / grain, 1, cores));
}

/// check(begin, end) over [0, count) in parallel; each returns its range's first problem (empty
/// when none). Returns the problem of the lowest range that has one.
template <class Check>
std::string first_problem(std::uint64_t count, Check check) {
  const std::size_t parts = parts_for(count);
  std::vector<std::string> problems(parts);
  for_ranges(count, parts, [&](std::size_t p, std::uint64_t begin, std::uint64_t end) {
    problems[p] = check(static_cast<Index>(begin), static_cast<Index>(end));
  });
  for (std::string& problem : problems)
    if (!problem.empty()) return std::move(problem);
  return {};
}

/// Marks a flag that several threads may set at once (all to 1).
inline void mark(std::vector<std::uint8_t>& flags, Index v) {
  std::atomic_ref<std::uint8_t>(flags[v]).store(1, std::memory_order_relaxed);
}

/// Vertices reached from `source` along the edges k = (i -> j) for which follow(i, k, j) holds,
/// level by level; a large frontier is expanded by all cores (each vertex claimed once by an
/// atomic exchange), a small one by the caller alone.
template <class T, class Follow>
std::vector<std::uint8_t> reach(const Csr<T>& csr, Index source, Follow follow) {
  std::vector<std::uint8_t> reached(csr.nrows, 0);
  reached[source] = 1;
  std::vector<Index> frontier{source}, next;
  const auto expand = [&](std::uint64_t begin, std::uint64_t end, std::vector<Index>& out) {
    for (std::uint64_t f = begin; f < end; ++f) {
      const Index i = frontier[f];
      for (Offset k = csr.row_offsets[i]; k < csr.row_offsets[i + 1]; ++k) {
        const Index j = csr.col_indices[k];
        if (std::atomic_ref<std::uint8_t>(reached[j]).load(std::memory_order_relaxed) ||
            !follow(i, k, j))
          continue;
        if (std::atomic_ref<std::uint8_t>(reached[j]).exchange(1, std::memory_order_relaxed) == 0)
          out.push_back(j);
      }
    }
  };
  while (!frontier.empty()) {
    next.clear();
    const std::size_t parts = parts_for(frontier.size());
    if (parts == 1) {
      expand(0, frontier.size(), next);
    } else {
      std::vector<std::vector<Index>> found(parts);
      for_ranges(frontier.size(), parts, [&](std::size_t p, std::uint64_t begin,
                                             std::uint64_t end) { expand(begin, end, found[p]); });
      for (const std::vector<Index>& part : found) next.insert(next.end(), part.begin(), part.end());
    }
    frontier.swap(next);
  }
  return reached;
}

/// Vertices reachable from `source` along directed edges.
template <class T>
std::vector<std::uint8_t> reachable_from(const Csr<T>& csr, Index source) {
  return reach(csr, source, [](Index, Offset, Index) { return true; });
}

/// The first vertex whose parent disagrees with being reached: a reached vertex without a parent,
/// or an unreached one with one. `state(v)` says how v stands ("level 3", "distance inf").
template <class Reached, class State>
std::string parent_presence_problem(Index n, std::span<const Index> parent, Reached reached,
                                    State state) {
  return first_problem(n, [&](Index begin, Index end) -> std::string {
    for (Index v = begin; v < end; ++v) {
      if (!reached(v) && parent[v] != no_index)
        return "vertex " + str(v) + ": " + state(v) + " but has parent " + str(parent[v]);
      if (reached(v) && parent[v] == no_index)
        return "vertex " + str(v) + ": " + state(v) + " but no parent";
    }
    return {};
  });
}

/// Checks that `parent` is a forest of in-range parents with a single root, `source`: every
/// vertex with a parent reaches the source by following parents, without a cycle. Returns the
/// first problem in words, or an empty string.
std::string parent_tree_problem(std::span<const Index> parent, Index source) {
  const std::size_t n = parent.size();
  if (parent[source] != source)
    return "source " + str(source) + ": parent " + str(parent[source]) + ", not itself";
  for (std::size_t v = 0; v < n; ++v)
    if (parent[v] != no_index && parent[v] >= n)
      return "vertex " + str(v) + ": parent " + str(parent[v]) + " outside [0, " + str(n) + ")";
  enum : std::uint8_t { unvisited, on_path, rooted };
  std::vector<std::uint8_t> state(n, unvisited);
  state[source] = rooted;
  std::vector<Index> path;
  for (std::size_t start = 0; start < n; ++start) {
    if (parent[start] == no_index || state[start] != unvisited) continue;
    path.clear();
    Index v = static_cast<Index>(start);
    while (state[v] == unvisited) {
      state[v] = on_path;
      path.push_back(v);
      if (parent[v] == no_index)
        return "vertex " + str(v) + " has no parent but is the parent of vertex " +
               str(path.size() > 1 ? path[path.size() - 2] : v) +
               ": its parent chain does not reach the source " + str(source);
      v = parent[v];
    }
    if (state[v] == on_path) return "the parents form a cycle through vertex " + str(v);
    for (Index w : path) state[w] = rooted;
  }
  return {};
}

std::string size_problem(const char* what, std::size_t size, Index n) {
  return std::string(what) + " has " + str(size) + " entries for a graph of " + str(n) +
         " vertices";
}

/// |a - b| within `tolerance` relative to the larger magnitude (absolute below 1).
bool close(double a, double b, double tolerance) {
  return std::abs(a - b) <= tolerance * std::max({1.0, std::abs(a), std::abs(b)});
}

}  // namespace

template <class T>
Result bfs(const Matrix<T>& a, Index source, std::span<const std::int32_t> level,
           std::span<const Index> parent) {
  if (a.nrows() != a.ncols())
    return failure("the graph is " + str(a.nrows()) + " x " + str(a.ncols()) + ", not square");
  Csr<T> storage;
  const Csr<T>& csr = host_csr(a, storage);
  const Index n = csr.nrows;
  if (level.size() != n) return failure(size_problem("level", level.size(), n));
  if (!parent.empty() && parent.size() != n)
    return failure(size_problem("parent", parent.size(), n));
  if (source >= n) return failure("source " + str(source) + " outside [0, " + str(n) + ")");

  if (level[source] != 0)
    return failure("source " + str(source) + ": level " + str(level[source]) + ", not 0");
  std::string problem = first_problem(n, [&](Index begin, Index end) -> std::string {
    for (Index v = begin; v < end; ++v) {
      if (level[v] < unreached_level)
        return "vertex " + str(v) + ": level " + str(level[v]) + " is negative";
      if (level[v] == 0 && v != source)
        return "vertex " + str(v) + ": level 0 but it is not the source " + str(source);
    }
    return {};
  });
  if (!problem.empty()) return failure(problem);

  if (!parent.empty()) {
    problem = parent_presence_problem(
        n, parent, [&](Index v) { return level[v] != unreached_level; },
        [&](Index v) {
          return level[v] == unreached_level ? std::string("unreached (level -1)")
                                             : "level " + str(level[v]);
        });
    if (problem.empty()) problem = parent_tree_problem(parent, source);
    if (problem.empty())
      problem = first_problem(n, [&](Index begin, Index end) -> std::string {
        for (Index v = begin; v < end; ++v) {
          if (v == source || parent[v] == no_index) continue;
          const Index p = parent[v];
          if (find_edge(csr, p, v) == csr.nvals())
            return "vertex " + str(v) + ": parent " + str(p) + " but there is no edge " + str(p) +
                   " -> " + str(v);
          if (level[v] != level[p] + 1)
            return "vertex " + str(v) + ": level " + str(level[v]) + " but its parent " + str(p) +
                   " has level " + str(level[p]);
        }
        return {};
      });
    if (!problem.empty()) return failure(problem);
  }

  const std::vector<std::uint8_t> reachable = reachable_from(csr, source);
  problem = first_problem(n, [&](Index begin, Index end) -> std::string {
    for (Index v = begin; v < end; ++v) {
      if (reachable[v] && level[v] == unreached_level)
        return "vertex " + str(v) + " is reachable from source " + str(source) +
               " but unreached (level -1)";
      if (!reachable[v] && level[v] != unreached_level)
        return "vertex " + str(v) + ": level " + str(level[v]) +
               " but it is not reachable from source " + str(source);
    }
    return {};
  });
  if (!problem.empty()) return failure(problem);

  // Graph500: an edge from a reached vertex leads at most one level further.
  std::vector<std::uint8_t> has_previous_level(n, 0);
  problem = first_problem(n, [&](Index begin, Index end) -> std::string {
    for (Index i = begin; i < end; ++i) {
      if (level[i] == unreached_level) continue;
      for (Offset k = csr.row_offsets[i]; k < csr.row_offsets[i + 1]; ++k) {
        const Index j = csr.col_indices[k];
        if (level[j] == unreached_level)
          return "edge " + str(i) + " -> " + str(j) + ": " + str(i) + " reached (level " +
                 str(level[i]) + ") but " + str(j) + " unreached";
        if (level[j] > level[i] + 1)
          return "edge " + str(i) + " -> " + str(j) + ": level " + str(level[i]) + " -> " +
                 str(level[j]) + " skips a level";
        if (level[j] == level[i] + 1) mark(has_previous_level, j);
      }
    }
    return {};
  });
  if (!problem.empty()) return failure(problem);
  // Without parents, a level could still be too small: each one must be one more than the level
  // of some in-neighbour (with parents, the parent edge showed that already).
  return failure_or_ok(first_problem(n, [&](Index begin, Index end) -> std::string {
    for (Index v = begin; v < end; ++v)
      if (v != source && level[v] != unreached_level && !has_previous_level[v])
        return "vertex " + str(v) + ": level " + str(level[v]) + " but no in-neighbour has level " +
               str(level[v] - 1);
    return {};
  }));
}

template <class T>
Result sssp(const Matrix<T>& a, Index source, std::span<const double> distance,
            std::span<const Index> parent, double tolerance) {
  if (a.nrows() != a.ncols())
    return failure("the graph is " + str(a.nrows()) + " x " + str(a.ncols()) + ", not square");
  Csr<T> storage;
  const Csr<T>& csr = host_csr(a, storage);
  const Index n = csr.nrows;
  if (distance.size() != n) return failure(size_problem("distance", distance.size(), n));
  if (!parent.empty() && parent.size() != n)
    return failure(size_problem("parent", parent.size(), n));
  if (source >= n) return failure("source " + str(source) + " outside [0, " + str(n) + ")");
  const auto weight = [&](Offset k) { return static_cast<double>(csr.values[k]); };
  const auto edge_name = [&](Index i, Index j, Offset k) {
    return "edge " + str(i) + " -> " + str(j) + " (weight " + number(weight(k)) + ")";
  };

  std::string problem = first_problem(n, [&](Index begin, Index end) -> std::string {
    for (Index v = begin; v < end; ++v)
      if (std::isnan(distance[v]) || (std::isinf(distance[v]) && distance[v] < 0))
        return "vertex " + str(v) + ": distance " + number(distance[v]);
    return {};
  });
  if (!problem.empty()) return failure(problem);
  if (distance[source] != 0)
    return failure("source " + str(source) + ": distance " + number(distance[source]) + ", not 0");

  const std::vector<std::uint8_t> reachable = reachable_from(csr, source);
  problem = first_problem(n, [&](Index begin, Index end) -> std::string {
    for (Index v = begin; v < end; ++v) {
      if (reachable[v] && std::isinf(distance[v]))
        return "vertex " + str(v) + " is reachable from source " + str(source) +
               " but has distance inf";
      if (!reachable[v] && !std::isinf(distance[v]))
        return "vertex " + str(v) + ": distance " + number(distance[v]) +
               " but it is not reachable from source " + str(source);
    }
    return {};
  });
  if (!problem.empty()) return failure(problem);

  // Every edge relaxed; and note which finite distances some in-edge achieves exactly.
  std::vector<std::uint8_t> achieved(n, 0);
  achieved[source] = 1;
  problem = first_problem(n, [&](Index begin, Index end) -> std::string {
    for (Index i = begin; i < end; ++i) {
      if (std::isinf(distance[i])) continue;
      for (Offset k = csr.row_offsets[i]; k < csr.row_offsets[i + 1]; ++k) {
        const Index j = csr.col_indices[k];
        const double through_i = distance[i] + weight(k);
        if (distance[j] > through_i && !close(distance[j], through_i, tolerance))
          return edge_name(i, j, k) + " not relaxed: distance[" + str(j) + "] = " +
                 number(distance[j]) + " > distance[" + str(i) + "] + weight = " +
                 number(through_i);
        if (close(distance[j], through_i, tolerance)) mark(achieved, j);
      }
    }
    return {};
  });
  if (problem.empty())
    problem = first_problem(n, [&](Index begin, Index end) -> std::string {
      for (Index v = begin; v < end; ++v)
        if (!std::isinf(distance[v]) && !achieved[v])
          return "vertex " + str(v) + ": distance " + number(distance[v]) +
                 " is not achieved by any in-edge (distance[u] + weight(u, " + str(v) + "))";
      return {};
    });
  if (!problem.empty()) return failure(problem);

  // With zero-weight edges, a cycle of vertices can achieve one another's too-small distances;
  // a walk from the source over achieving ("tight") edges must reach every finite distance.
  const std::vector<std::uint8_t> on_tight_path =
      reach(csr, source, [&](Index i, Offset k, Index j) {
        return close(distance[j], distance[i] + weight(k), tolerance);
      });
  problem = first_problem(n, [&](Index begin, Index end) -> std::string {
    for (Index v = begin; v < end; ++v)
      if (!std::isinf(distance[v]) && !on_tight_path[v])
        return "vertex " + str(v) + ": distance " + number(distance[v]) +
               " is not the length of any path from source " + str(source);
    return {};
  });
  if (!problem.empty()) return failure(problem);

  if (!parent.empty()) {
    problem = parent_presence_problem(
        n, parent, [&](Index v) { return !std::isinf(distance[v]); },
        [&](Index v) {
          return std::isinf(distance[v]) ? std::string("distance inf")
                                         : "distance " + number(distance[v]);
        });
    if (problem.empty()) problem = parent_tree_problem(parent, source);
    if (problem.empty())
      problem = first_problem(n, [&](Index begin, Index end) -> std::string {
        for (Index v = begin; v < end; ++v) {
          if (v == source || parent[v] == no_index) continue;
          const Index p = parent[v];
          const Offset k = find_edge(csr, p, v);
          if (k == csr.nvals())
            return "vertex " + str(v) + ": parent " + str(p) + " but there is no edge " + str(p) +
                   " -> " + str(v);
          if (!close(distance[v], distance[p] + weight(k), tolerance))
            return "vertex " + str(v) + ": distance " + number(distance[v]) + " but parent " +
                   edge_name(p, v, k) + " gives " + number(distance[p] + weight(k));
        }
        return {};
      });
  }
  return failure_or_ok(std::move(problem));
}

template <class T>
Result components(const Matrix<T>& a, std::span<const Index> label) {
  if (a.nrows() != a.ncols())
    return failure("the graph is " + str(a.nrows()) + " x " + str(a.ncols()) + ", not square");
  Csr<T> storage;
  const Csr<T>& csr = host_csr(a, storage);
  const Index n = csr.nrows;
  if (label.size() != n) return failure(size_problem("label", label.size(), n));
  for (Index v = 0; v < n; ++v)
    if (label[v] >= n)
      return failure("vertex " + str(v) + ": label " + str(label[v]) + " outside [0, " + str(n) +
                     ")");
  const std::string problem = first_problem(n, [&](Index begin, Index end) -> std::string {
    for (Index i = begin; i < end; ++i)
      for (Offset k = csr.row_offsets[i]; k < csr.row_offsets[i + 1]; ++k) {
        const Index j = csr.col_indices[k];
        if (label[i] != label[j])
          return "edge " + str(i) + " -> " + str(j) + " joins label " + str(label[i]) +
                 " to label " + str(label[j]);
      }
    return {};
  });
  if (!problem.empty()) return failure(problem);

  // The true components, by union-find with path halving; each root remembers its smallest vertex.
  std::vector<Index> root(n);
  std::iota(root.begin(), root.end(), Index{0});
  const auto find = [&](Index v) {
    while (root[v] != v) v = root[v] = root[root[v]];
    return v;
  };
  for (Index i = 0; i < n; ++i)
    for (Offset k = csr.row_offsets[i]; k < csr.row_offsets[i + 1]; ++k) {
      const Index ri = find(i), rj = find(csr.col_indices[k]);
      if (ri != rj) root[std::max(ri, rj)] = std::min(ri, rj);
    }
  // Union by smaller id makes each root its component's smallest vertex.
  for (Index v = 0; v < n; ++v) {
    const Index smallest = find(v);
    if (label[v] == smallest) continue;
    if (find(label[v]) == smallest)
      return failure("vertex " + str(v) + ": label " + str(label[v]) +
                     " is not canonical: the smallest vertex of its component is " +
                     str(smallest));
    return failure("vertex " + str(v) + ": label " + str(label[v]) + ", but vertex " +
                   str(label[v]) + " is not connected to it (separate components share a label;" +
                   " the smallest vertex of its component is " + str(smallest) + ")");
  }
  return {};
}

#define GRB_VALIDATE_INSTANTIATE(T)                                                            \
  template Result bfs<T>(const Matrix<T>&, Index, std::span<const std::int32_t>,              \
                         std::span<const Index>);                                             \
  template Result sssp<T>(const Matrix<T>&, Index, std::span<const double>,                   \
                          std::span<const Index>, double);                                    \
  template Result components<T>(const Matrix<T>&, std::span<const Index>);

GRB_VALIDATE_INSTANTIATE(bool)
GRB_VALIDATE_INSTANTIATE(std::int32_t)
GRB_VALIDATE_INSTANTIATE(std::int64_t)
GRB_VALIDATE_INSTANTIATE(std::uint32_t)
GRB_VALIDATE_INSTANTIATE(std::uint64_t)
GRB_VALIDATE_INSTANTIATE(float)
GRB_VALIDATE_INSTANTIATE(double)

#undef GRB_VALIDATE_INSTANTIATE

}  // namespace grb::validate
