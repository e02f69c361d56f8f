// The distributed vxm: w<mask> = accum(w, u' ⊕.⊗ A) with u, w and the mask split over the
// ranks like the graph's vertices, and A = the graph (each rank its rows). Each rank multiplies
// its entries of u by its rows (a local grb::vxm, whose monoid already combines the
// contributions to each column: the pruning of seed 004, for any semiring), sends each entry of
// that partial result to the column's owner in one all-to-all, and the owner combines what
// arrives with the monoid and applies the mask and accumulator locally (grb::assign). Host code
// on the cpu backend: the exchange is the same pipeline as dist::bfs's.
#pragma once

#include <utility>
#include <vector>

#include "grb/distributed/communicator.hpp"
#include "grb/distributed/graph.hpp"
#include "grb/operations.hpp"

namespace grb::dist {

/// This rank's part of a vector over the graph's vertices: entry i of `local` is vertex
/// partition.first(rank) + i.
template <class T>
struct Vector {
  BlockPartition partition{0, 1};
  int rank = 0;
  grb::Vector<T> local;

  /// An empty vector over `graph`'s vertices.
  template <class G>
  explicit Vector(const Graph<G>& graph)
      : partition(graph.partition), rank(graph.rank), local(graph.partition.count(graph.rank), Backend::cpu) {}
  Index first() const { return partition.first(rank); }
};

inline namespace GRB_OPERATIONS_NAMESPACE {

/// w<mask> = accum(w, u' ⊕.⊗ A) (see the top of this file). `mask` is grb::no_mask or a
/// dist::Vector; the descriptor applies to it as in grb::vxm.
template <class W, class Mask, class Accum, class Semiring, class U, class A>
void vxm(const Communicator& comm, Vector<W>& w, const Mask& mask, const Accum& accum,
         const Semiring& semiring, const Vector<U>& u, const Graph<A>& a,
         const Descriptor& desc = {}) {
  using Z = typename Semiring::value_type;
  // This rank's contributions, combined per column by the semiring's monoid.
  grb::Vector<Z> partial(a.partition.vertices(), Backend::cpu);
  grb::vxm(partial, no_mask, no_accum, semiring, u.local, a.local);
  std::vector<Index> indices;
  std::vector<Z> values;
  partial.extract_tuples(indices, values);
  struct Item {
    Index index;
    Z value;
  };
  std::vector<std::vector<Item>> send(comm.size());
  for (std::size_t k = 0; k < indices.size(); ++k)
    send[a.partition.owner(indices[k])].push_back({indices[k], values[k]});
  const std::vector<Item> arrived = comm.all_to_all(send);

  // The owner's side: the arrivals combined by the monoid, then mask and accumulator.
  std::vector<Index> local_indices(arrived.size());
  std::vector<Z> local_values(arrived.size());
  for (std::size_t k = 0; k < arrived.size(); ++k)
    local_indices[k] = arrived[k].index - w.first(), local_values[k] = arrived[k].value;
  grb::Vector<Z> product(w.local.size(), Backend::cpu);
  product.build(local_indices, local_values, semiring.add);
  if constexpr (std::is_same_v<Mask, NoMask>)
    grb::assign(w.local, no_mask, accum, product, all, desc);
  else
    grb::assign(w.local, mask.local, accum, product, all, desc);
}

}  // namespace GRB_OPERATIONS_NAMESPACE

}  // namespace grb::dist
