// BFS, SSSP and connected components on a distributed graph, written with the distributed vxm
// (grb/distributed/vxm.hpp) and local grb operations: the same mathematics as the
// single-process linear-algebra algorithms, each a short loop whose stopping test is a sum over
// the ranks.
#pragma once

#include <cstdint>
#include <limits>

#include "grb/distributed/vxm.hpp"

namespace grb::dist {

inline namespace GRB_OPERATIONS_NAMESPACE {

/// any.first: some frontier vertex's value (its own id, so: a parent).
template <class T>
using any_first = semiring<any_monoid<T>, first<T>>;

/// Levels and parents (absent where unreached) by masked any.first products: the frontier's
/// values are its vertices' own ids, so a product's value at j is a parent of j.
struct LinearAlgebraBfs {
  grb::Vector<std::int32_t> level;  // this rank's vertices; absent where unreached
  grb::Vector<Index> parent;
};

template <class T>
LinearAlgebraBfs bfs_linear_algebra(const Communicator& comm, const Graph<T>& graph,
                                    Index source) {
  const Index n = graph.partition.vertices();
  if (source >= n)
    throw IndexOutOfBounds("dist::bfs_linear_algebra: source " + std::to_string(source) +
                           " outside [0, " + std::to_string(n) + ")");
  const Index rows = graph.partition.count(graph.rank);
  const Descriptor unvisited{.replace = true, .structural_mask = true, .complement_mask = true};
  const Descriptor where_present{.structural_mask = true};
  // Each vertex's own id, to stamp on the frontier.
  Vector<Index> ids(graph);
  {
    std::vector<Index> at(rows), value(rows);
    for (Index i = 0; i < rows; ++i) at[i] = i, value[i] = graph.first() + i;
    ids.local.build(at, value);
  }
  Vector<Index> frontier(graph), next(graph);
  Vector<std::int32_t> level(graph);
  Vector<Index> parent(graph);
  if (graph.owns(source)) {
    const Index i = source - graph.first();
    frontier.local.set_element(i, source);
    level.local.set_element(i, 0);
    parent.local.set_element(i, source);
  }
  for (std::int32_t depth = 1; comm.sum(frontier.local.nvals()) > 0; ++depth) {
    vxm(comm, next, level, no_accum, any_first<Index>{}, frontier, graph, unvisited);
    grb::assign(parent.local, next.local, no_accum, next.local, all, where_present);
    grb::assign(level.local, next.local, no_accum, depth, all, where_present);
    frontier.local = grb::Vector<Index>(rows, Backend::cpu);
    grb::assign(frontier.local, next.local, no_accum, ids.local, all, where_present);
  }
  return {std::move(level.local), std::move(parent.local)};
}

/// Bellman-Ford over min.plus: d = min(d, d' min.+ A) until no distance changes.
template <class T>
grb::Vector<T> sssp_bellman_ford(const Communicator& comm, const Graph<T>& graph, Index source) {
  const Index n = graph.partition.vertices();
  if (source >= n)
    throw IndexOutOfBounds("dist::sssp_bellman_ford: source " + std::to_string(source) +
                           " outside [0, " + std::to_string(n) + ")");
  Vector<T> distance(graph), relaxed(graph);
  if (graph.owns(source)) distance.local.set_element(source - graph.first(), T{0});
  for (std::uint64_t round = 0; round < n; ++round) {
    vxm(comm, relaxed, no_mask, no_accum, min_plus<T>{}, distance, graph);
    grb::Vector<T> improved(distance.local.size(), Backend::cpu);
    grb::ewise_add(improved, no_mask, no_accum, min<T>{}, distance.local, relaxed.local);
    // Changed entries: where the new distance is below the old one, or newly present.
    grb::Vector<bool> changed(distance.local.size(), Backend::cpu);
    grb::ewise_mult(changed, no_mask, no_accum, lt<T>{}, improved, distance.local);
    const std::uint64_t fewer = comm.sum(grb::reduce(plus_monoid<std::uint64_t>{}, changed) +
                                         improved.nvals() - distance.local.nvals());
    distance.local = std::move(improved);
    if (fewer == 0) break;
  }
  return std::move(distance.local);
}

/// Connected components by label propagation over min.first: every vertex starts with its own
/// id and takes the smallest label among itself and its neighbours until none changes. The
/// label of a component is its smallest vertex.
template <class T>
grb::Vector<Index> components_label_propagation(const Communicator& comm, const Graph<T>& graph) {
  const Index rows = graph.partition.count(graph.rank);
  Vector<Index> label(graph), neighbours(graph);
  {
    std::vector<Index> at(rows), value(rows);
    for (Index i = 0; i < rows; ++i) at[i] = i, value[i] = graph.first() + i;
    label.local.build(at, value);
  }
  for (;;) {
    vxm(comm, neighbours, no_mask, no_accum, min_first<Index>{}, label, graph);
    grb::Vector<bool> smaller(rows, Backend::cpu);
    grb::ewise_mult(smaller, no_mask, no_accum, lt<Index>{}, neighbours.local, label.local);
    const std::uint64_t changed = grb::reduce(plus_monoid<std::uint64_t>{}, smaller);
    grb::ewise_add(label.local, no_mask, no_accum, min<Index>{}, label.local, neighbours.local);
    if (comm.sum(changed) == 0) break;
  }
  return std::move(label.local);
}

}  // namespace GRB_OPERATIONS_NAMESPACE

}  // namespace grb::dist
