// Connected components on a distributed graph by FastSV (Zhang, Azad and Hu, SIAM PP 2020), the
// same rounds as the single-process algorithms/cc/fastsv.hpp with distributed operations: the
// smallest neighbouring grandparent by the distributed vxm over min.first, the hooking
// f(f(u)) = min(f(f(u)), mngp(u)) by dist::assign_at, the grandparents f(f) by dist::extract.
// Label propagation (linear_algebra.hpp) needs as many rounds as the graph's diameter (a road
// graph's hundreds); FastSV's hooking and shortcutting need a few more than log2 of it.
#pragma once

#include <cstdint>

#include "grb/distributed/index_ops.hpp"
#include "grb/distributed/vxm.hpp"

namespace grb::dist {

inline namespace GRB_OPERATIONS_NAMESPACE {

/// Each vertex's label: the smallest vertex of its component (canonical, as label propagation
/// gives). The graph is undirected (each edge in both rows). `rounds`, when given, receives the
/// hooking rounds. Collective.
template <class T>
grb::Vector<Index> components_fastsv(const Communicator& comm, const Graph<T>& graph,
                                     std::uint32_t* rounds = nullptr) {
  const Index rows = graph.partition.count(graph.rank);
  Vector<Index> parent(graph);
  {
    std::vector<Index> at(rows), value(rows);
    for (Index i = 0; i < rows; ++i) at[i] = i, value[i] = graph.first() + i;
    parent.local.build(at, value);
  }
  Vector<Index> grandparent = parent, smallest = parent, next(graph), targets(graph);
  if (rounds) *rounds = 0;
  for (;;) {
    if (rounds) ++*rounds;
    // mngp(u) = min(mngp(u), min over neighbours v of gp(v)).
    vxm(comm, smallest, no_mask, min<Index>{}, min_first<Index>{}, grandparent, graph);
    // Stochastic hooking, f(f(u)) = min(f(f(u)), mngp(u)): the targets are a copy of f, since f
    // is written.
    targets.local = parent.local;
    assign_at(comm, parent, min<Index>{}, smallest, targets);
    // Aggressive hooking and shortcutting: f = min(f, mngp, gp).
    grb::ewise_add(parent.local, no_mask, no_accum, min<Index>{}, parent.local, smallest.local);
    grb::ewise_add(parent.local, no_mask, no_accum, min<Index>{}, parent.local, grandparent.local);
    // gp = f(f), and whether any changed.
    extract(comm, next, parent, parent);
    grb::Vector<bool> changed(rows, Backend::cpu);
    grb::ewise_mult(changed, no_mask, no_accum, ne<Index>{}, next.local, grandparent.local);
    const std::uint64_t changes = grb::reduce(plus_monoid<std::uint64_t>{}, changed);
    std::swap(grandparent, next);
    if (comm.sum(changes) == 0) break;
  }
  return std::move(parent.local);
}

}  // namespace GRB_OPERATIONS_NAMESPACE

}  // namespace grb::dist
