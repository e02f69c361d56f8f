// Breadth-first search as linear algebra: each level is one masked vxm over the any.secondi
// semiring, q<!visited> = q any.secondi A, whose values are the parents (secondi gives the
// frontier vertex k of the product q(k) * A(k, j)). The backend picks push or pull per level
// from the frontier's size and the mask's density (direction optimization, Beamer et al. 2012),
// so the algorithm itself has no heuristics.
//
// Needs: a square adjacency matrix (A(i, j) = edge i -> j; values ignored). Returns the levels
// (source 0; absent = unreached) and, if asked, the parents (parent(source) = source).
// Reference: LAGraph's LG_BreadthFirstSearch_SSGrB.c (Davis et al.), GraphBLAST's bfs.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>

#include "grb/grb.hpp"

namespace grb::algorithms {

struct BfsResult {
  Vector<std::int32_t> level;
  Vector<Index> parent;  // size 0 when parents were not asked for
};

inline namespace GRB_OPERATIONS_NAMESPACE {  // see grb/operations.hpp

/// bfs into `result`, whose vectors are reused where they have the graph's size and backend
/// (their storage kept: Vector::clear_dense), so a caller searching from many roots allocates
/// them once. Their contents on entry do not matter.
template <class T>
void bfs(BfsResult& result, const Matrix<T>& a, Index source, bool parents = true) {
  const Index n = a.nrows();
  if (a.ncols() != n)
    throw DimensionMismatch("bfs: the adjacency matrix must be square, not " + std::to_string(n) +
                            " x " + std::to_string(a.ncols()));
  if (source >= n)
    throw IndexOutOfBounds("bfs: source " + std::to_string(source) + " is not a vertex (n = " +
                           std::to_string(n) + ")");
  const Backend backend = a.backend();
  // Write q only where no level is set yet; clear it elsewhere.
  const Descriptor unvisited{.replace = true, .structural_mask = true, .complement_mask = true};
  const Descriptor where_present{.structural_mask = true};

  // A storage hint, as LAGraph gives SuiteSparse (GxB_SPARSITY_CONTROL): the results are stored
  // dense from the start, since every level writes them in place; the first level's assigns
  // then need no conversion of their target first.
  auto empty_dense = [&](auto& vector, Index size) {
    if (vector.size() != size || vector.backend() != backend)
      vector = std::remove_reference_t<decltype(vector)>(size, backend);
    vector.clear_dense();
  };
  Vector<std::int32_t>& level = result.level;
  empty_dense(level, n);
  empty_dense(result.parent, parents ? n : 0);
  level.set_element(source, 0);
  // Two frontiers, and the test for an empty one a level late: level `depth` is queued before
  // the host asks whether level depth - 1 found anything. In non-blocking mode the GPU then runs
  // the new level while the host waits for the last one's count (grb/deferred.hpp); a level
  // over an empty frontier finds nothing and costs one call.
  if (parents) {
    std::array<Vector<Index>, 2> frontier{Vector<Index>(n, backend), Vector<Index>(n, backend)};
    frontier[0].set_element(source, source);  // values: the parent of each frontier vertex
    result.parent.set_element(source, source);
    for (std::int32_t depth = 1;; ++depth) {
      const Vector<Index>& q = frontier[(depth - 1) % 2];
      Vector<Index>& next = frontier[depth % 2];
      vxm(next, level, no_accum, any_secondi<Index>{}, q, a, unvisited);
      assign(result.parent, next, no_accum, next, all, where_present);
      assign(level, next, no_accum, depth, all, where_present);
      if (q.nvals() == 0) break;
    }
  } else {
    std::array<Vector<bool>, 2> frontier{Vector<bool>(n, backend), Vector<bool>(n, backend)};
    frontier[0].set_element(source, true);
    for (std::int32_t depth = 1;; ++depth) {
      const Vector<bool>& q = frontier[(depth - 1) % 2];
      Vector<bool>& next = frontier[depth % 2];
      vxm(next, level, no_accum, any_pair<bool>{}, q, a, unvisited);
      assign(level, next, no_accum, depth, all, where_present);
      if (q.nvals() == 0) break;
    }
  }
}

template <class T>
BfsResult bfs(const Matrix<T>& a, Index source, bool parents = true) {
  BfsResult result;
  bfs(result, a, source, parents);
  return result;
}

}  // namespace GRB_OPERATIONS_NAMESPACE
}  // namespace grb::algorithms
