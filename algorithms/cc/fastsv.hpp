// Connected components as linear algebra: FastSV (Zhang, Azad and Hu, "FastSV: a distributed-
// memory connected component algorithm with fast convergence", SIAM PP 2020), in the form of
// LAGraph's CC_FastSV. Every vertex keeps a parent f; each round
//   hooks f(f(u)) and f(u) to the smallest grandparent among u's neighbours (mngp: one mxv over
//   the min.second semiring), shortcuts f(u) to its grandparent, and recomputes the grandparents
//   gp = f(f) (an extract whose index list is f itself),
// until the grandparents stop changing. Parents only decrease and stay inside the component,
// and the smallest vertex of a component is its own parent throughout, so at the fixed point
// every vertex points at the smallest vertex of its component: the labels are canonical.
//
// Needs: the adjacency matrix of an undirected graph (directed graphs give weakly connected
// components: pass symmetric = false and A + A' is formed first). Values are ignored.
// `rounds`, when given, receives the number of hooking rounds (the engine table reports it).
#pragma once

#include <cstdint>
#include <string>

#include "grb/grb.hpp"

namespace grb::algorithms {

namespace cc_detail {
/// (x, i) -> i: a vector's own indices (an index-unary operator).
struct own_index {
  using result_type = Index;
  template <class T>
  GRB_HOST_DEVICE Index operator()(T, Index i, Index) const { return i; }
};

/// The values of a full Vector<Index>, as an index list on its backend.
inline IndexList values_as_indices(const Vector<Index>& v) {
  return IndexList(std::span<const Index>(v.values().data(), v.values().size()), v.backend());
}
}  // namespace cc_detail

inline namespace GRB_OPERATIONS_NAMESPACE {  // see grb/operations.hpp

/// FastSV's rounds on the adjacency matrix of an undirected graph (its values are ignored: the
/// min.second product reads the vector's).
template <class T>
Vector<Index> fastsv_rounds(const Matrix<T>& undirected, std::uint32_t* rounds) {
  using namespace cc_detail;
  const Index n = undirected.nrows();
  const Backend backend = undirected.backend();
  // Every vector is stored dense from the start and written in place: on cuda the rounds run as
  // one device loop (grb::repeat_while), recorded once and repeated by the GPU.
  Vector<Index> parent = Vector<Index>::full(n, 0, backend);
  apply(parent, no_mask, no_accum, own_index{}, parent);
  Vector<Index> grandparent = parent;
  Vector<Index> min_neighbour_grandparent = parent;
  Vector<Index> next_grandparent = parent;
  Vector<Index> hook_targets = parent;
  Vector<bool> changed = Vector<bool>::full(n, false, backend);
  Scalar<bool> any_changed(false, backend);

  const std::uint64_t iterations = repeat_while(any_changed, [&] {
    // mngp(u) = min(mngp(u), min over neighbours v of gp(v))
    mxv(min_neighbour_grandparent, no_mask, min<Index>{}, min_second<Index>{}, undirected,
        grandparent);
    // Stochastic hooking: f(f(u)) = min(f(f(u)), mngp(u)). The index list is a copy of f, since
    // f itself is being written.
    apply(hook_targets, no_mask, no_accum, identity<Index>{}, parent);
    assign(parent, no_mask, min<Index>{}, min_neighbour_grandparent,
           values_as_indices(hook_targets));
    // Aggressive hooking and shortcutting: f = min(f, mngp, gp).
    ewise_add(parent, no_mask, no_accum, min<Index>{}, parent, min_neighbour_grandparent);
    ewise_add(parent, no_mask, no_accum, min<Index>{}, parent, grandparent);
    // gp = f(f); go on while it changed
    extract(next_grandparent, no_mask, no_accum, parent, values_as_indices(parent));
    ewise_mult(changed, no_mask, no_accum, ne<Index>{}, next_grandparent, grandparent);
    reduce(any_changed, lor_monoid<bool>{}, changed);
    apply(grandparent, no_mask, no_accum, identity<Index>{}, next_grandparent);
  });
  if (rounds) *rounds = static_cast<std::uint32_t>(iterations);
  return parent;
}

template <class T>
Vector<Index> connected_components(const Matrix<T>& a, bool symmetric = true,
                                   std::uint32_t* rounds = nullptr) {
  const Index n = a.nrows();
  if (a.ncols() != n)
    throw DimensionMismatch("connected_components: the adjacency matrix must be square, not " +
                            std::to_string(n) + " x " + std::to_string(a.ncols()));
  if (symmetric) return fastsv_rounds(a, rounds);  // A itself: no copy of the graph
  Matrix<bool> undirected(n, n, a.backend());
  ewise_add(undirected, no_mask, no_accum, lor<bool>{}, pattern(a), pattern(a),
            Descriptor{.transpose_second = true});
  return fastsv_rounds(undirected, rounds);
}

}  // namespace GRB_OPERATIONS_NAMESPACE
}  // namespace grb::algorithms
