// Validators for BFS, SSSP and CC results. They are deliberately simple, obviously-correct
// host loops over the CSR arrays, and share no code with the algorithms or engines they check
// (LAGraph's LG_check_* files play the same role). A matrix on the cuda backend is copied to the
// host first.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "grb/matrix.hpp"

namespace grb::validate {

/// ok, or the first violation found, in words ("vertex 17: level 3 but its parent 4 has level 1").
struct Result {
  bool ok = true;
  std::string message;
  explicit operator bool() const { return ok; }
};

/// Level of a vertex the search did not reach.
inline constexpr std::int32_t unreached_level = -1;

/// Graph500 BFS rules for the graph A (directed: edges i -> j for A(i, j)) from `source`:
/// the parent tree is a tree rooted at the source (parent[source] == source, no cycles);
/// each tree edge parent[v] -> v is a graph edge and level[v] == level[parent[v]] + 1;
/// every edge i -> j with i reached has j reached and level[j] <= level[i] + 1;
/// exactly the vertices reachable from the source are reached (level -1, parent no_index).
/// `parent` may be empty to check levels alone; then each reached vertex other than the source
/// must have an in-neighbour one level lower.
template <class T>
Result bfs(const Matrix<T>& a, Index source, std::span<const std::int32_t> level,
           std::span<const Index> parent);

/// SSSP rules: distance[source] == 0; every edge i -> j with weight w satisfies
/// distance[j] <= distance[i] + w (up to `tolerance` relative, for floating point);
/// every finite distance other than the source's is achieved by some in-edge
/// (distance[j] == distance[i] + w(i, j)), and by a path of such edges from the source (which
/// rules out zero-weight cycles vouching for one another); exactly the unreachable vertices have
/// +infinity. When `parent` is non-empty it is a tree rooted at the source (parent[source] ==
/// source, no_index where unreachable) whose edges achieve the distances.
/// Tolerances are relative to max(1, |values compared|).
template <class T>
Result sssp(const Matrix<T>& a, Index source, std::span<const double> distance,
            std::span<const Index> parent = {}, double tolerance = 1e-9);

/// Connected components of the undirected graph A + A' (weakly connected for directed A):
/// the ends of every edge share a label; labels are canonical (each component's label is its
/// smallest vertex id); and no two components share a label (each label's vertices are connected).
template <class T>
Result components(const Matrix<T>& a, std::span<const Index> label);

}  // namespace grb::validate
