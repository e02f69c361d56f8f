// Single-source shortest paths as linear algebra: Bellman-Ford over a min.plus semiring on
// paths, relaxing only from the vertices whose distance improved in the last round (the
// frontier) and stopping when none does.
//
// A path is (distance, vertex): the frontier holds (d(k), k), and the product
// frontier min.plus A gives, for each j, the lexicographically smallest (d(k) + A(k, j), k), so
// the parent is recorded with the distance it produced. Parents change only on a strict
// improvement, which keeps them a tree even with zero-length edges (CLRS Lemma 24.16: a cycle of
// predecessors would need a negative cycle).
//
// Needs: a square matrix of non-negative weights (A(i, j) = length of edge i -> j; a stored zero
// is an edge of length 0). Returns distances (absent = unreachable) and parents
// (parent(source) = source).
#pragma once

#include <cstdint>
#include <string>

#include "grb/grb.hpp"

namespace grb::algorithms {

template <class T>
struct SsspResult {
  Vector<T> distance;
  Vector<Index> parent;
  std::uint64_t iterations = 0;  // vxm rounds
  std::uint64_t phases = 1;      // buckets (delta-stepping); 1 for Bellman-Ford
};

namespace sssp_detail {

/// A path's length and the vertex it ends at (frontier) or came from (candidates).
template <class T>
struct Path {
  T distance;
  Index vertex;
};

/// Extends the path to k, (d(k), k), by the edge (k, j): (d(k) + A(k, j), k).
template <class T>
struct extend {
  using result_type = Path<T>;
  GRB_HOST_DEVICE Path<T> operator()(Path<T> path, T weight) const {
    return {static_cast<T>(path.distance + weight), path.vertex};
  }
};

/// The shorter path; on ties the smaller vertex id, so results are deterministic.
template <class T>
struct shortest {
  using value_type = Path<T>;
  using result_type = Path<T>;
  GRB_HOST_DEVICE Path<T> identity() const { return {min_monoid<T>{}.identity(), no_index}; }
  GRB_HOST_DEVICE Path<T> operator()(Path<T> x, Path<T> y) const {
    if (y.distance < x.distance || (y.distance == x.distance && y.vertex < x.vertex)) return y;
    return x;
  }
};

template <class T>
using min_plus_path = semiring<shortest<T>, extend<T>>;

template <class T>
struct shorter {
  using result_type = bool;
  GRB_HOST_DEVICE bool operator()(Path<T> x, Path<T> y) const { return x.distance < y.distance; }
};

/// An improved vertex j joins the frontier as (d(j), j): an index-unary operator.
template <class T>
struct start_at_vertex {
  using result_type = Path<T>;
  GRB_HOST_DEVICE Path<T> operator()(Path<T> path, Index i, Index) const {
    return {path.distance, i};
  }
};

template <class T>
struct reached {
  T infinity;
  GRB_HOST_DEVICE bool operator()(Path<T> path, Index, Index) const {
    return path.distance < infinity;
  }
};

template <class T>
struct distance_of {
  using result_type = T;
  GRB_HOST_DEVICE T operator()(Path<T> path) const { return path.distance; }
};

template <class T>
struct vertex_of {
  using result_type = Index;
  GRB_HOST_DEVICE Index operator()(Path<T> path) const { return path.vertex; }
};

}  // namespace sssp_detail

inline namespace GRB_OPERATIONS_NAMESPACE {  // see grb/operations.hpp

template <class T>
SsspResult<T> sssp(const Matrix<T>& a, Index source) {
  using namespace sssp_detail;
  const Index n = a.nrows();
  if (a.ncols() != n)
    throw DimensionMismatch("sssp: the weight matrix must be square, not " + std::to_string(n) +
                            " x " + std::to_string(a.ncols()));
  if (source >= n)
    throw IndexOutOfBounds("sssp: source " + std::to_string(source) + " is not a vertex (n = " +
                           std::to_string(n) + ")");
  if (a.nvals() > 0) {
    const T lightest = reduce(min_monoid<T>{}, a);
    if (lightest < T{0})
      throw InvalidValue("sssp: negative edge weight " + std::to_string(lightest) +
                         " (Bellman-Ford here requires weights >= 0)");
  }
  const Backend backend = a.backend();
  const T infinity = min_monoid<T>{}.identity();

  // best is full (distance infinity = not reached yet), so "improved" is a plain comparison.
  Vector<Path<T>> best = Vector<Path<T>>::full(n, Path<T>{infinity, no_index}, backend);
  best.set_element(source, Path<T>{T{0}, source});
  Vector<Path<T>> frontier(n, backend);
  frontier.set_element(source, Path<T>{T{0}, source});
  Vector<Path<T>> candidate(n, backend);
  Vector<bool> improved(n, backend);

  std::uint64_t iterations = 0;
  for (; frontier.nvals() > 0; ++iterations) {
    vxm(candidate, no_mask, no_accum, min_plus_path<T>{}, frontier, a);
    ewise_mult(improved, no_mask, no_accum, shorter<T>{}, candidate, best);
    assign(best, improved, no_accum, candidate, all);
    apply(frontier, improved, no_accum, start_at_vertex<T>{}, candidate,
          Descriptor{.replace = true});
  }

  select(best, no_mask, no_accum, reached<T>{infinity}, best);
  SsspResult<T> result{Vector<T>(n, backend), Vector<Index>(n, backend), iterations};
  apply(result.distance, no_mask, no_accum, distance_of<T>{}, best);
  apply(result.parent, no_mask, no_accum, vertex_of<T>{}, best);
  return result;
}

}  // namespace GRB_OPERATIONS_NAMESPACE
}  // namespace grb::algorithms
