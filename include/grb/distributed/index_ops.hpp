// Distributed extract and assign through index vectors: GraphBLAS's w = u(I) and w(I) = accum
// (w(I), u), where the index list I is itself a distributed vector of vertex ids (FastSV's
// grandparents f(f) and its hooking f(f(u)) = min(...), say). A rank asks the owners of the ids
// it holds for their values (extract), or sends them (id, value) pairs to combine (assign): one
// or two all-to-alls. Host code on the cpu backend, like dist::vxm.
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include "grb/distributed/communicator.hpp"
#include "grb/distributed/remote_values.hpp"
#include "grb/distributed/vxm.hpp"
#include "grb/operations.hpp"

namespace grb::dist {

namespace detail {
/// InvalidValue on every rank when any rank's ids hold one that is not a vertex (the rank that
/// holds it names it), before any exchange: no rank is left waiting.
inline void check_ids(const Communicator& comm, const char* operation,
                      const std::vector<Index>& ids, Index n) {
  Index bad = n;
  for (Index id : ids)
    if (id >= n) {
      bad = id;
      break;
    }
  if (comm.all(bad == n)) return;
  throw InvalidValue(std::string(operation) +
                     (bad != n ? ": index " + std::to_string(bad) +
                                     " is not a vertex (n = " + std::to_string(n) + ")"
                               : ": another rank holds an index that is not a vertex"));
}
}  // namespace detail

inline namespace GRB_OPERATIONS_NAMESPACE {

/// w(i) = u(index(i)) for each i where index has an entry and u has one at vertex index(i);
/// w has no other entries. index's values are vertex ids (InvalidValue for one outside the
/// graph, on the rank that holds it). Collective.
template <class T>
void extract(const Communicator& comm, Vector<T>& w, const Vector<T>& u,
             const Vector<Index>& index) {
  static_assert(std::is_trivially_copyable_v<T>);
  struct Slot {
    T value{};
    bool present = false;
  };
  std::vector<Slot> mine(u.local.size());
  {
    std::vector<Index> at;
    std::vector<T> values;
    u.local.extract_tuples(at, values);
    for (std::size_t k = 0; k < at.size(); ++k) mine[at[k]] = {values[k], true};
  }
  std::vector<Index> at, ids;
  index.local.extract_tuples(at, ids);
  detail::check_ids(comm, "dist::extract", ids, u.partition.vertices());
  detail::RemoteValues<Communicator, Slot> remote(comm, u.partition, u.rank, mine);
  for (Index id : ids) remote.add(id);
  remote.fetch();
  std::vector<Index> out_at;
  std::vector<T> out_values;
  for (std::size_t k = 0; k < ids.size(); ++k)
    if (const Slot slot = remote(ids[k]); slot.present)
      out_at.push_back(at[k]), out_values.push_back(slot.value);
  w.local = grb::Vector<T>(index.local.size(), Backend::cpu);
  w.local.build(out_at, out_values);
}

/// w(index(i)) = accum(w(index(i)), u(i)) for each i where index and u both have entries; the
/// values bound for one vertex are combined by `accum` first (so it must be associative and
/// commutative: min, max, plus), and a vertex w has no entry at takes the combination. Collective.
template <class T, class Accum>
void assign_at(const Communicator& comm, Vector<T>& w, const Accum& accum, const Vector<T>& u,
               const Vector<Index>& index) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<Index> at, ids;
  index.local.extract_tuples(at, ids);
  std::vector<T> values(u.local.size());
  std::vector<char> present(u.local.size(), 0);
  {
    std::vector<Index> u_at;
    std::vector<T> u_values;
    u.local.extract_tuples(u_at, u_values);
    for (std::size_t k = 0; k < u_at.size(); ++k)
      values[u_at[k]] = u_values[k], present[u_at[k]] = 1;
  }
  struct Item {
    Index id;
    T value;
  };
  detail::check_ids(comm, "dist::assign_at", ids, w.partition.vertices());
  std::vector<std::vector<Item>> send(comm.size());
  for (std::size_t k = 0; k < ids.size(); ++k)
    if (present[at[k]]) send[w.partition.owner(ids[k])].push_back({ids[k], values[at[k]]});
  const std::vector<Item> arrived = comm.all_to_all(send);
  std::vector<Index> local_at(arrived.size());
  std::vector<T> local_values(arrived.size());
  for (std::size_t k = 0; k < arrived.size(); ++k)
    local_at[k] = arrived[k].id - w.first(), local_values[k] = arrived[k].value;
  grb::Vector<T> combined(w.local.size(), Backend::cpu);
  combined.build(local_at, local_values, accum);
  grb::assign(w.local, no_mask, accum, combined, all);
}

}  // namespace GRB_OPERATIONS_NAMESPACE

}  // namespace grb::dist
