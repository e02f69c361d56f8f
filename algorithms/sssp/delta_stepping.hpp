// Single-source shortest paths as linear algebra by delta-stepping (Meyer & Sanders 2003), in
// the spirit of LAGraph's LAGr_SingleSourceShortestPath: distances fall into buckets of width
// delta, bucket b holding the vertices with floor(d / delta) == b. The smallest non-empty bucket
// is settled by relaxing its light edges (length <= delta) until no vertex re-enters it, then its
// heavy edges (length > delta) once: they can only reach later buckets, so each heavy edge is
// relaxed once per settled source vertex instead of once per improvement.
//
// Everything is a grb operation: a bucket is a select on the distances, the light and heavy
// edges are two matrices selected from A by length (split_by_length, done once per delta), a
// relaxation is a vxm over min.plus on (distance, vertex) paths, exactly as in
// bellman_ford.hpp, so the parent arrives with the distance it produced.
//
// "pending" holds every vertex improved since it last relaxed its edges, and the next bucket is
// the smallest among them; so no bucket is skipped or visited twice by construction, and the
// result does not rest on floating-point rounding keeping heavy edges out of the bucket.
//
// Needs: a square matrix of non-negative lengths, delta > 0. Returns distances (absent =
// unreachable) and parents (parent(source) = source), with the rounds and buckets it took.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "grb/grb.hpp"
#include "sssp/bellman_ford.hpp"

namespace grb::algorithms {

template <class T>
struct LengthSplit {
  Matrix<T> light;  // edges of length <= delta
  Matrix<T> heavy;  // edges of length > delta
  T delta{};
};

namespace sssp_detail {

/// The path's distance lies in bucket `bucket` of width `delta`.
template <class T>
struct in_bucket {
  T delta;
  T bucket;
  GRB_HOST_DEVICE bool operator()(Path<T> path, Index, Index) const {
    return ::floor(path.distance / delta) == bucket;
  }
};

/// true for every path: the frontier's vertices as a mask (masks hold values that convert to
/// bool, which paths do not).
template <class T>
struct vertex_mark {
  using result_type = bool;
  GRB_HOST_DEVICE bool operator()(Path<T>) const { return true; }
};

}  // namespace sssp_detail

inline namespace GRB_OPERATIONS_NAMESPACE {  // see grb/operations.hpp

/// The light (<= delta) and heavy (> delta) edges of A, on A's backend.
template <class T>
LengthSplit<T> split_by_length(const Matrix<T>& a, T delta) {
  if (!(delta > T{0}) || !std::isfinite(static_cast<double>(delta)))
    throw InvalidValue("delta-stepping: delta must be positive and finite, not " +
                       std::to_string(delta));
  LengthSplit<T> split{Matrix<T>(a.nrows(), a.ncols(), a.backend()),
                       Matrix<T>(a.nrows(), a.ncols(), a.backend()), delta};
  select(split.light, no_mask, no_accum, value_le<T>{delta}, a);
  select(split.heavy, no_mask, no_accum, value_gt<T>{delta}, a);
  return split;
}

template <class T>
SsspResult<T> delta_stepping(const LengthSplit<T>& edges, Index source) {
  using namespace sssp_detail;
  const Index n = edges.light.nrows();
  if (edges.light.ncols() != n)
    throw DimensionMismatch("delta-stepping: the weight matrix must be square, not " +
                            std::to_string(n) + " x " + std::to_string(edges.light.ncols()));
  if (source >= n)
    throw IndexOutOfBounds("delta-stepping: source " + std::to_string(source) +
                           " is not a vertex (n = " + std::to_string(n) + ")");
  if (edges.light.nvals() > 0 && reduce(min_monoid<T>{}, edges.light) < T{0})
    throw InvalidValue("delta-stepping: negative edge length (lengths must be >= 0)");
  const Backend backend = edges.light.backend();
  const T infinity = min_monoid<T>{}.identity();
  const T delta = edges.delta;
  const Descriptor where_present{.replace = true, .structural_mask = true};
  const Descriptor where_absent{.replace = true, .structural_mask = true, .complement_mask = true};

  Vector<Path<T>> best = Vector<Path<T>>::full(n, Path<T>{infinity, no_index}, backend);
  best.set_element(source, Path<T>{T{0}, source});
  Vector<bool> pending(n, backend);
  pending.set_element(source, true);
  Vector<Path<T>> paths(n, backend), frontier(n, backend), candidate(n, backend);
  Vector<T> distances(n, backend);
  Vector<bool> improved(n, backend), settled(n, backend), marked(n, backend);
  std::uint64_t iterations = 0, phases = 0;

  // One relaxation: improved vertices take the new path and become pending.
  auto relax = [&](const Matrix<T>& over) {
    vxm(candidate, no_mask, no_accum, min_plus_path<T>{}, frontier, over);
    ewise_mult(improved, no_mask, no_accum, shorter<T>{}, candidate, best);
    assign(best, improved, no_accum, candidate, all);
    assign(pending, improved, no_accum, true, all);
    ++iterations;
  };

  while (pending.nvals() > 0) {
    apply(paths, pending, no_accum, start_at_vertex<T>{}, best, where_present);
    apply(distances, no_mask, no_accum, distance_of<T>{}, paths);
    const T bucket = ::floor(reduce(min_monoid<T>{}, distances) / delta);
    select(frontier, no_mask, no_accum, in_bucket<T>{delta, bucket}, paths);
    settled.clear();
    while (frontier.nvals() > 0) {
      apply(marked, no_mask, no_accum, vertex_mark<T>{}, frontier);
      assign(settled, marked, no_accum, true, all, Descriptor{.structural_mask = true});
      apply(pending, marked, no_accum, identity<bool>{}, pending, where_absent);
      relax(edges.light);
      // Light edges may land back in this bucket: those vertices go round again at once.
      apply(frontier, improved, no_accum, start_at_vertex<T>{}, candidate,
            Descriptor{.replace = true});
      select(frontier, no_mask, no_accum, in_bucket<T>{delta, bucket}, frontier);
    }
    // The bucket is settled: its vertices relax their heavy edges once, from final distances.
    apply(frontier, settled, no_accum, start_at_vertex<T>{}, best, where_present);
    if (edges.heavy.nvals() > 0) relax(edges.heavy);
    ++phases;
  }

  select(best, no_mask, no_accum, reached<T>{infinity}, best);
  SsspResult<T> result{Vector<T>(n, backend), Vector<Index>(n, backend), iterations, phases};
  apply(result.distance, no_mask, no_accum, distance_of<T>{}, best);
  apply(result.parent, no_mask, no_accum, vertex_of<T>{}, best);
  return result;
}

}  // namespace GRB_OPERATIONS_NAMESPACE
}  // namespace grb::algorithms
